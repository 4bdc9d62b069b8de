import { quoted } from '../errors/quote.js'
import type { InvokeError, InvokeOk } from '../call/call.js'
import { appendPointer } from '../json/pointer.js'
import { silentLogger, type Logger } from '../log/logger.js'
import { PolicyDefinitionError } from '../policy/policy-definition-error.js'
import { defaultToolPolicy, type ToolPolicy } from '../policy/policy.js'
import { announceRetiredIds } from '../policy/retired-registry.js'
import type { CallScope, Tool } from '../tool/types.js'
import { optionsTable, readOptions } from '../options/options.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { ApprovalConfigError } from './errors.js'
import { HeldInputs, type HeldInput } from './held-inputs.js'
import { createMemoryApprovalStores } from './memory-stores.js'
import type { ApprovalPrompt } from './prompt.js'
import { resolveSealKeys, type SealKeys } from './seal.js'
import type { StoreGuard } from './store-call.js'
import { checkedClock, isLife, MAX_TTL_MS } from './time.js'
import type { ApprovalGrantStore, ApprovalStores, ApprovalTokenStore, Awaitable, PendingApprovalRecord, PendingApprovalStore } from './stores.js'

/** Default time budget of a store call, a policy decision and an owner check. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 5_000
/** Default life of a pending approval. */
export const DEFAULT_PENDING_TTL_MS = 15 * 60_000
/** Default time budget of the prompt callback: 5 minutes (a person answers it). */
export const DEFAULT_PROMPT_TIMEOUT_MS = 5 * 60_000

/** Who owns a pending approval, as the host's owner check sees it. */
export interface ApprovalOwner {
/** The pending approval a decision is asked for. */
  readonly approval_id: string
  /** The owner profile (the call's `scope.profile_id`). */
  readonly profile_id: string
  /** The call's recorded scope (its `session_id` is the session binding). */
  readonly scope: Readonly<CallScope>
}

/**
 * The host's check of a pending approval's owner before a decision is accepted (`docs/approvals.md`
 * "The `checkOwner` contract": profile availability and session binding are checked again before a
 * decision is accepted). Runs on every `resolve` (not on `show` or `cancel`), sync or async, within
 * the approvals `timeoutMs`. Only these exact strings are answers:
 * - `'ok'`: the decision proceeds;
 * - `'profile_unavailable'`: `resolve` rejects `approval_forbidden` / `profile_unavailable`;
 * - `'session_unbound'`: `resolve` rejects `approval_forbidden` / `session_unbound`.
 * Anything else (`true`, `undefined`, `null`, `'OK'`, an object), a throw, a rejection or no
 * answer within `timeoutMs` fails closed: `approval_unavailable` / `owner_check_failed` (a thrown
 * value is the error's `cause`). A refused decision leaves the approval `pending`.
 */
export type ApprovalOwnerCheck = (owner: ApprovalOwner) => Awaitable<'ok' | 'profile_unavailable' | 'session_unbound'>

/**
 * The `approvals` option of `createDispatcher` (`docs/approvals.md` "Configuring the dispatcher").
 * Any other key is refused (`ApprovalConfigError`, one problem per key), except `database` and
 * `close`, which a `createSqliteApprovalStores` or `createPostgresApprovalStores` bundle carries
 * and which are ignored, so the bundle can be passed as is.
 */
export interface ApprovalOptions {
  /** Default: a fresh in-memory store. */
  tokens?: ApprovalTokenStore
  /** Default: a fresh in-memory store. */
  grants?: ApprovalGrantStore
  /** Default: a fresh in-memory store. */
  pending?: PendingApprovalStore
  /** The host's prompt callback. When given, calls that need approval ask it instead of opening a pending approval. */
  prompt?: ApprovalPrompt
  /** Time budget of each store call, each policy decision and each owner check, in milliseconds. Default 5000. */
  timeoutMs?: number
  /**
   * Time budget of the prompt callback, in milliseconds. Default 300000 (5 minutes); past it the
   * call fails with `approval_unavailable` / `prompt_timeout`. `Infinity` waits forever, only
   * when given explicitly.
   */
  promptTimeoutMs?: number
  /**
   * How long a pending approval waits for a decision, in milliseconds: a positive integer of at
   * most 3155760000000 (100 years). Default 900000 (15 minutes).
   */
  pendingTtlMs?: number
  /** Checked before a decision on a pending approval is accepted. Default: every owner is available and bound. */
  checkOwner?: ApprovalOwnerCheck
  /**
   * Current time in epoch milliseconds. Default `Date.now`. A reading that throws or is not a
   * number from 0 to about 9899 in years fails the approval operation with `approval_unavailable`
   * / `clock_failed`.
   */
  now?: () => number
  /**
   * The key that seals pending inputs (`docs/approvals.md` "Sealed pending inputs"): 32 random
   * bytes (a `Uint8Array` or `Buffer`, copied). With it, a pending approval whose call has
   * sensitive input fields carries its real input encrypted (AES-256-GCM, bound to the approval
   * ID), so every process holding the key can run the approved call; without it the real input
   * stays in this process's memory. Default: none.
   */
  sealKey?: Uint8Array
  /**
   * Older seal keys (32 bytes each), used only to open approvals sealed before a rotation; new
   * seals always use `sealKey`, which is required with them. Default none.
   */
  previousSealKeys?: readonly Uint8Array[]
}

/** The keys `ApprovalOptions` knows; any other key is refused (except {@link STORE_BUNDLE_KEYS}). */
const APPROVAL_OPTION_KEYS = ['tokens', 'grants', 'pending', 'prompt', 'timeoutMs', 'promptTimeoutMs', 'pendingTtlMs', 'checkOwner', 'now', 'sealKey', 'previousSealKeys'] as const satisfies readonly (keyof ApprovalOptions)[]
/**
 * The extra keys of a `createSqliteApprovalStores` or `createPostgresApprovalStores` bundle
 * (`database`, `close`), ignored so the
 * bundle can be passed as `approvals` as is (`approvals: stores`, `approvals: { ...stores,
 * timeoutMs }`).
 */
const STORE_BUNDLE_KEYS = ['database', 'close'] as const

/** The table the options reader checks `approvals` against: its options, then the bundle keys it ignores. */
const APPROVAL_OPTIONS = optionsTable([...APPROVAL_OPTION_KEYS, ...STORE_BUNDLE_KEYS])

/**
 * What the approval engine needs from its dispatcher: the catalog (to mint tokens for its tools)
 * and a way to run an approved call (implemented by `dispatch/resume.ts`).
 */
export interface DispatchHost {
  /** The dispatcher's catalog. */
  readonly tools: ReadonlyMap<string, Tool>
  /**
   * Runs the call an approved pending record holds, on the real input this process `held` for a
   * record stored redacted (else on the stored input), and settles with its outcome as the record
   * keeps it (never `approval_pending`).
   */
  resume(record: PendingApprovalRecord, held: HeldInput | undefined): Promise<InvokeOk | InvokeError>
}

/** The resolved `createDispatcher({ policy, approvals })` options: everything the approval step and the approvals API run on. */
export interface ResolvedApprovals {
  readonly policy: ToolPolicy
  readonly stores: ApprovalStores
  readonly prompt: ApprovalPrompt | undefined
  /** Store (and policy) time budget and the logger. */
  readonly guard: StoreGuard
  /** Time budget of the prompt callback; `Infinity` (only when asked for) waits forever. */
  readonly promptTimeoutMs: number
  /** How long a pending approval waits for a decision. */
  readonly pendingTtlMs: number
  /** Current time, epoch milliseconds (the host's clock, checked: throws `approval_unavailable` / `clock_failed`). */
  readonly now: () => number
  /** Real inputs of pending approvals whose stored record is redacted (when there is no seal key). */
  readonly held: HeldInputs
  /** The seal keys (`approvals.sealKey`, `previousSealKeys`), if given. */
  readonly seal: SealKeys | undefined
  readonly checkOwner: ApprovalOwnerCheck | undefined
}

/**
 * Resolves `createDispatcher({ policy, approvals })` with defaults: `defaultToolPolicy`, in-memory
 * stores, 5 s store timeout, 5 min prompt timeout, 15 min pending life.
 *
 * Logs, through `logger`, the `tools.retired_ids_ignored` warnings a logger-less retired-ID filter
 * held back for the owners of `policy` (`docs/policy.md` "Retired tool IDs: `createRetiredIdFilter`").
 *
 * @throws PolicyDefinitionError when `policy` has no `decide` function.
 * @throws ApprovalConfigError listing every bad `approvals` field, including every unknown key.
 */
export function resolveApprovalOptions(
  policy: ToolPolicy | undefined,
  approvals: ApprovalOptions | undefined,
  logger: Logger | undefined,
  clock?: () => number,
): ResolvedApprovals {
  if (policy !== undefined) checkPolicy(policy)
  const problems: UsageProblem[] = []
  // Every option is read once, here, by the options reader; the checks and the resolved options use only these values.
  const given = readOptions(approvals, APPROVAL_OPTIONS, '/approvals', problems) as ApprovalOptions
  const unreadable = new Set(problems.filter((problem) => problem.code === 'unreadable_option').map((problem) => problem.path))
  const store = (key: 'tokens' | 'grants' | 'pending', methods: readonly string[]): void => {
    const value = given[key] as Record<string, unknown> | undefined
    if (value === undefined) return
    let missing: string[]
    try {
      missing = methods.filter((m) => typeof value?.[m] !== 'function')
    } catch {
      problems.push({ path: `/approvals/${key}`, code: 'unreadable_option', message: `the ${key} store could not be read (a getter or a Proxy threw)` })
      return
    }
    if (missing.length > 0) problems.push({ path: `/approvals/${key}`, code: 'invalid_store', message: `a ${key} store needs ${missing.join(', ')}` })
  }
  store('tokens', ['insert', 'get', 'consume'])
  store('grants', ['put', 'get', 'list', 'delete'])
  store('pending', ['insert', 'get', 'update'])
  for (const key of ['prompt', 'checkOwner', 'now'] as const) {
    if (given[key] !== undefined && typeof given[key] !== 'function') problems.push({ path: `/approvals/${key}`, code: 'invalid_callback', message: `${key} must be a function` })
  }
  for (const key of ['timeoutMs', 'promptTimeoutMs'] as const) {
    const value = given[key]
    if (value !== undefined && !(typeof value === 'number' && value > 0 && (Number.isSafeInteger(value) || value === Infinity))) {
      problems.push({ path: `/approvals/${key}`, code: 'invalid_duration', message: `${key} must be a positive integer of milliseconds, or Infinity` })
    }
  }
  // An unreadable sealKey is already a problem; checking previousSealKeys against its absence would add a wrong one.
  const seal = unreadable.has('/approvals/sealKey') || unreadable.has('/approvals/previousSealKeys') ? undefined : resolveSealKeys(given.sealKey, given.previousSealKeys, problems)
  // A life, not a wait: it becomes an `expires_at`, so it is finite and bounded.
  if (given.pendingTtlMs !== undefined && !isLife(given.pendingTtlMs)) {
    problems.push({ path: '/approvals/pendingTtlMs', code: 'invalid_duration', message: `pendingTtlMs must be a positive integer of milliseconds of at most ${MAX_TTL_MS} (100 years)` })
  }
  if (problems.length > 0) throw new ApprovalConfigError(problems)
  if (policy !== undefined && logger !== undefined) announceRetiredIds(policy, logger)

  const memory = given.tokens && given.grants && given.pending ? undefined : createMemoryApprovalStores()
  return {
    policy: policy ?? defaultToolPolicy,
    stores: { tokens: given.tokens ?? memory!.tokens, grants: given.grants ?? memory!.grants, pending: given.pending ?? memory!.pending },
    prompt: given.prompt,
    guard: { timeoutMs: given.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS, logger: logger ?? silentLogger },
    promptTimeoutMs: given.promptTimeoutMs ?? DEFAULT_PROMPT_TIMEOUT_MS,
    pendingTtlMs: given.pendingTtlMs ?? DEFAULT_PENDING_TTL_MS,
    now: checkedClock(given.now ?? clock ?? Date.now),
    checkOwner: given.checkOwner,
    held: new HeldInputs(),
    seal,
  }
}

/**
 * A policy must have a `decide` function, read inside a guard: a throwing getter or Proxy trap is
 * `unreadable_option` at `/policy`, never the host's own error.
 */
function checkPolicy(policy: unknown): void {
  let decide: unknown
  try {
    decide = (policy as { decide?: unknown } | null)?.decide
  } catch {
    throw new PolicyDefinitionError([{ path: '/policy', code: 'unreadable_option', message: 'the policy could not be read (a getter or a Proxy threw)' }])
  }
  if (typeof decide !== 'function') throw new PolicyDefinitionError([{ path: '/policy', code: 'invalid_policy', message: 'policy must have a decide function' }])
}
