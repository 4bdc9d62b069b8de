import type { SensitivePath } from '../redact/sensitive-paths.js'
import type { Tool } from '../tool/types.js'
import type { View } from '../views/view.js'
import type { CallScope } from './scope.js'
import type { InvokeRequest } from './types.js'

/**
 * One call as it moves through the lifecycle, after the request was checked and the tool
 * resolved. Internal: stages read it and return an updated copy, never mutate it.
 */
export interface Call {
  readonly request: InvokeRequest
  readonly tool: Tool
  readonly tool_call_id: string
  readonly scope: Readonly<CallScope>
  /** The input as sent (with `result_view`, if any): what approval prompts show (spec 000 "Approvals"). */
  readonly input: Record<string, unknown>
  /** The input the handler gets: validated, without a native tool's `result_view`. */
  readonly handlerInput: unknown
  /** The selected view (viewed tools only). */
  readonly view: View | undefined
  /** The tool's and the call's sensitive input fields, parsed. */
  readonly sensitivePaths: readonly SensitivePath[]
  /** The sensitive values seen in any input of this call (sent or patched), scrubbed from free text. */
  readonly secrets: readonly string[]
}
