import Type from 'typebox'
import type { JsonSchema } from '../schema/json-schema.js'
import { defineTool } from './define.js'
import { ToolDefinitionError } from './tool-definition-error.js'
import type { ToolDescriptor } from './descriptor.js'
import type { SingleResultTool } from './types.js'
import { unknownTool } from './unknown-tool.js'

/** The default ID of the contracts tool. */
const DEFAULT_TOOL_INFO_ID = 'tool_info'

/** A JSON Schema as the tool-info result carries it: an object whose keywords are not constrained here. */
const AnySchema = Type.Unsafe<JsonSchema>({ type: 'object', description: 'A JSON Schema object (keywords not constrained here).' })

/** Lowercase hex SHA-256 of the schema's canonical JSON (64 characters, no prefix). */
const SchemaDigest = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Schema digest: lowercase hex SHA-256 of the canonical JSON of the schema.' })

const ViewContractSchema = Type.Object({ schema: AnySchema, digest: SchemaDigest }, { additionalProperties: false })

/** The compact view's contract: also the paths of the tool's value-dependent compact rules, when it has any. */
const CompactViewContractSchema = Type.Object(
  {
    schema: AnySchema,
    digest: SchemaDigest,
    omit_when: Type.Optional(
      Type.Unsafe<readonly string[]>({
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'Paths of optional compact fields omitted or kept by value (JSON Pointers, "*" for every array item).',
      }),
    ),
  },
  { additionalProperties: false },
)

/**
 * The descriptor inside a tool-info result (`docs/views.md` "Descriptors"). Its known
 * fields are typed; it stays open so that a descriptor field added by a later version of this
 * library is passed through rather than rejected.
 */
const DescriptorSchema = Type.Object({
  tool_id: Type.String({ minLength: 1 }),
  description: Type.String(),
  input_schema: AnySchema,
  output_schema: AnySchema,
  output_schema_digest: SchemaDigest,
  output_views: Type.Optional(Type.Object({ compact: CompactViewContractSchema, full: ViewContractSchema }, { additionalProperties: false })),
})

/** Output schema of the tool-info tool: `{ tool: { descriptor } }` (the CLI's `.tool.descriptor`). */
const ToolInfoOutput = Type.Object(
  { tool: Type.Object({ descriptor: DescriptorSchema }, { additionalProperties: false }) },
  { additionalProperties: false },
)

/** Input schema of the tool-info tool. */
const ToolInfoInput = Type.Object(
  { tool_id: Type.String({ minLength: 1, description: 'The tool to describe, e.g. "compozy__session_status".' }) },
  { additionalProperties: false },
)

/** The record the tool-info tool returns: `{ tool: { descriptor } }` (the descriptor with `output_views` for viewed tools). */
export interface ToolInfoResult {
/** The described tool: its descriptor, with `output_views` for viewed tools. */
  readonly tool: { readonly descriptor: ToolDescriptor }
}

/** Options of {@link defineToolInfoTool}. */
export interface ToolInfoToolOptions {
  /** Tool ID. Default `'tool_info'` (the spec's host calls it `compozy__tool_info`). */
  id?: string
  /** Description shown to models. Default: says it returns both contracts of a tool. */
  description?: string
  /** Looks up a descriptor by tool ID, usually `(id) => dispatcher.describe(id)`; `undefined` for an unknown ID. */
  describe: (tool_id: string) => ToolDescriptor | undefined
  /** Toolsets the tool belongs to. Default none. */
  toolsets?: readonly string[]
}

/**
 * A ready single-result tool that returns one tool's descriptor with `output_views`, so clients
 * that get no output schemas (MCP `tools/list` lists none) can read both contracts on demand
 * (`docs/mcp.md` "Contracts on demand: `defineToolInfoTool`"; the spec's host calls it
 * `compozy__tool_info`).
 *
 * Input `{ tool_id }`; output `{ tool: { descriptor } }` where `descriptor` is
 * `{ tool_id, description, input_schema, output_schema, output_schema_digest, output_views?,
 * approval, risk?, read_only }` (the approval and risk facts pass through the open descriptor
 * schema, which does not type them, so the tool's own output digest stays as it was).
 * Risk `'read'`, no approval. Wire it to the dispatcher that serves it:
 *
 * ```ts
 * let dispatcher: Dispatcher
 * const info = defineToolInfoTool({ describe: (id) => dispatcher.describe(id) })
 * dispatcher = createDispatcher({ tools: [...tools, info] })
 * ```
 *
 * For an unknown `tool_id` the handler throws a `ToolError` (`code: 'tool_not_found'`, reason
 * `unknown_tool`, message `tool "<id>" is not registered`); the dispatcher reports a thrown
 * handler error as `tool_execution_failed` / `handler_failed` with that message, the thrown
 * error kept as `cause`.
 *
 * @throws ToolDefinitionError (`code: 'tool_definition_invalid'`) when `describe` is not a
 *   function or `id` is not a valid tool ID.
 */
export function defineToolInfoTool(options: ToolInfoToolOptions): SingleResultTool {
  const describe = options?.describe
  if (typeof describe !== 'function') {
    throw new ToolDefinitionError(options?.id, [
      { path: '/describe', code: 'invalid_describe', message: 'describe must be a function from tool ID to descriptor, e.g. (id) => dispatcher.describe(id)' },
    ])
  }
  return defineTool({
    id: options.id ?? DEFAULT_TOOL_INFO_ID,
    description:
      options.description ??
      'Describe one tool: its input schema, output schema and digest, and for tools with result views both contracts (output_views.compact and output_views.full).',
    input: ToolInfoInput,
    output: ToolInfoOutput,
    risk: 'read',
    ...(options.toolsets === undefined ? {} : { toolsets: options.toolsets }),
    handler: (input): ToolInfoResult => {
      const descriptor = describe(input.tool_id)
      if (descriptor === undefined) throw unknownTool(input.tool_id)
      return { tool: { descriptor } }
    },
    preview: (record) => record.tool.descriptor.tool_id,
  })
}
