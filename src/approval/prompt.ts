import type { CallScope } from '../tool/types.js'
import type { ToolError } from '../errors/tool-error.js'
import type { ToolFacts } from '../policy/policy.js'
import { callHost, type Deadline } from '../async/deadline.js'
import { callAborted } from '../call/call-aborted.js'
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
 * Asks the prompt callback within `deadline.timeoutMs` (`Infinity`: no limit; judged by a timer and
 * by the clock when it answers); the answer is read inside the same guard. An aborted call
 * (`deadline.signal`) stops waiting at once.
 *
 * @returns the answer, or `approval_unavailable` (`prompt_failed` for a throw, a rejection or an
 *   answer that is not one of the four, or that cannot be read; `prompt_timeout`), or
 *   `tool_execution_failed` / `call_aborted`.
 */
export async function askPrompt(prompt: ApprovalPrompt, request: ApprovalPromptRequest, deadline: Deadline): Promise<ApprovalPromptAnswer | ToolError> {
  const result = await callHost(() => prompt(request), deadline, readAnswer)
  if (result.ok) return result.value ?? promptFailed(request.tool, 'invalid_answer')
  switch (result.failure) {
    case 'aborted':
      return callAborted(request.tool.id, false)
    case 'timeout':
      return promptTimeout(request.tool, deadline.timeoutMs)
    case 'unreadable':
      return promptFailed(request.tool, 'invalid_answer', result.cause)
    case 'threw':
      return promptFailed(request.tool, 'threw', result.cause)
  }
}

/** One of the four answers, or `undefined` for anything else (compared, never read). */
function readAnswer(answer: unknown): ApprovalPromptAnswer | undefined {
  return (ANSWERS as readonly unknown[]).includes(answer) ? (answer as ApprovalPromptAnswer) : undefined
}
