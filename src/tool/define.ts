import type { TSchema } from 'typebox'
import { firstHole } from '../json/guards.js'
import { isJsonValueError } from '../json/json-value-error.js'
import { frozenJsonCopy } from '../json/own-copy.js'
import { appendPointer } from '../json/pointer.js'
import { parseSensitivePaths } from '../redact/sensitive-paths.js'
import type { JsonSchema } from '../schema/json-schema.js'
import { proveViewSubset } from '../schema/subset.js'
import { compileProjector, type Projector } from '../views/project.js'
import type { View } from '../views/view.js'
import { brandTool } from './brand.js'
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
 * Defines a tool, checking everything that can be checked before any call (`docs/views.md`
 * "Defining a viewed tool").
 *
 * - A definition whose `output` is `{ compact, full }` gives a {@link ViewedTool}: the compact
 *   schema must be provably a subset of the full one (`proveViewSubset`), and the projector is
 *   compiled once, on the first compact projection. Views are for native tools only.
 * - Any other `output` schema gives a {@link SingleResultTool}.
 * - A native tool's input schema must not declare `result_view` (the library owns the selector);
 *   an `extension` or `mcp` tool may, and is never inspected for it.
 * - Schemas must be plain JSON; the tool keeps deep-frozen plain copies (TypeBox's hidden keys
 *   dropped).
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
  const toolsets = stringList(d.toolsets, '/toolsets', problem)
  const sensitiveInputFields = stringList(d.sensitiveInputFields, '/sensitiveInputFields', problem)
  for (const index of parseSensitivePaths(sensitiveInputFields).invalid) {
    problem(`/sensitiveInputFields/${index}`, 'invalid_sensitive_path', 'a sensitive input field is a dotted path such as "secret", "auth.token" or "items[].token"')
  }

  const inputSchema = plainSchema(d.input, '/input', problem)
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
    compact = plainSchema(output.compact, '/output/compact', problem)
    full = plainSchema(output.full, '/output/full', problem)
    if (compact !== undefined && full !== undefined) {
      const proof = proveViewSubset(compact, full)
      if (!proof.ok) {
        for (const v of proof.violations) {
          problems.push({ path: '/output/compact' + v.compactPath, code: v.code, message: `${v.message} (full view: /output/full${v.fullPath})` })
        }
      }
    }
  } else {
    single = plainSchema(output, '/output', problem)
  }

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
  }
  // The default preview writes the declared property names from literals made on its first use.
  let quoted: QuotedKeys | undefined
  const preview =
    userPreview === undefined
      ? (_full: unknown, selected: unknown) => defaultPreview(selected, (quoted ??= quotedPropertyNames(viewed ? full : single)))
      : guardedPreview(userPreview)

  if (viewed) {
    // Compiled on the first compact projection, then kept: once per tool, and a catalog of many
    // tools pays for code generation only for the tools that are called. Nothing can fail there:
    // the proof above already rejected every schema the projector would refuse.
    let projector: Projector | undefined
    const compactSchema = compact!
    const tool: ViewedTool = {
      ...base,
      kind: 'viewed',
      output: Object.freeze({ compact: compact!, full: full! }),
      preview,
      project: (record: unknown, view: View) => (view === 'full' ? record : (projector ??= compileProjector(compactSchema))(record)),
    }
    return Object.freeze(brandTool(tool))
  }
  const tool: SingleResultTool = { ...base, kind: 'single', output: single!, preview }
  return Object.freeze(brandTool(tool))
}

/**
 * A tool's own preview, made safe: its label when it returns a well-formed string, the default
 * preview of the selected record when it throws or returns anything else (the handler has already
 * run; its result is never lost over a label).
 */
function guardedPreview(userPreview: (record: unknown) => unknown): ToolBase['preview'] {
  return (full, selected) => {
    try {
      const label = userPreview(full)
      if (typeof label === 'string' && (label as string & { isWellFormed(): boolean }).isWellFormed()) return label
    } catch {
      // Fall back to the default label below.
    }
    return defaultPreview(selected)
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

function stringList(value: unknown, path: string, problem: Report): readonly string[] {
  if (value === undefined) return Object.freeze([])
  if (!Array.isArray(value) || firstHole(value) !== -1 || value.some((v) => typeof v !== 'string' || v.length === 0)) {
    problem(path, 'invalid_string_list', `${path.slice(1)} must be an array of non-empty strings`)
    return Object.freeze([])
  }
  return Object.freeze([...value])
}

/** A deep-frozen plain JSON copy of a schema, or `undefined` after reporting why it is unusable. */
function plainSchema(schema: unknown, path: string, problem: Report): JsonSchema | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    problem(path, 'invalid_schema', 'must be a JSON Schema object')
    return undefined
  }
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
