import type { ToolSet } from 'ai'

/**
 * One tool's entry of ai 7's call-level `toolApproval` (`generateText({ toolApproval })`): the
 * SDK calls it with the call's input and `{ toolCallId, toolContext }` and stops for its approval
 * step on `'user-approval'`; `undefined` lets the call run without asking.
 */
export type AiSdkToolApprovalFunction = (input: unknown, options: { readonly toolCallId: string; readonly toolContext?: unknown }) => Promise<'user-approval' | undefined>

/** ai 7's `toolApproval` object for the tools of a `toAiSdkTools` set: one function per tool ID. */
export type AiSdkToolApproval = Record<string, AiSdkToolApprovalFunction>

/** Whether the call needs the SDK's approval step, from the SDK's approval-callback options. */
type Decide = (options: unknown) => Promise<boolean>

/** The approval check of each tool `toAiSdkTools` built with `approvals: 'framework'`. */
const checks = new WeakMap<object, Decide>()

/** Records the approval check of a tool built with `approvals: 'framework'` (read by {@link aiSdkToolApproval}). */
export function rememberApprovalCheck(tool: object, decide: Decide): void {
  checks.set(tool, decide)
}

/**
 * ai 7's call-level tool approval for a tool set of `toAiSdkTools(dispatcher, { approvals:
 * 'framework' })`: pass it as `generateText({ tools, toolApproval: aiSdkToolApproval(tools) })`
 * (or `streamText`, `ToolLoopAgent`). ai 7 deprecates the tool-level `needsApproval` in favour of
 * this setting; the decision is the same one (`dispatcher.describe(tool_id, scope)` says
 * `approval_required` in the scope the `scope` option resolves from the call's `toolContext`).
 *
 * The answer has one entry per tool of `tools` built with `approvals: 'framework'`, keyed by the
 * key it has in `tools` (a renamed key keeps working); every other entry (a tool of the host, a
 * tool built with `approvals: 'pending'`) is left out, so spread your own entries beside it:
 * `{ ...aiSdkToolApproval(tools), myTool: 'user-approval' }`. Anything that is not an object reads
 * as an empty tool set. Never throws. See `docs/adapters.md` "`approvals: 'framework'`: the framework's own approval step".
 */
export function aiSdkToolApproval(tools: ToolSet): AiSdkToolApproval {
  const approval: AiSdkToolApproval = {}
  if (typeof tools !== 'object' || tools === null) return approval
  let keys: string[]
  try {
    keys = Object.keys(tools)
  } catch {
    return approval
  }
  for (const key of keys) {
    let tool: unknown
    try {
      tool = (tools as Record<string, unknown>)[key]
    } catch {
      continue
    }
    const decide = typeof tool === 'object' && tool !== null ? checks.get(tool) : undefined
    if (decide === undefined) continue
    const entry: AiSdkToolApprovalFunction = async (_input, options) => ((await decide(options)) ? 'user-approval' : undefined)
    Object.defineProperty(approval, key, { value: entry, enumerable: true, writable: true, configurable: true })
  }
  return approval
}
