import { outcomeForModel, toModelSchema, type InvokeOutcome, type JsonSchema, type ModelOutcome, type ToolDescriptor, type ToolErrorCode, type View } from 'result-views'
import { isRecord } from '../json/guards.js'
import type { ResultPart } from 'result-views'

/**
 * The pure MCP projection (`docs/mcp.md`): descriptors → `tools/list`
 * entries, dispatch outcomes → `tools/call` results. No SDK import: `server.ts` wires these into
 * the SDK's `Server`, and `measure.ts` sizes the listing with the same functions.
 */

/** The `_meta` key under which every `tools/call` result carries its {@link McpOutcomeMeta}. */
export const MCP_OUTCOME_META_KEY = 'result-views/outcome'

/**
 * The MCP tool annotations the listing derives from a descriptor's risk facts (`docs/mcp.md`
 * "`tools/list`"). Hints, as MCP defines them: `readOnlyHint` (default `false` in MCP) says the
 * tool does not modify its environment; `destructiveHint` (default `true`, meaningful only when
 * `readOnlyHint` is `false`) says it may delete or overwrite rather than only add.
 */
export interface McpToolAnnotations {
  /** The descriptor's `read_only`. */
  readonly readOnlyHint: boolean
  /** For a tool that writes: `false` only for risk `'write'` (additive updates), `true` for `'destructive'`, for another word and for no risk class. Absent on a read-only tool. */
  readonly destructiveHint?: boolean
}

/**
 * One tool as `tools/list` advertises it: name, description, input schema and annotations,
 * nothing else. A viewed tool's `inputSchema` lists `result_view` (`enum: ["compact","full"]`,
 * default `"compact"`); no tool has an `outputSchema` (read contracts with the tool-info tool).
 */
export interface McpToolListing {
  /** The tool ID, e.g. `compozy__session_status`. */
  readonly name: string
/** The tool's description. */
  readonly description: string
  /**
   * The descriptor's `input_schema` in JSON Schema 2020-12 form: no `$schema` keyword, draft-07
   * tuples (`items: [..]`, `additionalItems`) as `prefixItems`/`items`, `definitions` as `$defs`
   * (`toModelSchema` of the root entry).
   */
  readonly inputSchema: JsonSchema
  /** The tool's risk facts as MCP hints (see {@link McpToolAnnotations}); absent for a descriptor without `read_only`. */
  readonly annotations?: McpToolAnnotations
}

/** A text content block of a `tools/call` result. */
export interface McpTextContent {
/** A text block. */
  readonly type: 'text'
/** The block's text: the record's JSON, or `<code> (<reason>): <message>` for an error. */
  readonly text: string
}

/**
 * Machine-readable facts about a call, in `_meta["result-views/outcome"]` of every `tools/call`
 * result: which view a result holds, the typed error's code and reason, the pending approval's
 * ID. `tool_call_id` correlates with dispatcher hooks and logs.
 */
export type McpOutcomeMeta =
  | { readonly status: 'ok'; readonly tool_call_id: string; readonly result_view?: View }
  | {
      readonly status: 'error'
      readonly tool_call_id: string
      readonly code: ToolErrorCode
      readonly reason: string
      readonly details?: Readonly<Record<string, unknown>>
    }
  | { readonly status: 'approval_pending'; readonly tool_call_id: string; readonly approval_id: string }

/**
 * A `tools/call` result (MCP `CallToolResult`) as this library builds it:
 * - ok: `structuredContent` is the selected view's record (never both views, never the full
 *   record when compact was selected) and `content` is exactly one text block holding that
 *   record's JSON. A record that is not a JSON object (an array, a string, a number, `null`) goes
 *   in the text block only, because MCP `structuredContent` must be an object.
 * - error and approval pending: `isError: true`, one text block, no `structuredContent`.
 */
export interface McpCallToolResult {
  /**
   * One text block: the selected record's JSON, or the error or pending approval in words. A
   * result cut by `maxResultBytes` has two: the part of the JSON text, then its note
   * (`docs/mcp.md` "Result size limits").
   */
  readonly content: readonly [McpTextContent] | readonly [McpTextContent, McpTextContent]
  /**
   * The selected view's record, for a successful call whose record is an object; for a result
   * cut by `maxResultBytes`, the {@link ResultPart} (the same part and note as the text blocks).
   */
  readonly structuredContent?: Readonly<Record<string, unknown>>
/** Present on a failed call and on a call that waits on an approval. */
  readonly isError?: true
/**
   * The call's machine-readable outcome under `"result-views/outcome"`; with a dispatcher
   * `telemetry`, `traceparent` (and `tracestate`) name the call's span (`docs/telemetry.md` "Propagation").
   */
  readonly _meta: { readonly [MCP_OUTCOME_META_KEY]: McpOutcomeMeta; readonly traceparent?: string; readonly tracestate?: string }
}

/**
 * The `tools/call` result of one part of a result cut by `maxResultBytes` (`docs/mcp.md` "Result
 * size limits"): `structuredContent` is the part, `content` two text blocks (the part of the JSON
 * text, then the note), so that every kind of client reads the same part and the same note.
 */
export function toPartCallToolResult(part: ResultPart, toolCallId: string): McpCallToolResult {
  const meta: McpOutcomeMeta =
    part.result_view === undefined ? { status: 'ok', tool_call_id: toolCallId } : { status: 'ok', tool_call_id: toolCallId, result_view: part.result_view }
  return {
    structuredContent: part as unknown as Readonly<Record<string, unknown>>,
    content: [{ type: 'text', text: part.result_part }, { type: 'text', text: part.note }],
    _meta: { [MCP_OUTCOME_META_KEY]: meta },
  }
}

/** The `tools/list` entry of one descriptor (see {@link McpToolListing}). */
export function toMcpTool(descriptor: ToolDescriptor): McpToolListing {
  const listing = { name: descriptor.tool_id, description: descriptor.description, inputSchema: toModelSchema(descriptor.input_schema) }
  const annotations = toolAnnotations(descriptor)
  return annotations === undefined ? listing : { ...listing, annotations }
}

/**
 * The MCP annotations of a descriptor's risk facts: read-only → `{ readOnlyHint: true }`; otherwise
 * `{ readOnlyHint: false, destructiveHint }`, with `destructiveHint: false` only for risk `'write'`
 * (MCP's default, `true`, for anything else: the safe side when nothing says the tool only adds).
 * `undefined` for a descriptor that does not say `read_only`.
 */
function toolAnnotations(descriptor: ToolDescriptor): McpToolAnnotations | undefined {
  if (typeof descriptor.read_only !== 'boolean') return undefined
  if (descriptor.read_only) return { readOnlyHint: true }
  return { readOnlyHint: false, destructiveHint: descriptor.risk !== 'write' }
}

/** The `tools/list` entries of a catalog, in catalog order. */
export function toMcpToolList(descriptors: readonly ToolDescriptor[]): McpToolListing[] {
  return descriptors.map(toMcpTool)
}

/**
 * The `tools/call` result of a dispatch outcome: the text of `outcomeForModel` (root entry), the
 * one mapping every model-facing surface shares, in MCP's shape.
 *
 * - `ok` → `structuredContent` = `outcome.result.structured` (when it is an object) and one text
 *   block `JSON.stringify(record)`; `_meta` says `result_view` for viewed tools.
 * - `error` → `isError: true`, text `"<code> (<reason>): <message>"` with the dispatch message
 *   (e.g. `tool_invalid_input (schema_invalid): tool "x" input "result_view" must be one of
 *   "compact", "full"`); `_meta` holds `code`, `reason` and `details`.
 * - `approval_pending` → `isError: true` (the tool did not run), text
 *   `"approval_pending: approval_id=<id>: tool "<tool_id>" did not run; it is waiting on approval
 *   <id> and will run once when the host approves it, and its result is recorded with the
 *   approval. Do not call it again to make it run: a new call opens a new approval"`; `_meta`
 *   holds `approval_id`. (`dispatcher.approvals.resolve(id, { decision: 'approved' })` runs the
 *   deferred call itself and stores no grant, so a retry would wait on a second approval and,
 *   approved too, run the tool twice.)
 *
 * @param outcome - what `dispatcher.invoke` resolved to.
 * @param toolId - the called tool's name (for the pending message).
 */
export function toCallToolResult(outcome: InvokeOutcome, toolId: string): McpCallToolResult {
  return modelCallToolResult(outcomeForModel(outcome, toolId))
}

/**
 * {@link toCallToolResult} of an outcome already read by `outcomeForModel`: a caller that needed
 * the text first (the `maxResultBytes` size check) maps the same reading, so the record's JSON
 * is written once per call.
 */
export function modelCallToolResult(model: ModelOutcome): McpCallToolResult {
  const content: [McpTextContent] = [{ type: 'text', text: model.text }]
  switch (model.status) {
    case 'ok': {
      const meta: McpOutcomeMeta =
        model.result_view === undefined
          ? { status: 'ok', tool_call_id: model.tool_call_id }
          : { status: 'ok', tool_call_id: model.tool_call_id, result_view: model.result_view }
      return isRecord(model.record)
        ? { structuredContent: model.record, content, _meta: { [MCP_OUTCOME_META_KEY]: meta } }
        : { content, _meta: { [MCP_OUTCOME_META_KEY]: meta } }
    }
    case 'approval_pending': {
      const meta: McpOutcomeMeta = { status: 'approval_pending', tool_call_id: model.tool_call_id, approval_id: model.approval_id }
      return { isError: true, content, _meta: { [MCP_OUTCOME_META_KEY]: meta } }
    }
    default: {
      const meta: McpOutcomeMeta =
        model.details === undefined
          ? { status: 'error', tool_call_id: model.tool_call_id, code: model.code, reason: model.reason }
          : { status: 'error', tool_call_id: model.tool_call_id, code: model.code, reason: model.reason, details: model.details }
      return { isError: true, content, _meta: { [MCP_OUTCOME_META_KEY]: meta } }
    }
  }
}
