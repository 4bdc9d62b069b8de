import type { CallScope } from '../tool/types.js'
import type { ToolError } from '../errors/tool-error.js'
import type { ToolFacts } from '../policy/policy.js'
import { withDeadline } from '../async/deadline.js'
import { promptFailed, promptTimeout } from './errors.js'
import type { Awaitable } from './stores.js'

/**
 * The host's answer to an approval prompt (`docs/approvals.md` "The order, on the final input"): the two
 * `_always` answers also store an exact grant (workspace + agent + tool + input digest).
 */
export type ApprovalPromptAnswer = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always'

const ANSWERS: readonly ApprovalPromptAnswer[] = ['allow_once', 'allow_always', 'reject_once', 'reject_always']

/** What the prompt callback is shown. Never holds an approval token. */
export interface ApprovalPromptRequest {
/** The tool that would run, as the policy saw it. */
  readonly tool: ToolFacts
/** The call's `tool_call_id`. */
  readonly tool_call_id: string
/** The call's scope; an `_always` answer is remembered for its workspace and agent. */
  readonly scope: Readonly<CallScope>
  /** The input as sent, including `result_view` (`docs/approvals.md` "The order, on the final input"). */
  readonly input: unknown
  /** `sha256:<hex>` of the input without a native tool's `result_view`: what an exact grant is keyed by. */
  readonly input_digest: string
  /** The policy's reason for asking. */
  readonly reason?: string
}

/** The host's prompt callback (`docs/approvals.md` "Configuring the dispatcher"). */
export type ApprovalPrompt = (request: ApprovalPromptRequest) => Awaitable<ApprovalPromptAnswer>

/**
 * Asks the prompt callback, within `timeoutMs` (`Infinity`: no limit).
 *
 * @returns the answer, or `approval_unavailable` (`prompt_failed` for a throw, a rejection or an
 *   answer that is not one of the four; `prompt_timeout`).
 */
export async function askPrompt(prompt: ApprovalPrompt, request: ApprovalPromptRequest, timeoutMs: number): Promise<ApprovalPromptAnswer | ToolError> {
  const result = await withDeadline(() => prompt(request), timeoutMs)
  if (!result.ok) return result.timedOut ? promptTimeout(request.tool, timeoutMs) : promptFailed(request.tool, 'threw', result.cause)
  return ANSWERS.includes(result.value) ? result.value : promptFailed(request.tool, 'invalid_answer')
}
