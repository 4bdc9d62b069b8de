import { isOverlongProxy, MAX_ARRAY_LENGTH } from '../json/guards.js'
import { randomUUID } from 'node:crypto'
import { followSignal } from '../async/abort.js'
import { isTimerBudget, MAX_TIMER_MS } from '../async/deadline.js'
import { createApprovalEngine } from '../approval/approval.js'
import type { HeldInput } from '../approval/held-inputs.js'
import type { PendingApprovalRecord } from '../approval/stores.js'
import type { Call, CallRequest, InvokeError, InvokeOk, InvokeOutcome, InvokeRequest } from '../call/call.js'
import { isToolError, type ToolError } from '../errors/tool-error.js'
import type { HookEvent, HookHandlers } from '../hooks/events.js'
import { HookRegistry } from '../hooks/registry.js'
import { silentLogger } from '../log/logger.js'
import { retiredIdsOf } from '../policy/retired-registry.js'
import { scrubError } from '../redact/scrub-error.js'
import { isDefinedTool } from '../tool/brand.js'
import { describeTool, type ToolDescriptor } from '../tool/descriptor.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { ToolDefinitionError } from '../tool/tool-definition-error.js'
import type { CallScope, Tool } from '../tool/types.js'
import { unknownTool } from '../tool/unknown-tool.js'
import { invalidOption, optionsTable, readOptions } from '../options/options.js'
import { DispatcherOptionsError } from './dispatcher-options-error.js'
import { createCallBase } from './call-base.js'
import { describeInScope, type ScopedToolDescription } from './diagnostics.js'
import { causeOf, emitPostCall, emitPostError, logFailure, type EventCall } from './events.js'
import { requestInvalid } from './errors.js'
import { DEFAULT_HANDLER_TIMEOUT_MS, execute } from './execute.js'
import { holdDispatcher } from './held-dispatchers.js'
import { runPreCall } from './pre-call.js'
import { prepareInput } from './prepare.js'
import { readScope, snapshotRequest } from './request.js'
import { resumeApproved } from './resume.js'
import type { Dispatcher, DispatcherOptions } from './types.js'

/**
 * Creates the dispatch engine over a catalog of tools (`docs/architecture.md` "The invocation
 * lifecycle"; `docs/views.md` "Dispatch").
 *
 * @param options - `{ tools, hooks?, logger?, handlerTimeoutMs?, ... }`: tools returned by
 *   `defineTool`, with distinct IDs; initial hook handlers; a pino- or console-compatible logger
 *   (silent by default); the handlers' time budget (see {@link DispatcherOptions}).
 * @throws DispatcherOptionsError (`code: 'dispatcher_options_invalid'`) for options that are not
 *   an object, a key it does not know (`unknown_option`, naming the key it was likely meant to be:
 *   `policies` → `policy`), an option whose reading throws (`unreadable_option`: a getter or a
 *   Proxy; each option is read once), a `clock` that is not a function, a `logger` without its four
 *   methods or a `handlerTimeoutMs` that is not a positive number of milliseconds up to
 *   2,147,483,647 or `Infinity` (`invalid_option`); every problem at once (`docs/errors.md`
 *   "Misuse errors").
 * @throws ToolDefinitionError (`code: 'tool_definition_invalid'`) when `tools` is not an array,
 *   holds something `defineTool` did not return, or repeats an ID; when a tool reuses an ID a
 *   retired-ID filter of `policy` reserves (`retired_tool_id` at `/tools/<index>/id`,
 *   `retired_toolset` at `/tools/<index>/toolsets/<j>`: `docs/policy.md` "Retired tool IDs:
 *   `createRetiredIdFilter`").
 * @throws HookRegistrationError (`code: 'hook_registration_invalid'`) for a bad `hooks` entry or
 *   `hookTimeoutMs`; PolicyDefinitionError for a `policy` without `decide`; ApprovalConfigError
 *   for bad `approvals`.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const given = readDispatcherOptions(options)
  const catalog = buildCatalog(given.tools, retiredIdsOf(given.policy))
  const handlerTimeoutMs = given.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS
  const hooks = new HookRegistry(given.hooks, given.hookTimeoutMs)
  const logger = given.logger ?? silentLogger
  const approvals = createApprovalEngine(given, { tools: catalog, resume })

  // Not `async` itself: a request without a signal is `run`'s own promise, not one more async
  // level wrapped around it (each costs a promise and task-queue turns per call). Whatever is
  // thrown before `run` is a rejection, as from an async function.
  function invoke(sent: InvokeRequest): Promise<InvokeOutcome> {
    try {
      const request = snapshotRequest(sent)
      if (isToolError(request)) return Promise.resolve({ status: 'error', tool_call_id: randomUUID(), error: request })
      return request.signal === undefined ? run(request) : runFollowing(request)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * Runs a request that carries a caller's signal, followed by one of our own (read once); the
   * listener goes when the call ends. `run`'s own promise, not one more async level around it.
   */
  function runFollowing(request: InvokeRequest): Promise<InvokeOutcome> {
    const followed = followSignal(request.signal)
    if (followed === undefined) return Promise.resolve({ status: 'error', tool_call_id: request.tool_call_id ?? randomUUID(), error: requestInvalid('signal must be an AbortSignal') })
    const outcome = run({ ...request, signal: followed.signal })
    // `run` never rejects on a caller's mistake, but a rejection must still release the listener
    // (and stays the caller's, through `outcome`).
    const release = (): void => followed.release()
    outcome.then(release, release)
    return outcome
  }

  async function run(request: CallRequest): Promise<InvokeOutcome> {
    const toolCallId = request.tool_call_id ?? randomUUID()

    const tool = catalog.get(request.tool_id)
    if (tool === undefined) return { status: 'error', tool_call_id: toolCallId, error: unknownTool(request.tool_id) }

    const base = createCallBase(request, tool, toolCallId)
    if (isToolError(base)) return { status: 'error', tool_call_id: toolCallId, error: base }
    const input = prepareInput(base, request.input)
    if (!input.ok) return fail({ ...base, input: input.input, view: input.view }, input.error)
    const prepared = input.call

    // No awaits where nothing can answer: each await of an idle stage costs a task-queue turn.
    const call = hooks.has('tool.pre_call') ? await runPreCall(prepared, hooks, logger) : prepared
    if (isToolError(call)) return fail(prepared, call)

    const authorized = approvals.allowsAtOnce(call) ? RUN : await approvals.authorize(call)
    if (authorized.kind === 'error') return fail(call, authorized.error)
    if (authorized.kind === 'pending') return { status: 'approval_pending', tool_call_id: call.tool_call_id, approval_id: authorized.approval_id }
    return complete(call)
  }

  /**
   * Runs an authorized call to its outcome, emitting `tool.post_call` or `tool.post_error`;
   * synchronous when the handler answered at once and nothing listens (see `finish`).
   */
  function complete(call: Call): InvokeOutcome | Promise<InvokeOutcome> {
    return finish(call, execute(call, handlerTimeoutMs))
  }

  /**
   * The outcome of an executed call: synchronous when the handler answered at once and nothing
   * listens for `tool.post_call` (an async caller adopts it without another promise of ours).
   */
  function finish(call: Call, executed: ReturnType<typeof execute>): InvokeOutcome | Promise<InvokeOutcome> {
    if (executed instanceof Promise) return executed.then((result) => finish(call, result))
    if (isToolError(executed)) return fail(call, executed)
    const outcome: InvokeOk =
      call.view === undefined
        ? { status: 'ok', tool_call_id: call.tool_call_id, result: executed }
        : { status: 'ok', tool_call_id: call.tool_call_id, result: executed, result_view: call.view }
    // The preview is already scrubbed of the call's secrets (before it was cut: see resultOf).
    return hooks.has('tool.post_call') ? emitPostCall(call, executed, hooks, logger).then(() => outcome) : outcome
  }

  /** Runs the call of an approved pending approval (see `resumeApproved`). */
  function resume(record: PendingApprovalRecord, held: HeldInput | undefined): Promise<InvokeOk | InvokeError> {
    return resumeApproved(record, held, { tools: catalog, complete: async (call) => complete(call), fail, recheck: approvals.recheck })
  }

  async function fail(call: EventCall, error: ToolError): Promise<InvokeOutcome> {
    const safe = scrubError(error, call.secrets)
    logFailure(call, safe, causeOf(error), logger)
    await emitPostError(call, safe, hooks, logger)
    return { status: 'error', tool_call_id: call.tool_call_id, error: safe }
  }

  function describe(toolId: string): ToolDescriptor | undefined
  function describe(toolId: string, scope: CallScope): Promise<ScopedToolDescription>
  function describe(toolId: string, scope?: CallScope): ToolDescriptor | undefined | Promise<ScopedToolDescription> {
    const tool = typeof toolId === 'string' ? catalog.get(toolId) : undefined
    if (scope === undefined) return tool === undefined ? undefined : describeTool(tool)
    if (typeof toolId !== 'string') return Promise.reject(requestInvalid('tool_id must be a string'))
    return inScope(scope, async (checked) => (await describeInScope([toolId], [tool], checked, approvals.diagnose))[0]!)
  }

  function list(): readonly ToolDescriptor[]
  function list(scope: CallScope): Promise<readonly ScopedToolDescription[]>
  function list(scope?: CallScope): readonly ToolDescriptor[] | Promise<readonly ScopedToolDescription[]> {
    if (scope === undefined) return [...catalog.values()].map(describeTool)
    const tools = [...catalog.values()]
    return inScope(scope, (checked) => describeInScope(tools.map((tool) => tool.id), tools, checked, approvals.diagnose))
  }

  const hook = <E extends HookEvent>(event: E, handler: HookHandlers[E]): (() => void) => hooks.add(event, handler)
  // invokeTool and hookTool check the tool against this catalog (`docs/views.md` "Typed calls").
  return holdDispatcher({ invoke, approvals: approvals.api, hook, describe, list }, { tools: catalog, invoke, hook })
}

const RUN = Object.freeze({ kind: 'run' as const })

/** Every option `createDispatcher` knows ({@link DispatcherOptions}); any other key is refused. */
const DISPATCHER_OPTIONS = optionsTable(['tools', 'policy', 'approvals', 'hooks', 'hookTimeoutMs', 'handlerTimeoutMs', 'logger', 'clock'] as const satisfies readonly (keyof DispatcherOptions)[])

/** The methods a logger must have (`Logger`). */
const LOGGER_METHODS = ['debug', 'info', 'warn', 'error'] as const

/**
 * Reads every option of `createDispatcher` once, by the options reader, and checks the ones the
 * dispatcher itself uses (`clock`, `logger`, `handlerTimeoutMs`): every problem at once in one
 * `DispatcherOptionsError` (`unknown_option`, `unreadable_option`, `invalid_option`). What
 * `tools`, `policy`, `hooks` and `approvals` hold is checked by their own owners.
 */
function readDispatcherOptions(options: unknown): DispatcherOptions {
  const problems: UsageProblem[] = []
  const given = readOptions(options, DISPATCHER_OPTIONS, '', problems)
  if (given.clock !== undefined && typeof given.clock !== 'function') problems.push(invalidOption('', 'clock', 'clock must be a function returning epoch milliseconds'))
  if (given.handlerTimeoutMs !== undefined && !isTimerBudget(given.handlerTimeoutMs)) {
    problems.push(invalidOption('', 'handlerTimeoutMs', `handlerTimeoutMs must be a positive number of milliseconds up to ${MAX_TIMER_MS}, or Infinity`))
  }
  if (given.logger !== undefined && !isLogger(given.logger)) problems.push(invalidOption('', 'logger', 'logger must be an object with debug, info, warn and error functions (pino or console)'))
  if (problems.length > 0) throw new DispatcherOptionsError(problems)
  return given as DispatcherOptions
}

/** Whether `value` has the four logger methods (read inside a guard: a throwing getter is not a logger). */
function isLogger(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  try {
    return LOGGER_METHODS.every((method) => typeof (value as Record<string, unknown>)[method] === 'function')
  } catch {
    return false
  }
}

/** Runs `run` on a checked, normalized scope (read once); a malformed scope rejects with `request_invalid`. */
async function inScope<T>(scope: CallScope, run: (scope: Readonly<CallScope>) => Promise<T>): Promise<T> {
  const checked = readScope(scope)
  if (isToolError(checked)) throw checked
  return run(checked)
}

/** The reserved IDs a catalog may not reuse. */
interface RetiredIds {
  readonly tools: ReadonlySet<string>
  readonly toolsets: ReadonlySet<string>
}

function buildCatalog(tools: unknown, retired: RetiredIds): Map<string, Tool> {
  if (!Array.isArray(tools)) {
    throw new ToolDefinitionError(undefined, [{ path: '/tools', code: 'invalid_catalog', message: 'tools must be an array of tools returned by defineTool' }])
  }
  const catalog = new Map<string, Tool>()
  const problems: UsageProblem[] = []
  // A Proxy claiming more elements than the library ever reads (2^24) is refused before a walk
  // that would push a problem per index until memory runs out.
  if (isOverlongProxy(tools, tools.length)) {
    throw new ToolDefinitionError(undefined, [{ path: '/tools', code: 'invalid_catalog', message: `tools is a Proxy array longer than ${MAX_ARRAY_LENGTH} elements` }])
  }
  for (let index = 0; index < tools.length; index++) {
    if (!(index in tools)) {
      // A hole: reported once, and the rest not walked (an array of 2^32 - 1 holes is one problem).
      problems.push({ path: `/tools/${index}`, code: 'not_a_defined_tool', message: 'a hole in the tools array, not a tool returned by defineTool' })
      break
    }
    const tool: unknown = tools[index]
    if (!isDefinedTool(tool)) {
      problems.push({ path: `/tools/${index}`, code: 'not_a_defined_tool', message: 'not a tool returned by defineTool' })
    } else if (catalog.has(tool.id)) {
      problems.push({ path: `/tools/${index}/id`, code: 'duplicate_tool_id', message: `tool ID "${tool.id}" is already in the catalog` })
    } else {
      catalog.set(tool.id, tool)
      problems.push(...reusedRetiredIds(tool, index, retired))
    }
  }
  if (problems.length > 0) throw new ToolDefinitionError(undefined, problems)
  return catalog
}

/**
 * Retired IDs are never reused: a tool registered under a retired tool ID, or in a retired toolset,
 * would be silently unlisted by the filter (a `deny_tools` entry naming it dropped, so the tool
 * would run where it was meant to be denied).
 */
function reusedRetiredIds(tool: Tool, index: number, retired: RetiredIds): UsageProblem[] {
  const problems: UsageProblem[] = []
  if (retired.tools.has(tool.id)) {
    problems.push({ path: `/tools/${index}/id`, code: 'retired_tool_id', message: `tool ID "${tool.id}" is retired (reserved by the policy's retired-ID filter) and is never reused` })
  }
  tool.toolsets.forEach((toolset, at) => {
    if (retired.toolsets.has(toolset)) {
      problems.push({ path: `/tools/${index}/toolsets/${at}`, code: 'retired_toolset', message: `toolset ${JSON.stringify(toolset)} of tool "${tool.id}" is retired (reserved by the policy's retired-ID filter) and is never reused` })
    }
  })
  return problems
}
