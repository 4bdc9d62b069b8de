import { checkedSchemaDigest } from '../digest/schema-digest.js'
import type { JsonValue } from '../json/canonical.js'
import { setOwn } from '../json/clone.js'
import { deepFreeze } from '../json/freeze.js'
import type { JsonSchema } from '../schema/json-schema.js'
import { DEFAULT_VIEW, RESULT_VIEW_KEY, VIEWS } from '../views/view.js'
import type { ApprovalRequirement, Tool } from './types.js'

/** A view's contract in a descriptor: its schema and that schema's digest (64 hex characters). */
export interface ViewContract {
/** The view's schema (plain JSON). */
  readonly schema: JsonSchema
/** Its schema digest: lowercase hex SHA-256 of its canonical JSON (64 characters). */
  readonly digest: string
}

/**
 * The compact view's contract in a descriptor: its schema and digest, and the paths of the tool's
 * value-dependent compact rules (`docs/views.md` "Value-dependent compact rules").
 */
export interface CompactViewContract extends ViewContract {
  /**
   * Rule paths (JSON Pointers into the compact record, `*` for every array item), sorted: each
   * names an optional property the compact record omits or keeps depending on its value. Present
   * only when the tool has such rules; not part of the schema, so the digest does not change.
   */
  readonly omit_when?: readonly string[]
}

/**
 * The discovery record of a tool (`docs/views.md` "Descriptors").
 * For a viewed tool `output_schema` / `output_schema_digest` describe the compact view,
 * `output_views` carries both, and `input_schema` lists `result_view`. A single-result tool has
 * neither `output_views` nor a `result_view` input. `approval`, `risk` and `read_only` are the
 * tool's approval requirement and risk facts, as its policy sees them; no schema digest covers
 * them. `describeTool` always sets `approval` and `read_only`; the type leaves them optional so
 * that a descriptor from elsewhere (an older release, a host's own list) is still one. Deep-frozen.
 */
export interface ToolDescriptor {
/** The tool ID. */
  readonly tool_id: string
/** The tool's description. */
  readonly description: string
/** The input schema; a viewed tool's lists `result_view` (`enum: ["compact", "full"]`, default `"compact"`). */
  readonly input_schema: JsonSchema
/** The output schema: the compact view's for a viewed tool. */
  readonly output_schema: JsonSchema
  /** Schema digest (lowercase hex SHA-256 of canonical JSON) of `output_schema`. */
  readonly output_schema_digest: string
/** Both contracts, for viewed tools only; the compact one lists the tool's value-dependent rule paths when it has any. */
  readonly output_views?: { readonly compact: CompactViewContract; readonly full: ViewContract }
  /** The tool's own approval requirement: `'required'` means every call needs an approval, whatever the policy (`docs/approvals.md`). */
  readonly approval?: ApprovalRequirement
  /** The tool's risk class (`'read' | 'write' | 'destructive'` or the host's own word); absent when the definition names none. */
  readonly risk?: string
  /** Whether the tool only reads (the definition's `readOnly`, default `risk === 'read'`). */
  readonly read_only?: boolean
}

/** A tool's schemas are plain JSON copies made by defineTool: digested without a second check. */
const digestOf = (schema: JsonSchema): string => checkedSchemaDigest(schema as JsonValue)

/** The `result_view` property a viewed tool's input schema lists (`docs/views.md` "The selector"). */
export const RESULT_VIEW_INPUT_SCHEMA: JsonSchema = Object.freeze({
  type: 'string',
  enum: Object.freeze([...VIEWS]),
  default: DEFAULT_VIEW,
})

const cache = new WeakMap<Tool, ToolDescriptor>()

/**
 * The descriptor of a tool, computed once per tool and cached (the same frozen object is
 * returned on every call).
 *
 * @param tool - a tool returned by `defineTool`.
 * @returns the spec's descriptor: `{ tool_id, description, input_schema, output_schema,
 *   output_schema_digest, output_views?, approval, risk?, read_only }`.
 */
export function describeTool(tool: Tool): ToolDescriptor {
  let descriptor = cache.get(tool)
  if (descriptor === undefined) {
    descriptor = deepFreeze(buildDescriptor(tool))
    cache.set(tool, descriptor)
  }
  return descriptor
}

function buildDescriptor(tool: Tool): ToolDescriptor {
  // The facts come after the contracts: no digest covers them, and the contracts stay as before.
  const facts = { approval: tool.approval, ...(tool.risk === undefined ? {} : { risk: tool.risk }), read_only: tool.readOnly }
  if (tool.kind === 'single') {
    return {
      tool_id: tool.id,
      description: tool.description,
      input_schema: tool.inputSchema,
      output_schema: tool.output,
      output_schema_digest: digestOf(tool.output),
      ...facts,
    }
  }
  const rulePaths = Object.keys(tool.omitWhen ?? {}).sort()
  const compact: CompactViewContract =
    rulePaths.length === 0
      ? { schema: tool.output.compact, digest: digestOf(tool.output.compact) }
      : { schema: tool.output.compact, digest: digestOf(tool.output.compact), omit_when: rulePaths }
  const full: ViewContract = { schema: tool.output.full, digest: digestOf(tool.output.full) }
  return {
    tool_id: tool.id,
    description: tool.description,
    input_schema: withResultView(tool.inputSchema),
    output_schema: compact.schema,
    output_schema_digest: compact.digest,
    output_views: { compact, full },
    ...facts,
  }
}

/** The input schema with the `result_view` selector added to `properties` (never to `required`). */
function withResultView(input: JsonSchema): JsonSchema {
  const properties: Record<string, unknown> = {}
  const authored = (input.properties ?? {}) as Record<string, unknown>
  for (const key of Object.keys(authored)) setOwn(properties, key, authored[key])
  properties[RESULT_VIEW_KEY] = RESULT_VIEW_INPUT_SCHEMA
  return { ...input, properties }
}
