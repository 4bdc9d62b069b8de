import type { Call } from '../call/call.js'
import { deepFreeze } from '../json/freeze.js'
import { redactInput } from '../redact/redact.js'
import type { HookPayloadBase } from './events.js'

/**
 * The fields every hook payload of a call shares (`docs/hooks.md` "Payloads"): a deep-frozen copy
 * with the sensitive input fields redacted. `has_result_views` and `result_view` appear only for
 * tools with views; `pinned_result_view` only on calls that carry one.
 *
 * @param input - the input to show; `null` when the call's input is not plain JSON.
 */
export function payloadBase(call: Pick<Call, 'tool' | 'tool_call_id' | 'scope' | 'request' | 'sensitivePaths'>, input: unknown, view: Call['view']): HookPayloadBase {
  const viewed = call.tool.kind === 'viewed'
  const pinned = call.request.pinned_result_view
  return {
    tool_id: call.tool.id,
    tool_call_id: call.tool_call_id,
    scope: call.scope,
    ...(viewed ? { has_result_views: true as const } : {}),
    tool_input: deepFreeze(redactInput(input, call.sensitivePaths)),
    ...(viewed && view !== undefined ? { result_view: view } : {}),
    ...(pinned !== undefined ? { pinned_result_view: pinned } : {}),
  }
}
