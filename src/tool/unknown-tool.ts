import { ToolError } from '../errors/tool-error.js'

/** Longest tool ID echoed into the message. */
const MAX_ECHOED_ID = 128

/** The ID as a message quotes it: JSON, cut to 128 characters. */
function shownId(toolId: string): string {
  return JSON.stringify(toolId.length > MAX_ECHOED_ID ? toolId.slice(0, MAX_ECHOED_ID) + '…' : toolId)
}

/**
 * `tool_not_found` / `unknown_tool`: no tool with that ID is in the catalog. The message quotes
 * the ID as JSON, cut to 128 characters: `tool "<id>" is not registered`.
 */
export function unknownTool(toolId: string): ToolError {
  return new ToolError({ code: 'tool_not_found', reason: 'unknown_tool', message: `tool ${shownId(toolId)} is not registered` })
}

/**
 * `tool_not_found` / `tool_mismatch`: the catalog holds another tool object under the ID of the
 * tool a typed call was given (`docs/views.md` "Typed calls"):
 * `tool "<id>" is registered as another tool than the one given`.
 */
export function toolMismatch(toolId: string): ToolError {
  return new ToolError({ code: 'tool_not_found', reason: 'tool_mismatch', message: `tool ${shownId(toolId)} is registered as another tool than the one given` })
}
