import type { CallScope, Dispatcher, ToolDescriptor, UsageProblem } from 'result-views'
import { optionsTable, readOptions } from '../options/options.js'
import { firstHole, isRecord } from '../json/guards.js'

/**
 * The options and the option check shared by the agent-framework adapters (`result-views/ai`,
 * `result-views/openai-agents`). Each entry re-exports the types under its own options name and
 * throws its own `UsageError` subclass with the problems found here.
 */

/** What a {@link FrameworkScopeResolver} knows about one tool call. */
export interface FrameworkCallInfo {
  /** The called tool's ID. */
  readonly tool_id: string
  /** The framework's ID of the call (AI SDK `toolCallId`, OpenAI Agents `callId`), when it gave one. */
  readonly tool_call_id: string | undefined
  /** The framework's per-run context: AI SDK `experimental_context`, OpenAI Agents `runContext.context`. */
  readonly context: unknown
}

/**
 * Picks the scope of one call, e.g. from the run's context that the host filled with the signed-in
 * user's workspace and profile. Synchronous; it is called once per call (and once more per
 * approval check with `approvals: 'framework'`). What it returns goes to `dispatcher.invoke` as
 * `scope`, which checks it (`tool_invalid_input` / `request_invalid` for a malformed scope). A
 * resolver that throws gives the same error outcome (`invalid invoke request: the scope resolver
 * threw`); the model reads it, and `run()` goes on.
 */
export type FrameworkScopeResolver = (call: FrameworkCallInfo) => CallScope | undefined

/** What `onApprovalPending` receives when a call waits on a pending approval. */
export interface PendingApprovalNotice {
  /** The pending approval (`dispatcher.approvals.show(approval_id, { profile_id })`, `resolve`, `cancel`). */
  readonly approval_id: string
  /** The called tool's ID. */
  readonly tool_id: string
  /** The call's `tool_call_id` (the framework's call ID, or the one the dispatcher generated). */
  readonly tool_call_id: string
}

/**
 * Who approves a call that needs approval:
 * - `'pending'` (default): the dispatcher. The call goes to `dispatcher.invoke` as is; a call that
 *   needs approval answers `approval_pending`, the model reads that it will run once approved and
 *   must not be retried, and the host resolves it with `dispatcher.approvals.resolve`, which runs it.
 * - `'framework'`: the framework's own approval step. A call whose tool needs approval in the
 *   call's scope (`dispatcher.describe(tool_id, scope)` says `approval_required`) stops the run for
 *   the framework's approval; once the host approves it there, the adapter mints a single-use
 *   approval token bound to exactly this tool, scope and input and runs the call with it.
 */
export type FrameworkApprovals = 'pending' | 'framework'

/** Options shared by `toAiSdkTools` and `toAgentsTools` (see `docs/adapters.md` "Options"). */
export interface FrameworkToolsOptions {
  /** The scope every call runs with (policies, grants and approvals match on it), or a function of the call. Default: no scope. */
  scope?: CallScope | FrameworkScopeResolver
  /** Who approves calls that need approval. Default `'pending'`. */
  approvals?: FrameworkApprovals
  /**
   * Life of the single-use token minted for a call the framework approved, in milliseconds: a
   * positive integer, default 60000. Only with `approvals: 'framework'`.
   */
  approvalTokenTtlMs?: number
  /**
   * Called once for every call that answers `approval_pending`, after the approval is stored and
   * before the model reads the pending text. Its return value is ignored; a throw or a rejection is
   * ignored too (the approval is stored either way).
   */
  onApprovalPending?: (notice: PendingApprovalNotice) => void
}

/** The options after the check, with defaults filled in. */
export interface ResolvedFrameworkOptions {
  readonly scope: CallScope | FrameworkScopeResolver | undefined
  readonly approvals: FrameworkApprovals
  readonly approvalTokenTtlMs: number
  readonly onApprovalPending: ((notice: PendingApprovalNotice) => void) | undefined
}

/** Default life of a token minted for a framework-approved call: one minute (it is used at once). */
export const DEFAULT_APPROVAL_TOKEN_TTL_MS = 60_000

/** The options both adapters know; any other key is refused (`unknown_option`). */
const FRAMEWORK_OPTIONS = optionsTable(['scope', 'approvals', 'approvalTokenTtlMs', 'onApprovalPending'])

/** The outcome of {@link checkFrameworkOptions}: the resolved options, or every problem found. */
export type FrameworkOptionsCheck =
  | { readonly ok: true; readonly options: ResolvedFrameworkOptions }
  | { readonly ok: false; readonly problems: readonly UsageProblem[] }

/**
 * Checks the two arguments of an adapter function. Paths are JSON Pointers into
 * `{ dispatcher, options }`. Every property is read inside a guard, so a Proxy or getter that
 * throws is a problem (`unreadable_option`), never an escaping exception; the options are read by
 * the one options reader (`unknown_option` with "did you mean", `invalid_option`).
 */
export function checkFrameworkOptions(dispatcher: unknown, options: unknown): FrameworkOptionsCheck {
  const problems: UsageProblem[] = []
  const add = (path: string, code: string, message: string): void => void problems.push({ path, code, message })

  const read = (target: object, key: string, path: string): unknown => {
    try {
      return (target as Record<string, unknown>)[key]
    } catch {
      add(path, 'unreadable_option', `${key} could not be read (a getter or a Proxy threw)`)
      return undefined
    }
  }

  let approvalsApi: unknown
  if (typeof dispatcher !== 'object' || dispatcher === null) {
    add('/dispatcher', 'not_a_dispatcher', 'dispatcher must be a dispatcher from createDispatcher')
  } else {
    for (const method of ['invoke', 'list', 'describe']) {
      if (typeof read(dispatcher, method, `/dispatcher/${method}`) !== 'function') {
        add(`/dispatcher/${method}`, 'not_a_dispatcher', `dispatcher.${method} must be a function (pass a dispatcher from createDispatcher)`)
      }
    }
    approvalsApi = read(dispatcher, 'approvals', '/dispatcher/approvals')
  }

  if (options === undefined) return finish(problems, resolved(undefined, 'pending', DEFAULT_APPROVAL_TOKEN_TTL_MS, undefined))
  const o = readOptions(options, FRAMEWORK_OPTIONS, '/options', problems)
  if (problems.some((problem) => problem.path === '/options')) return { ok: false, problems }

  const scope = o.scope
  if (scope !== undefined && typeof scope !== 'function' && !isRecord(scope)) {
    add('/options/scope', 'invalid_option', 'scope must be a CallScope object or a function returning one')
  }

  const approvals = o.approvals ?? 'pending'
  if (approvals !== 'pending' && approvals !== 'framework') add('/options/approvals', 'invalid_option', 'approvals must be "pending" or "framework"')

  const ttl = o.approvalTokenTtlMs
  if (ttl !== undefined) {
    if (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl <= 0) {
      add('/options/approvalTokenTtlMs', 'invalid_option', 'approvalTokenTtlMs must be a positive integer of milliseconds')
    } else if (approvals !== 'framework') {
      add('/options/approvalTokenTtlMs', 'invalid_option', 'approvalTokenTtlMs applies only with approvals: "framework"')
    }
  }

  if (approvals === 'framework') {
    const mint = typeof approvalsApi === 'object' && approvalsApi !== null ? read(approvalsApi, 'mintApprovalToken', '/dispatcher/approvals/mintApprovalToken') : undefined
    if (typeof mint !== 'function') {
      add('/dispatcher/approvals/mintApprovalToken', 'not_a_dispatcher', 'approvals: "framework" needs dispatcher.approvals.mintApprovalToken (a dispatcher from createDispatcher)')
    }
  }

  const onApprovalPending = o.onApprovalPending
  if (onApprovalPending !== undefined && typeof onApprovalPending !== 'function') {
    add('/options/onApprovalPending', 'invalid_option', 'onApprovalPending must be a function')
  }

  return finish(
    problems,
    resolved(
      scope as ResolvedFrameworkOptions['scope'],
      approvals as FrameworkApprovals,
      (ttl as number | undefined) ?? DEFAULT_APPROVAL_TOKEN_TTL_MS,
      onApprovalPending as ResolvedFrameworkOptions['onApprovalPending'],
    ),
  )
}

function resolved(
  scope: ResolvedFrameworkOptions['scope'],
  approvals: FrameworkApprovals,
  approvalTokenTtlMs: number,
  onApprovalPending: ResolvedFrameworkOptions['onApprovalPending'],
): ResolvedFrameworkOptions {
  return Object.freeze({ scope, approvals, approvalTokenTtlMs, onApprovalPending })
}

function finish(problems: readonly UsageProblem[], options: ResolvedFrameworkOptions): FrameworkOptionsCheck {
  return problems.length > 0 ? { ok: false, problems } : { ok: true, options }
}

/** What {@link frameworkCatalog} read: the dispatcher's descriptors, or why they cannot be used. */
export type FrameworkCatalog =
  | { readonly ok: true; readonly descriptors: readonly ToolDescriptor[] }
  | { readonly ok: false; readonly problems: readonly UsageProblem[] }

/**
 * The descriptors an adapter builds its tools from: `dispatcher.list()`, called once inside a
 * guard and checked before anything walks it, so a dispatcher that is not the library's cannot
 * make an adapter throw a raw error or walk a sparse list's four billion indices. Problems at
 * `/dispatcher/list`: `unreadable_option` (it threw), `not_a_dispatcher` (not an array, a hole at
 * `/dispatcher/list/<index>`, or an entry without a string `tool_id`).
 */
export function frameworkCatalog(dispatcher: Pick<Dispatcher, 'list'>): FrameworkCatalog {
  const fail = (path: string, code: string, message: string): FrameworkCatalog => ({ ok: false, problems: [{ path, code, message }] })
  let listed: unknown
  try {
    listed = dispatcher.list()
  } catch {
    return fail('/dispatcher/list', 'unreadable_option', 'dispatcher.list() threw (pass a dispatcher from createDispatcher)')
  }
  try {
    if (!Array.isArray(listed)) return fail('/dispatcher/list', 'not_a_dispatcher', 'dispatcher.list() must return an array of tool descriptors')
    const hole = firstHole(listed)
    if (hole !== -1) return fail(`/dispatcher/list/${hole}`, 'not_a_dispatcher', `dispatcher.list() returned a list with a hole at ${hole}`)
    const descriptors: ToolDescriptor[] = []
    for (let index = 0; index < listed.length; index++) {
      const entry: unknown = listed[index]
      if (!isRecord(entry) || typeof entry.tool_id !== 'string') {
        return fail(`/dispatcher/list/${index}`, 'not_a_dispatcher', `dispatcher.list() entry ${index} is not a tool descriptor (no string tool_id)`)
      }
      descriptors.push(entry as unknown as ToolDescriptor)
    }
    return { ok: true, descriptors }
  } catch {
    return fail('/dispatcher/list', 'unreadable_option', 'the list dispatcher.list() returned could not be read (a getter or Proxy threw)')
  }
}
