import { isOverlongProxy, MAX_ARRAY_LENGTH } from '../json/guards.js'
import { randomUUID } from 'node:crypto'
import { followSignal } from '../async/abort.js'
import { isTimerBudget, MAX_TIMER_MS } from '../async/deadline.js'
import { createApprovalEngine } from '../approval/approval.js'
import type { HeldInput } from '../approval/held-inputs.js'
import type { PendingApprovalRecord } from '../approval/stores.js'
import type { Call, CallRequest, InvokeError, InvokeOk, InvokeOutcome, InvokeRequest } from '../call/call.js'
import { isToolError, type ToolError } from '../errors/tool-error.js'
import { ToolErrorCodes } from '../errors/codes.js'
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
import type { CallTelemetry, DispatchTelemetry, TelemetryCallEnd } from '../telemetry/telemetry.js'
import { inputDigest } from '../digest/input-digest.js'
import { redactInput } from '../redact/redact.js'
import { settleGuarded, startGuarded } from './telemetry-guard.js'
import type { ApprovalsApi } from '../approval/approvals-api.js'

/**
 * Creates the dispatch engine over a catalog of tools (`docs/architecture.md` "The invocation
 * lifecycle"; `docs/views.md` "Dispatch").
 *
 * @param options - `{ tools, hooks?, logger?, handlerTimeoutMs?, telemetry?, ... }`: tools returned by
 *   `defineTool`, with distinct IDs; initial hook handlers; a pino- or console-compatible logger
 *   (silent by default); the handlers' time budget; a recorder of traces and metrics such as
 *   `createOtelTelemetry` of `result-views/otel` (`docs/telemetry.md` "Options"; see {@link DispatcherOptions}).
 * @throws DispatcherOptionsError (`code: 'dispatcher_options_invalid'`) for options that are not
 *   an object, a key it does not know (`unknown_option`, naming the key it was likely meant to be:
 *   `policies` → `policy`), an option whose reading throws (`unreadable_option`: a getter or a
 *   Proxy; each option is read once), a `clock` that is not a function, a `logger` without its four
 *   methods, a `handlerTimeoutMs` that is not a positive number of milliseconds up to
 *   2,147,483,647 or `Infinity`, or a `telemetry` without `startCall`, `approvalSettled` and
 *   `recordInputDigest` (`invalid_option`); every problem at once (`docs/errors.md`
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
  const telemetry = given.telemetry
  // Read once (a getter could answer differently, or throw, per call).
  const digestInputs = telemetry !== undefined && readsInputDigest(telemetry)

  // Not `async` itself: a request without a signal is `run`'s own promise, not one more async
  // level wrapped around it (each costs a promise and task-queue turns per call). Whatever is
  // thrown before `run` is a rejection, as from an async function.
  function invoke(sent: InvokeRequest): Promise<InvokeOutcome> {
    try {
      const request = snapshotRequest(sent)
      if (isToolError(request)) return Promise.resolve({ status: 'error', tool_call_id: randomUUID(), error: request })
      // The one branch of a dispatcher without telemetry: its calls never reach the traced path.
      if (telemetry !== undefined) return traced(request, telemetry)
      return request.signal === undefined ? run(request) : runFollowing(request, run)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * Runs a request that carries a caller's signal, followed by one of our own (read once); the
   * listener goes when the call ends. `run`'s own promise, not one more async level around it.
   */
  function runFollowing(request: InvokeRequest, runner: (request: CallRequest) => Promise<InvokeOutcome>): Promise<InvokeOutcome> {
    const followed = followSignal(request.signal)
    if (followed === undefined) return Promise.resolve({ status: 'error', tool_call_id: request.tool_call_id ?? randomUUID(), error: requestInvalid('signal must be an AbortSignal') })
    // The request is the dispatcher's own snapshot (snapshotRequest): it takes our signal in place
    // of the caller's, which nothing reads afterwards.
    ;(request as { signal?: unknown }).signal = followed.signal
    const outcome = runner(request)
    // `run` never rejects on a caller's mistake, but a rejection must still release the listener
    // (and stays the caller's, through `outcome`).
    outcome.then(followed.release, followed.release)
    return outcome
  }

  /**
   * One call through the stages. With `span` (a dispatcher with telemetry) each stage is reported
   * to the call's recorder as it ends; without, the reports are skipped: `span?.stage(...)` does
   * not even build its argument.
   */
  async function run(request: CallRequest, span?: CallTelemetry): Promise<InvokeOutcome> {
    const toolCallId = request.tool_call_id ?? randomUUID()

    const tool = catalog.get(request.tool_id)
    if (tool === undefined) return { status: 'error', tool_call_id: toolCallId, error: unknownTool(request.tool_id) }

    const base = createCallBase(request, tool, toolCallId)
    if (isToolError(base)) return { status: 'error', tool_call_id: toolCallId, error: base }
    const input = prepareInput(base, request.input)
    span?.stage('input', input.ok ? undefined : { error_code: input.error.code })
    if (!input.ok) return fail({ ...base, input: input.input, view: input.view }, input.error, span)
    const prepared = input.call

    // No awaits where nothing can answer: each await of an idle stage costs a task-queue turn.
    let call: Call | ToolError = prepared
    if (hooks.has('tool.pre_call')) {
      const ran = runPreCall(prepared, hooks, logger)
      call = ran instanceof Promise ? await ran : ran
      span?.stage('pre_call', isToolError(call) ? { hooks: hooks.list('tool.pre_call').length, error_code: call.code } : { hooks: hooks.list('tool.pre_call').length })
    }
    if (isToolError(call)) return fail(prepared, call, span)
    if (span !== undefined && digestInputs) span.inputDigest(redactedDigestOf(call))

    const authorized = approvals.allowsAtOnce(call) ? RUN : await approvals.authorize(call)
    if (authorized.kind === 'error') {
      span?.stage('authorize', { authorized: 'error', error_code: authorized.error.code })
      return fail(call, authorized.error, span)
    }
    if (authorized.kind === 'pending') {
      span?.stage('authorize', { authorized: 'pending' })
      return { status: 'approval_pending', tool_call_id: call.tool_call_id, approval_id: authorized.approval_id }
    }
    span?.stage('authorize', { authorized: authorized.by })
    return complete(call, span)
  }

  /**
   * Runs an authorized call to its outcome, emitting `tool.post_call` or `tool.post_error`;
   * synchronous when the handler answered at once and nothing listens (see `finish`). With
   * `span`, the handler runs in the call's span and its stages are reported.
   */
  function complete(call: Call, span?: CallTelemetry): InvokeOutcome | Promise<InvokeOutcome> {
    return finish(call, execute(call, handlerTimeoutMs, span), span)
  }

  /**
   * The outcome of an executed call: synchronous when the handler answered at once and nothing
   * listens for `tool.post_call` (an async caller adopts it without another promise of ours).
   */
  function finish(call: Call, executed: ReturnType<typeof execute>, span: CallTelemetry | undefined): InvokeOutcome | Promise<InvokeOutcome> {
    if (executed instanceof Promise) return executed.then((result) => finish(call, result, span))
    if (isToolError(executed)) return fail(call, executed, span)
    const outcome: InvokeOk =
      call.view === undefined
        ? { status: 'ok', tool_call_id: call.tool_call_id, result: executed }
        : { status: 'ok', tool_call_id: call.tool_call_id, result: executed, result_view: call.view }
    // The preview is already scrubbed of the call's secrets (before it was cut: see resultOf).
    if (!hooks.has('tool.post_call')) return outcome
    return emitPostCall(call, executed, hooks, logger).then(() => {
      span?.stage('post_call', { hooks: hooks.list('tool.post_call').length })
      return outcome
    })
  }

  /**
   * A call of a dispatcher with telemetry (`docs/telemetry.md`): its recorder starts with the call
   * ID fixed (so the span names the ID the outcome carries), sees every stage of `run`, ends with
   * the outcome's codes, and the outcome carries the span's `trace_context`. What is thrown
   * (misuse of the library only) ends the span too, as an error, and is thrown on.
   */
  async function traced(sent: InvokeRequest, telemetry: DispatchTelemetry): Promise<InvokeOutcome> {
    const request = sent.tool_call_id === undefined ? { ...sent, tool_call_id: randomUUID() } : sent
    const tool = catalog.get(request.tool_id)
    const span = startGuarded(telemetry, { tool_id: request.tool_id, tool_call_id: request.tool_call_id!, tool_origin: tool?.origin, parent: request.trace_context, approval_id: undefined })
    // A recorder that failed to start: the call runs untraced.
    if (span === undefined) return request.signal === undefined ? run(request) : runFollowing(request, run)
    return recorded(span, () => (request.signal === undefined ? run(request, span) : runFollowing(request, (r) => run(r, span))))
  }

  /** Runs the call of an approved pending approval (see `resumeApproved`). */
  function resume(record: PendingApprovalRecord, held: HeldInput | undefined): Promise<InvokeOk | InvokeError> {
    if (telemetry !== undefined) return resumeTraced(record, held, telemetry)
    return resumeApproved(record, held, untracedResume)
  }

  /**
   * A deferred call of a dispatcher with telemetry: its span links to the span of the call that
   * opened the approval (when this process recorded it) and runs as the active context of the
   * resume; the approval is no longer pending. The outcome of `approvals.resolve` carries the
   * deferred call's own span.
   */
  function resumeTraced(record: PendingApprovalRecord, held: HeldInput | undefined, telemetry: DispatchTelemetry): Promise<InvokeOk | InvokeError> {
    const span = startGuarded(telemetry, { tool_id: record.tool_id, tool_call_id: record.tool_call_id, tool_origin: catalog.get(record.tool_id)?.origin, parent: undefined, approval_id: record.approval_id })
    if (span === undefined) return resumeApproved(record, held, untracedResume)
    return recorded(span, () =>
      span.runActive(() =>
        resumeApproved(record, held, {
          tools: catalog,
          complete: (call) => {
            span.stage('authorize', { authorized: 'approval' })
            return Promise.resolve(complete(call, span))
          },
          fail: (call, error) => fail(call, error, span),
          recheck: approvals.recheck,
        }),
      ),
    )
  }

  /** A call's error outcome: scrubbed, logged, `tool.post_error` emitted (reported to `span` as a stage when it has observers). */
  async function fail(call: EventCall, error: ToolError, span?: CallTelemetry): Promise<InvokeOutcome> {
    const safe = scrubError(error, call.secrets)
    logFailure(call, safe, causeOf(error), logger)
    const observed = span !== undefined && hooks.has('tool.post_error')
    await emitPostError(call, safe, hooks, logger)
    if (observed) span.stage('post_error', { hooks: hooks.list('tool.post_error').length })
    return { status: 'error', tool_call_id: call.tool_call_id, error: safe }
  }

  /** What an untraced deferred call runs through. */
  const untracedResume = { tools: catalog, complete: async (call: Call) => complete(call), fail: (call: EventCall, error: ToolError) => fail(call, error), recheck: approvals.recheck }

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
  const api = telemetry === undefined ? approvals.api : settlingApprovals(approvals.api, telemetry)
  // invokeTool and hookTool check the tool against this catalog (`docs/views.md` "Typed calls").
  return holdDispatcher({ invoke, approvals: api, hook, describe, list }, { tools: catalog, invoke, hook })
}

const RUN = Object.freeze({ kind: 'run' as const, by: 'policy' as const })

/**
 * Runs a traced call's work and ends its span with the outcome's codes; the outcome carries the
 * span's `trace_context`. What is thrown (misuse of the library only) ends the span too, as an
 * error, and is thrown on.
 */
async function recorded<T extends InvokeOutcome>(span: CallTelemetry, work: () => Promise<T>): Promise<T> {
  let outcome: T
  try {
    outcome = await work()
  } catch (error) {
    span.end({ status: 'error', view: undefined, error_code: 'library_misuse' })
    throw error
  }
  span.end(endOf(outcome))
  const context = span.trace_context
  return context === undefined ? outcome : { ...outcome, trace_context: context }
}

/** What a call's telemetry is told of its outcome: the status, the view, the error's code and reason; never a value or a message. */
function endOf(outcome: InvokeOutcome): TelemetryCallEnd {
  switch (outcome.status) {
    case 'ok':
      return { status: 'ok', view: outcome.result_view }
    case 'approval_pending':
      return { status: 'approval_pending', view: undefined, approval_id: outcome.approval_id }
    case 'error':
      return { status: 'error', view: undefined, error_code: outcome.error.code, error_reason: registeredReason(outcome.error.code, outcome.error.reason) }
  }
}

/**
 * The reason telemetry records: one the registry lists for the code, else `_OTHER`. A tool may
 * throw a `ToolError` of its own with any reason, which could hold a value of the call: only the
 * registry's words are ever recorded (and metric labels stay few).
 */
function registeredReason(code: string, reason: string): string {
  const entry = Object.hasOwn(ToolErrorCodes, code) ? (ToolErrorCodes as Record<string, { readonly reasons: readonly string[] }>)[code] : undefined
  return entry !== undefined && entry.reasons.includes(reason) ? reason : OTHER_REASON
}

/** What telemetry records for a reason the registry does not list (the OpenTelemetry convention's word for an unlisted value). */
const OTHER_REASON = '_OTHER'

/**
 * The approvals API of a dispatcher with telemetry: an approval that `show`, `resolve` or `cancel`
 * finds no longer pending is reported settled (the pending approvals gauge counts it down).
 */
function settlingApprovals(api: ApprovalsApi, telemetry: DispatchTelemetry): ApprovalsApi {
  const settle = <V>(approvalId: string, view: V): V => {
    const status = typeof view === 'object' && view !== null ? (view as { status?: unknown }).status : undefined
    if (typeof status === 'string' && status !== 'pending') settleGuarded(telemetry, approvalId)
    return view
  }
  // An `approval_state` refusal (expired, already resolved, any reason) says it is no longer pending either.
  const refused = (approvalId: string) => (error: unknown): never => {
    if (isToolError(error) && error.code === 'approval_state') settleGuarded(telemetry, approvalId)
    throw error
  }
  return Object.freeze<ApprovalsApi>({
    ...api,
    show: (approvalId, ...rest) => api.show(approvalId, ...rest).then((view) => settle(approvalId, view), refused(approvalId)),
    resolve: (approvalId, ...rest) => api.resolve(approvalId, ...rest).then((view) => settle(approvalId, view), refused(approvalId)),
    cancel: (approvalId, ...rest) => api.cancel(approvalId, ...rest).then((view) => settle(approvalId, view), refused(approvalId)),
  })
}

/** Every option `createDispatcher` knows ({@link DispatcherOptions}); any other key is refused. */
const DISPATCHER_OPTIONS = optionsTable(['tools', 'policy', 'approvals', 'hooks', 'hookTimeoutMs', 'handlerTimeoutMs', 'logger', 'clock', 'telemetry'] as const satisfies readonly (keyof DispatcherOptions)[])

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
  if (given.telemetry !== undefined && !isTelemetry(given.telemetry)) {
    problems.push(invalidOption('', 'telemetry', 'telemetry must be a recorder such as createOtelTelemetry({ tracer, meter }) of result-views/otel (startCall, approvalSettled, recordInputDigest)'))
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

/** A telemetry's `recordInputDigest`, read once inside a guard (a getter that throws records none). */
function readsInputDigest(telemetry: DispatchTelemetry): boolean {
  try {
    return telemetry.recordInputDigest === true
  } catch {
    return false
  }
}

/**
 * The input digest telemetry records (`docs/telemetry.md` "Input digest"): of the final input with
 * every sensitive location replaced by `"[REDACTED]"` (the input the events carry), so it is no
 * function of a sensitive value (a low-entropy secret cannot be found by trying each). It differs
 * from the approval input digest of a call with sensitive fields.
 */
function redactedDigestOf(call: Call): string {
  const input = call.sensitivePaths.length === 0 ? call.input : redactInput(call.input, call.sensitivePaths)
  return inputDigest(input, { origin: call.tool.origin })
}

/** Whether `value` has the shape of a {@link DispatchTelemetry} (read inside a guard). */
function isTelemetry(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  try {
    const t = value as Record<string, unknown>
    return typeof t.startCall === 'function' && typeof t.approvalSettled === 'function' && typeof t.recordInputDigest === 'boolean'
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
