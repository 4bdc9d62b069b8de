import type { TSchema } from 'typebox'
import { isTimerBudget, MAX_TIMER_MS } from '../async/deadline.js'
import { dropAnswer } from '../async/thenable.js'
import { firstHole } from '../json/guards.js'
import { isJsonValueError } from '../json/json-value-error.js'
import { frozenJsonCopy } from '../json/own-copy.js'
import { sharedFrozenCopy, type SharedCopies } from '../json/shared-copy.js'
import { appendPointer, escapePointerToken } from '../json/pointer.js'
import { likelyName } from '../errors/spelling.js'
import { scrubText } from '../redact/secrets.js'
import { parseSensitivePaths } from '../redact/sensitive-paths.js'
import type { JsonSchema } from '../schema/json-schema.js'
import { readCompactSchema } from '../schema/compact-shape.js'
import { proveCopiedViewSubset } from '../schema/subset.js'
import { compileOmitPass, omitPathProblem, OmitRuleFailure, type OmitPass, type OmitWhen } from '../views/omit-rules.js'
import { compileProjector, type Projector } from '../views/project.js'
import type { View } from '../views/view.js'
import { brandTool } from './brand.js'
import { omitRuleFailed } from './omit-rule-failed.js'
import { defaultPreview, quotedPropertyNames, type QuotedKeys } from './preview.js'
import { selectorConflicts } from './selector-conflicts.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { ToolDefinitionError } from './tool-definition-error.js'
import type {
  SingleResultTool,
  SingleResultToolDefinition,
  ToolBase,
  ToolDefinition,
  ViewedTool,
  ViewedToolDefinition,
} from './types.js'

const TOOL_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/
const ORIGINS = ['native', 'extension', 'mcp']
const APPROVALS = ['none', 'required']
const INPUT_ERROR_CODES = ['tool_invalid_input', 'invalid_request']
/**
 * Every key a definition of either kind may have; any other is refused. Typed
 * as a record of exactly those keys, so a key added to the definition type without this list (or
 * left here after it is removed) fails the type-check instead of being refused at run time.
 */
const DEFINITION_KEYS: readonly string[] = Object.keys({
  id: true,
  description: true,
  input: true,
  output: true,
  handler: true,
  origin: true,
  risk: true,
  approval: true,
  readOnly: true,
  toolsets: true,
  sensitiveInputFields: true,
  inputErrorCode: true,
  preview: true,
  handlerTimeoutMs: true,
  omitWhen: true,
} satisfies Record<keyof ViewedToolDefinition | keyof SingleResultToolDefinition, true>)
/** Longest part of an unknown key a problem message quotes, in UTF-16 code units before the `…`. */
const MAX_QUOTED_KEY = 64
/** Most unknown keys reported one by one; the rest are counted in one more problem. */
const MAX_UNKNOWN_KEYS = 20

/**
 * Defines a tool, checking everything that can be checked before any call (`docs/views.md`
 * "Defining a viewed tool").
 *
 * - A definition whose `output` is `{ compact, full }` gives a {@link ViewedTool}: the compact
 *   schema must be provably a subset of the full one (`proveViewSubset`), and the projector is
 *   compiled once, on the first compact projection. Views are for native tools only.
 * - Any other `output` schema gives a {@link SingleResultTool}.
 * - A native tool's input schema must not declare `result_view` (the library owns the selector);
 *   an `extension` or `mcp` tool may, and is never inspected for it.
 * - A viewed tool's `omitWhen` rules each name an optional property the compact schema declares
 *   (`docs/views.md` "Value-dependent compact rules"); a rule is a function.
 * - Schemas must be plain JSON; the tool keeps deep-frozen plain copies (TypeBox's hidden keys
 *   dropped).
 * - A key the definition may not have is refused (`unknown_option`, naming the key it was
 *   likely meant to be: `sensitive_input_fields` → `sensitiveInputFields`).
 *
 * @throws ToolDefinitionError (`code: 'tool_definition_invalid'`) listing every problem at once,
 *   each with a JSON Pointer into the definition (e.g. `/output/compact/properties/id`).
 */
export function defineTool<I extends TSchema, C extends TSchema, F extends TSchema>(
  definition: ViewedToolDefinition<I, C, F>,
): ViewedTool<I, C, F>
// `compact?: never`: a view pair is never a single output. Without it, TypeScript's subtype pass
// could pick this overload for a viewed definition whose handler omits an optional field.
/**
 * Defines a single-result tool: `output` is one schema (see the viewed overload for the checks).
 *
 * @throws ToolDefinitionError (`code: 'tool_definition_invalid'`) listing every problem at once.
 */
export function defineTool<I extends TSchema, O extends TSchema & { compact?: never; full?: never }>(
  definition: SingleResultToolDefinition<I, O>,
): SingleResultTool<I, O>
export function defineTool(definition: ToolDefinition): ViewedTool | SingleResultTool {
  try {
    return defineChecked(definition)
  } catch (error) {
    if (error instanceof ToolDefinitionError) throw error
    // A getter or Proxy in the definition threw while it was read.
    throw new ToolDefinitionError(undefined, [{ path: '', code: 'unreadable_definition', message: `the definition could not be read: ${error instanceof Error ? error.message : String(error)}` }])
  }
}

function defineChecked(definition: ToolDefinition): ViewedTool | SingleResultTool {
  const problems: UsageProblem[] = []
  const problem = (path: string, code: string, message: string): void => {
    problems.push({ path, code, message })
  }
  if (typeof definition !== 'object' || definition === null) {
    throw new ToolDefinitionError(undefined, [{ path: '', code: 'not_an_object', message: 'a tool definition must be an object' }])
  }
  const d = definition as unknown as Record<string, unknown>
  unknownKeys(d, problem)
  const id = typeof d.id === 'string' ? d.id : undefined
  if (id === undefined || !TOOL_ID.test(id)) {
    problem('/id', 'invalid_id', 'id must be 1-128 characters of letters, digits, "_", ".", ":" or "-", starting with a letter or digit')
  }
  if (typeof d.description !== 'string') problem('/description', 'invalid_description', 'description must be a string')
  if (typeof d.handler !== 'function') problem('/handler', 'invalid_handler', 'handler must be a function')
  const origin = d.origin ?? 'native'
  if (!ORIGINS.includes(origin as string)) problem('/origin', 'invalid_origin', 'origin must be "native", "extension" or "mcp"')
  const approval = d.approval ?? 'none'
  if (!APPROVALS.includes(approval as string)) problem('/approval', 'invalid_approval', 'approval must be "none" or "required"')
  const inputErrorCode = d.inputErrorCode ?? 'tool_invalid_input'
  if (!INPUT_ERROR_CODES.includes(inputErrorCode as string)) {
    problem('/inputErrorCode', 'invalid_input_error_code', 'inputErrorCode must be "tool_invalid_input" or "invalid_request"')
  }
  if (d.risk !== undefined && typeof d.risk !== 'string') problem('/risk', 'invalid_risk', 'risk must be a string')
  if (d.readOnly !== undefined && typeof d.readOnly !== 'boolean') problem('/readOnly', 'invalid_read_only', 'readOnly must be a boolean')
  if (d.preview !== undefined && typeof d.preview !== 'function') problem('/preview', 'invalid_preview', 'preview must be a function')
  if (d.handlerTimeoutMs !== undefined && !isTimerBudget(d.handlerTimeoutMs)) {
    problem('/handlerTimeoutMs', 'invalid_timeout', `handlerTimeoutMs must be a positive number of milliseconds up to ${MAX_TIMER_MS}, or Infinity`)
  }
  const toolsets = stringList(d.toolsets, '/toolsets', problem)
  const sensitiveInputFields = stringList(d.sensitiveInputFields, '/sensitiveInputFields', problem)
  for (const index of parseSensitivePaths(sensitiveInputFields).invalid) {
    problem(`/sensitiveInputFields/${index}`, 'invalid_sensitive_path', 'a sensitive input field is a dotted path such as "secret", "auth.token" or "items[].token"')
  }

  // The schemas share the copies of the parts they share (a TypeBox part used in both views is
  // copied and frozen once), only within this definition.
  const shared: SharedCopies = new Map()
  const inputSchema = plainSchema(d.input, '/input', problem, shared)
  if (inputSchema !== undefined) {
    if (inputSchema.type !== 'object') problem('/input/type', 'input_not_object', 'the input schema must be an object schema (type: "object")')
    if (origin === 'native') {
      for (const conflict of selectorConflicts(inputSchema)) problem('/input' + conflict.pointer, 'result_view_declared', conflict.message)
    }
  }

  const output = d.output as Record<string, unknown> | undefined
  const viewed = isViewPair(output)
  if (!viewed && isHalfViewPair(output)) {
    problem('/output', 'invalid_view_pair', 'output must be one schema, or exactly { compact, full } with both schemas')
  }
  let compact: JsonSchema | undefined
  let full: JsonSchema | undefined
  let single: JsonSchema | undefined
  if (viewed) {
    if (origin !== 'native') problem('/output', 'views_not_native', 'only native tools can have result views')
    compact = plainSchema(output.compact, '/output/compact', problem, shared)
    full = plainSchema(output.full, '/output/full', problem, shared)
    if (compact !== undefined && full !== undefined) {
      const proof = proveCopiedViewSubset(compact, full)
      if (!proof.ok) {
        for (const v of proof.violations) {
          problems.push({ path: '/output/compact' + v.compactPath, code: v.code, message: `${v.message} (full view: /output/full${v.fullPath})` })
        }
      }
    }
  } else {
    single = plainSchema(output, '/output', problem, shared)
  }
  const omitWhen = readOmitWhen(d.omitWhen, viewed ? compact : undefined, viewed, problem)

  if (problems.length > 0) throw new ToolDefinitionError(id, problems)

  const userPreview = d.preview as ((record: unknown) => string) | undefined
  const base: Omit<ToolBase, 'preview'> = {
    id: id!,
    description: d.description as string,
    origin: origin as ToolBase['origin'],
    risk: d.risk as string | undefined,
    approval: approval as ToolBase['approval'],
    readOnly: (d.readOnly as boolean | undefined) ?? d.risk === 'read',
    toolsets,
    sensitiveInputFields,
    inputErrorCode: inputErrorCode as ToolBase['inputErrorCode'],
    inputSchema: inputSchema!,
    handler: d.handler as ToolBase['handler'],
    handlerTimeoutMs: d.handlerTimeoutMs as number | undefined,
  }
  // The default preview writes the declared property names from literals made on its first use.
  let quoted: QuotedKeys | undefined
  const preview =
    userPreview === undefined
      ? (_full: unknown, selected: unknown, secrets?: readonly string[]) => defaultPreview(selected, (quoted ??= quotedPropertyNames(viewed ? full : single)), secrets)
      : guardedPreview(userPreview)

  if (viewed) {
    // Compiled on the first compact projection, then kept: once per tool, and a catalog of many
    // tools pays for code generation only for the tools that are called. Nothing can fail there:
    // the proof above already rejected every schema the projector would refuse.
    let projector: Projector | undefined
    const compactSchema = compact!
    const omitPass: OmitPass | undefined = Object.keys(omitWhen).length === 0 ? undefined : compileOmitPass(omitWhen)
    const toolId = id!
    const tool: ViewedTool = {
      ...base,
      kind: 'viewed',
      output: Object.freeze({ compact: compact!, full: full! }),
      omitWhen,
      preview,
      project: (record: unknown, view: View) => {
        if (view === 'full') return record
        const projected = (projector ??= compileProjector(compactSchema))(record)
        if (omitPass !== undefined) {
          try {
            omitPass(projected)
          } catch (error) {
            if (error instanceof OmitRuleFailure) throw omitRuleFailed(toolId, error)
            throw error
          }
        }
        return projected
      },
    }
    return Object.freeze(brandTool(tool))
  }
  const tool: SingleResultTool = { ...base, kind: 'single', output: single!, preview }
  return Object.freeze(brandTool(tool))
}

/**
 * Refuses every own key a definition may not have, naming the key and the one it was likely meant
 * to be: a misspelt `sensitive_input_fields` would otherwise leave its fields unredacted. The
 * suggestion is the known key equal up to case, `_` and `-`, or else the nearest by edit distance
 * (`nearestName`). Problem code `unknown_option` at `/<key>`; keys are quoted up to 64
 * characters, and past 20 unknown keys the rest are counted in one problem at the root.
 */
function unknownKeys(definition: Record<string, unknown>, problem: (path: string, code: string, message: string) => void): void {
  let count = 0
  for (const key of Object.keys(definition)) {
    if (DEFINITION_KEYS.includes(key)) continue
    count++
    if (count > MAX_UNKNOWN_KEYS) continue
    const quoted = key.length > MAX_QUOTED_KEY ? key.slice(0, MAX_QUOTED_KEY) + '…' : key
    const meant = likelyKey(key)
    problem(
      '/' + escapePointerToken(key),
      'unknown_option',
      `unknown definition key ${JSON.stringify(quoted)}${meant === undefined ? '' : `; did you mean "${meant}"?`}`,
    )
  }
  if (count > MAX_UNKNOWN_KEYS) problem('', 'unknown_option', `${count - MAX_UNKNOWN_KEYS} more unknown definition keys`)
}

/** The definition key `key` was likely meant to be, if any (`sensitive_input_fields` → `sensitiveInputFields`). */
function likelyKey(key: string): string | undefined {
  return likelyName(key, DEFINITION_KEYS)
}

/**
 * A tool's own preview, made safe: its label (scrubbed of the call's secrets) when it returns a
 * well-formed string, the default preview of the selected record when it throws or returns
 * anything else (the handler has already run; its result is never lost over a label). A promise
 * it returns is not awaited, and its rejection is marked handled (it would otherwise end a Node
 * process).
 */
function guardedPreview(userPreview: (record: unknown) => unknown): ToolBase['preview'] {
  return (full, selected, secrets = []) => {
    try {
      const label = userPreview(full)
      if (typeof label === 'string' && (label as string & { isWellFormed(): boolean }).isWellFormed()) return scrubText(label, secrets)
      // A preview is synchronous: a promise it returned is dropped, and its rejection with it.
      dropAnswer(label)
    } catch {
      // Fall back to the default label below.
    }
    return defaultPreview(selected, undefined, secrets)
  }
}

/** An output that names `compact` or `full` but is not exactly the pair (a forgotten or extra key). */
function isHalfViewPair(output: Record<string, unknown> | undefined): boolean {
  return typeof output === 'object' && output !== null && (Object.prototype.hasOwnProperty.call(output, 'compact') || Object.prototype.hasOwnProperty.call(output, 'full'))
}

function isViewPair(output: Record<string, unknown> | undefined): output is { compact: unknown; full: unknown } {
  return (
    typeof output === 'object' &&
    output !== null &&
    Object.prototype.hasOwnProperty.call(output, 'compact') &&
    Object.prototype.hasOwnProperty.call(output, 'full') &&
    Object.keys(output).length === 2
  )
}

type Report = (path: string, code: string, message: string) => void

const NO_RULES: OmitWhen = Object.freeze(Object.create(null) as OmitWhen)

/**
 * The `omitWhen` rules of a definition, checked (every problem reported at
 * `/omitWhen/<escaped path>`), as a frozen null-prototype copy: path → function. Only viewed tools
 * take them. Paths are checked against the compact schema when it is readable.
 */
function readOmitWhen(value: unknown, compact: JsonSchema | undefined, viewed: boolean, problem: Report): OmitWhen {
  if (value === undefined) return NO_RULES
  if (!viewed) {
    problem('/omitWhen', 'omit_when_not_viewed', 'omitWhen rules are for tools with views (output: { compact, full })')
    return NO_RULES
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problem('/omitWhen', 'omit_when_invalid', 'omitWhen must be an object of rule path → function, e.g. { "/skills/*/diagnostics": (list, skill) => boolean }')
    return NO_RULES
  }
  const root = compact === undefined ? undefined : readCompactSchema(compact).root
  const rules: Record<string, unknown> = Object.create(null)
  for (const path of Object.keys(value)) {
    const at = `/omitWhen/${escapePointerToken(path)}`
    const rule = (value as Record<string, unknown>)[path]
    if (typeof rule !== 'function') problem(at, 'omit_rule_not_function', `the rule at ${JSON.stringify(path)} must be a function (value, parent) => boolean`)
    const pathProblem = root === undefined ? undefined : omitPathProblem(root, path)
    if (pathProblem !== undefined) problem(at, pathProblem.code, pathProblem.message)
    Object.defineProperty(rules, path, { value: rule, enumerable: true })
  }
  return Object.freeze(rules) as OmitWhen
}

function stringList(value: unknown, path: string, problem: Report): readonly string[] {
  if (value === undefined) return Object.freeze([])
  if (!Array.isArray(value) || firstHole(value) !== -1 || value.some((v) => typeof v !== 'string' || v.length === 0)) {
    problem(path, 'invalid_string_list', `${path.slice(1)} must be an array of non-empty strings`)
    return Object.freeze([])
  }
  return Object.freeze([...value])
}

/**
 * A deep-frozen plain JSON copy of a schema, or `undefined` after reporting why it is unusable.
 * Parts met before in `shared` (another schema of the definition) are the same frozen objects.
 */
function plainSchema(schema: unknown, path: string, problem: Report, shared: SharedCopies): JsonSchema | undefined {
  if (typeof schema !== 'object' || schema === null || isArrayOrUnreadable(schema)) {
    problem(path, 'invalid_schema', 'must be a JSON Schema object')
    return undefined
  }
  // The one walk: plain JSON, no `__proto__` key. Anything it refuses is copied again below
  // (unshared), which names the problem and its pointer.
  const fast = sharedFrozenCopy(schema, shared)
  if (fast !== undefined) return fast as JsonSchema
  let copy: JsonSchema
  try {
    // Own enumerable string keys, as JSON.stringify reads them: TypeBox's hidden keys are dropped.
    copy = frozenJsonCopy(schema) as JsonSchema
  } catch (error) {
    if (!isJsonValueError(error)) throw error
    problem(path + error.pointer, 'schema_not_json', `schema is not plain JSON: ${error.message}`)
    return undefined
  }
  const proto = protoKeyPointer(copy, '')
  if (proto !== undefined) {
    problem(path + proto, 'schema_proto_key', 'a schema may not hold a "__proto__" key: ajv cannot validate a property of that name')
    return undefined
  }
  return copy
}

/** `Array.isArray`, true also for a revoked Proxy (which cannot be read as a schema either). */
function isArrayOrUnreadable(value: object): boolean {
  try {
    return Array.isArray(value)
  } catch {
    return true
  }
}

/** The JSON Pointer of the first `__proto__` key in a plain JSON value, or `undefined`. */
function protoKeyPointer(value: unknown, pointer: string): string | undefined {
  const tokens = protoKeyPath(value)
  return tokens === undefined ? undefined : appendPointer(pointer, ...tokens)
}

/** The path to the first `__proto__` key (the key last), or `undefined`; built only on a find. */
function protoKeyPath(value: unknown): Array<string | number> | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = protoKeyPath(value[i])
      if (found !== undefined) return [i, ...found]
    }
    return undefined
  }
  if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return ['__proto__']
  for (const key in value) {
    const found = protoKeyPath((value as Record<string, unknown>)[key])
    if (found !== undefined) return [key, ...found]
  }
  return undefined
}
