import { quoted } from '../errors/quote.js'
import type { ToolError } from '../errors/tool-error.js'
import { parseSensitivePaths, type SensitivePath } from '../redact/sensitive-paths.js'
import type { Tool } from '../tool/types.js'
import { requestInvalid } from './errors.js'
import type { CallBase, CallRequest } from '../call/call.js'
import { NO_SCOPE } from './request.js'

const toolPaths = new WeakMap<Tool, readonly SensitivePath[]>()

/** A tool's own sensitive paths, parsed once (defineTool already rejected malformed ones). */
function sensitivePathsOf(tool: Tool): readonly SensitivePath[] {
  let paths = toolPaths.get(tool)
  if (paths === undefined) {
    paths = parseSensitivePaths(tool.sensitiveInputFields).paths
    toolPaths.set(tool, paths)
  }
  return paths
}

/**
 * The start of a call's journey: the request, the resolved tool, the call ID, the normalized scope
 * and the sensitive paths (the tool's and the call's). Used by `invoke` and by a deferred call
 * after its approval; both hand over a request whose scope is normalized already (`invoke`'s
 * snapshot, the deferred call's stored scope through `normalizeScope`).
 *
 * @returns the call base, or `tool_invalid_input` / `request_invalid` for a malformed
 *   `sensitive_input_fields` path, or a `pinned_result_view` on a tool without views.
 */
export function createCallBase(request: CallRequest, tool: Tool, toolCallId: string): CallBase | ToolError {
  if (request.pinned_result_view !== undefined && tool.kind !== 'viewed') {
    // A pin fixes which view a Loop node reads; a tool without views has nothing to pin.
    return requestInvalid(`pinned_result_view applies only to tools with result views; "${tool.id}" has a single result`)
  }
  const own = sensitivePathsOf(tool)
  if (request.sensitive_input_fields === undefined || request.sensitive_input_fields.length === 0) {
    return { request, tool, tool_call_id: toolCallId, scope: request.scope ?? NO_SCOPE, sensitivePaths: own, secrets: [] }
  }
  const callPaths = parseSensitivePaths(request.sensitive_input_fields)
  if (callPaths.invalid.length > 0) {
    const bad = request.sensitive_input_fields![callPaths.invalid[0]!]!
    return requestInvalid(`sensitive_input_fields has a malformed path ${quoted(bad)}`)
  }
  return {
    request,
    tool,
    tool_call_id: toolCallId,
    scope: request.scope ?? NO_SCOPE,
    sensitivePaths: withoutRepeats(own, callPaths.paths),
    secrets: [],
  }
}

/**
 * The tool's paths, then the call's paths it does not have already (a host that sends the
 * tool's own field on every call would have each walk, copy and scrub done twice). Parsed paths
 * of one text are one remembered object (`parseSensitivePath`), so a repeat is the same object;
 * one that is not remembered (a very long path) is kept, which only costs a second walk.
 */
function withoutRepeats(own: readonly SensitivePath[], call: readonly SensitivePath[]): readonly SensitivePath[] {
  if (own.length === 0) return call
  const extra = call.filter((path, index) => !own.includes(path) && call.indexOf(path) === index)
  return extra.length === 0 ? own : [...own, ...extra]
}
