import type { HookEvent, HookHandlers, HookPayloadBase } from '../hooks/events.js'
import { HookRegistrationError } from '../hooks/hook-registration-error.js'
import { isHookEvent, unknownEvent } from '../hooks/registry.js'
import type { ToolHookHandlers } from '../hooks/tool-hooks.js'
import type { Tool } from '../tool/types.js'
import { typedCallArguments } from './held-dispatchers.js'
import type { Dispatcher } from './types.js'

/**
 * Registers a hook handler for the calls of one tool (`docs/hooks.md` "Typed hooks"): it runs
 * only for calls of `tool`, where `dispatcher.hook` would, and its payload's `tool_input` is the
 * tool's input type, redacted (`ToolHookHandlers`). Returns a function that unregisters it
 * (calling it twice is harmless).
 *
 * @param dispatcher - a dispatcher `createDispatcher` returned, holding `tool`.
 * @param tool - the tool, as `defineTool` returned it and the dispatcher holds it.
 * @throws HookRegistrationError (`code: 'hook_registration_invalid'`) listing every problem:
 *   `/dispatcher` `not_a_dispatcher`, `/tool` `not_a_defined_tool` or `tool_not_held` (the
 *   dispatcher has no tool of that ID, or another tool object under it), `/event`
 *   `unknown_event`, `/handler` `invalid_handler`.
 */
export function hookTool<T extends Tool, E extends HookEvent>(dispatcher: Dispatcher, tool: T, event: E, handler: ToolHookHandlers<T>[E]): () => void {
  const { held, toolId, problems } = typedCallArguments('hookTool', dispatcher, tool)
  if (held !== undefined && toolId !== undefined && held.tools.get(toolId) !== tool) {
    const message = held.tools.has(toolId) ? `the dispatcher holds another tool under ID ${JSON.stringify(toolId)}` : `the dispatcher holds no tool ${JSON.stringify(toolId)}`
    problems.push({ path: '/tool', code: 'tool_not_held', message })
  }
  if (!isHookEvent(event)) problems.push({ path: '/event', code: 'unknown_event', message: unknownEvent(event) })
  if (typeof handler !== 'function') problems.push({ path: '/handler', code: 'invalid_handler', message: `the handler of ${isHookEvent(event) ? event : 'a hook'} must be a function` })
  if (held === undefined || problems.length > 0) throw new HookRegistrationError(problems)
  const run = handler as (payload: HookPayloadBase) => ReturnType<HookHandlers[E]>
  // The catalog never changes, so a call whose tool_id is the tool's is a call of this tool object.
  const forTool = ((payload: HookPayloadBase) => (payload.tool_id === toolId ? run(payload) : undefined)) as HookHandlers[E]
  return held.hook(event, forTool)
}
