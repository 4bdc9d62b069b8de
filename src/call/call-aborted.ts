import { ToolError } from '../errors/tool-error.js'

/**
 * The caller aborted the call (`InvokeRequest.signal`): `tool_execution_failed` / `call_aborted`,
 * whichever stage it was waiting in (a pre-call hook, the policy, the prompt, the handler).
 * `details.handler_started` says whether the handler had been called (it may have had effects).
 */
export function callAborted(toolId: string, handlerStarted: boolean): ToolError {
  return new ToolError({
    code: 'tool_execution_failed',
    reason: 'call_aborted',
    message: handlerStarted ? `tool "${toolId}" call was aborted by the caller while the tool ran` : `tool "${toolId}" call was aborted by the caller before the tool ran`,
    details: { handler_started: handlerStarted },
  })
}
