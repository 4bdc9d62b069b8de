import { ToolError } from '../errors/tool-error.js'

/** Longest tool ID echoed into the message. */
const MAX_ECHOED_ID = 128

/**
 * `tool_not_found` / `unknown_tool`: no tool with that ID is in the catalog. The message quotes
 * the ID as JSON, cut to 128 characters: `tool "<id>" is not registered`.
 */
export function unknownTool(toolId: string): ToolError {
  const shown = toolId.length > MAX_ECHOED_ID ? toolId.slice(0, MAX_ECHOED_ID) + '…' : toolId
  return new ToolError({ code: 'tool_not_found', reason: 'unknown_tool', message: `tool ${JSON.stringify(shown)} is not registered` })
}
