import { canonicalJson, isJsonValueError, type ToolError } from 'result-views'
import { appendPointer } from '../json/pointer.js'
import { optionsTable, readOptions } from '../options/options.js'
import type { CallScope, InvokeOutcome, InvokeRequest, JsonValue, ToolDescriptor, View } from 'result-views'
import { contractDigest } from './catalog.js'
import type { LoopDefinition, LoopNode } from './definition.js'
import type { LoopDiagnostic } from './diagnostics.js'
import { actionFailed, actionOutputInvalid, approvalPending, contractStale, lintFailed, optionsInvalid, paramsNotJson, snapshotInvalid, type LoopProblem } from './errors.js'
import { analyzeGraph } from './graph.js'
import { lintLoop } from './lint.js'
import { parseLoopDefinition } from './parse.js'
import { migrateRunSnapshot, startRunWithDiagnostics, type RunPin, type RunSnapshot } from './pin.js'
import { renderParams } from './render.js'
import { hasResultViewParam, RESULT_VIEW_PARAM } from './selection.js'

/** The part of a `Dispatcher` the runner uses (a `createDispatcher` result fits). */
export interface LoopDispatcher {
/** Runs one tool node's call (`Dispatcher.invoke`). */
  invoke(request: InvokeRequest): Promise<InvokeOutcome>
/** The current descriptor of a tool, to check a pinned contract before each call; `undefined` once the tool is gone. */
  describe(tool_id: string): ToolDescriptor | undefined
/** The catalog the run starts with (lint and pinning read it). */
  list(): readonly ToolDescriptor[]
}

/** What a host action receives besides its rendered params. */
export interface LoopActionContext {
/** The node being run. */
  readonly node_id: string
/** Its kind (the action's name, e.g. `run-agent`). */
  readonly kind: string
/** The run's scope (`RunLoopOptions.scope`), if any. */
  readonly scope: Readonly<CallScope> | undefined
}

/**
 * A host-provided node kind (e.g. `run-agent`): takes the node's rendered params and returns its
 * output (plain JSON), sync or async. A throw fails the node (`loop_node_failed` /
 * `action_failed`); an output that is not plain JSON fails it with `loop_node_failed` /
 * `action_output_invalid`, and so does `undefined` (an action that has nothing to say returns
 * `null`, which is a legitimate output).
 */
export type LoopAction = (params: { readonly [key: string]: JsonValue }, context: LoopActionContext) => unknown

/** Options of {@link runLoop}. */
export interface RunLoopOptions {
  /** Calls the tool nodes; its catalog (`list()`) is what the Loop is linted and pinned against. */
  readonly dispatcher: LoopDispatcher
  /** The run's inputs, read by `{{ .inputs.<name> }}`. Plain JSON. Default `{}`. */
  readonly inputs?: Readonly<Record<string, unknown>>
  /** Host actions by node kind. A kind that is both a catalog tool and an action runs the tool. */
  readonly actions?: Readonly<Record<string, LoopAction>>
  /**
   * A stored snapshot to run under instead of pinning anew (a resumed run). Pre-view snapshots are
   * translated to `full` (see `migrateRunSnapshot`).
   */
  readonly snapshot?: unknown
  /** The superseded schema digest table, for pre-view snapshots (see `migrateRunSnapshot`). */
  readonly supersededDigests?: Readonly<Record<string, string>>
  /** The scope every tool call and action runs in. */
  readonly scope?: CallScope
}

/** How one node ended. */
export type NodeRun =
  | {
      readonly status: 'ok'
      readonly output: JsonValue
      /** The view the tool returned (tools with views only). */
      readonly result_view?: View
    }
  | { readonly status: 'error'; readonly error: ToolError }
  | {
      readonly status: 'skipped'
      /** The failed node upstream of this one. */
      readonly blocked_by: string
    }

/** What {@link runLoop} resolves to. */
export interface LoopRun {
  /** `ok` when every node is `ok`. */
  readonly status: 'ok' | 'error'
  /** Node ID → how it ended, in execution order. */
  readonly nodes: Readonly<Record<string, NodeRun>>
  /** Node IDs in the order they ran (dependency order, ties by definition order). */
  readonly order: readonly string[]
  /** The snapshot the run used (store it to resume under the same contracts). */
  readonly snapshot: RunSnapshot
  /** Lint's warnings (a run with lint errors never starts). */
  readonly diagnostics: readonly LoopDiagnostic[]
}

/**
 * Runs a Loop (`docs/loops.md`): lints it against the dispatcher's catalog and refuses to start
 * on errors; pins (or reads from `snapshot`) each tool node's view and schema digest; then runs
 * the nodes one at a time in dependency order. For each node it renders the params' templates
 * from the inputs and the outputs of earlier nodes, then:
 * - a tool node first compares its pinned digest with the dispatcher's current descriptor for
 *   that view (a mismatch fails it with `loop_contract_stale`), then calls
 *   `dispatcher.invoke({ tool_id, input, scope, pinned_result_view })`; the input carries
 *   `result_view` only when the params set it;
 * - any other node calls `actions[kind](params, context)`.
 * A node whose upstream node failed is `skipped`. Nodes never throw out of the run: failures are
 * in `nodes`.
 *
 * @throws LoopError `loop_lint_failed` (with every diagnostic), `loop_definition_invalid`,
 *   `loop_snapshot_invalid` (malformed, its pins do not match the definition's tool nodes, or a
 *   pin's view contradicts the literal `result_view` its node's params select), `loop_options_invalid`.
 */
export async function runLoop(definition: LoopDefinition, options: RunLoopOptions): Promise<LoopRun> {
  const loop = parseLoopDefinition(definition)
  const { dispatcher, inputs, actions, scope } = checkOptions(options)
  const catalog = dispatcher.list()
  const actionKinds = Object.keys(actions)
  let snapshot: RunSnapshot
  let diagnostics: readonly LoopDiagnostic[]
  if (options.snapshot === undefined) {
    ;({ snapshot, diagnostics } = startRunWithDiagnostics(loop, catalog, { actions: actionKinds }))
  } else {
    snapshot = migrateRunSnapshot(options.snapshot, { supersededDigests: options.supersededDigests })
    checkSnapshotMatches(loop, snapshot, new Map(catalog.map((d) => [d.tool_id, d])))
    const pinnedViews: Record<string, View> = {}
    for (const [id, pin] of Object.entries(snapshot.pins)) Object.defineProperty(pinnedViews, id, { value: pin.result_view, enumerable: true })
    diagnostics = lintLoop(loop, catalog, { actions: actionKinds, pinnedViews })
    if (diagnostics.some((d) => d.severity === 'error')) throw lintFailed(diagnostics)
  }

  const graph = analyzeGraph(loop)
  const outputs = new Map<string, unknown>()
  const results = new Map<string, NodeRun>()
  for (const id of graph.order) {
    const node = loop.graph.nodes[graph.indexOf.get(id)!]!
    const failedParent = graph.parents.get(id)!.find((parent) => results.get(parent)!.status !== 'ok')
    if (failedParent !== undefined) {
      const parentRun = results.get(failedParent)!
      results.set(id, { status: 'skipped', blocked_by: parentRun.status === 'skipped' ? parentRun.blocked_by : failedParent })
      continue
    }
    let params: { [key: string]: JsonValue }
    try {
      params = renderParams(node.params ?? {}, { inputs, outputs }) as { [key: string]: JsonValue }
    } catch (error) {
      // A referenced tool result holds a string that cannot be an input (a lone surrogate).
      if (!isJsonValueError(error)) throw error
      results.set(id, { status: 'error', error: paramsNotJson(node.id, error) })
      continue
    }
    const pin = own(snapshot.pins, id) ? snapshot.pins[id]! : undefined
    const run = pin === undefined ? await runAction(node, params, actions, scope) : await runTool(node, pin, params, dispatcher, scope)
    if (run.status === 'ok') outputs.set(id, run.output)
    results.set(id, run)
  }

  const nodes: Record<string, NodeRun> = {}
  for (const [id, run] of results) Object.defineProperty(nodes, id, { value: run, enumerable: true })
  const status = [...results.values()].every((run) => run.status === 'ok') ? 'ok' : 'error'
  return { status, nodes, order: [...graph.order], snapshot, diagnostics: diagnostics.filter((d) => d.severity === 'warning') }
}

async function runTool(node: LoopNode, pin: RunPin, input: { [key: string]: JsonValue }, dispatcher: LoopDispatcher, scope: CallScope | undefined): Promise<NodeRun> {
  const current = dispatcher.describe(pin.tool_id)
  const currentDigest = current === undefined ? null : contractDigest(current, pin.result_view)
  if (currentDigest !== pin.schema_digest) {
    const error = contractStale({ node_id: node.id, tool_id: pin.tool_id, result_view: pin.result_view, expected_digest: pin.schema_digest, current_digest: currentDigest })
    return { status: 'error', error }
  }
  const request: InvokeRequest = { tool_id: pin.tool_id, input }
  if (scope !== undefined) request.scope = scope
  // Only a tool with views has a view to pin; a single-result tool's pin is its one (full) schema.
  if (current!.output_views !== undefined) request.pinned_result_view = pin.result_view
  const outcome = await dispatcher.invoke(request)
  if (outcome.status === 'error') return { status: 'error', error: outcome.error }
  if (outcome.status === 'approval_pending') return { status: 'error', error: approvalPending(node.id, pin.tool_id, outcome.approval_id) }
  const output = outcome.result.structured as JsonValue
  return outcome.result_view === undefined ? { status: 'ok', output } : { status: 'ok', output, result_view: outcome.result_view }
}

async function runAction(node: LoopNode, params: { [key: string]: JsonValue }, actions: Readonly<Record<string, LoopAction>>, scope: CallScope | undefined): Promise<NodeRun> {
  // Lint (run with the action kinds) has refused any node whose kind is neither a tool nor an action.
  const action = actions[node.kind]!
  let output: unknown
  try {
    output = await action(params, { node_id: node.id, kind: node.kind, scope })
  } catch (error) {
    return { status: 'error', error: actionFailed(node.id, node.kind, error) }
  }
  try {
    return { status: 'ok', output: JSON.parse(canonicalJson(output)) as JsonValue }
  } catch (error) {
    if (!isJsonValueError(error)) throw error
    return { status: 'error', error: actionOutputInvalid(node.id, node.kind, error) }
  }
}

/**
 * Every tool node (kind in the catalog) has a pin for its tool, every pin names such a node, and a
 * viewed tool node whose params select a literal view pinned that view (a node that selects none
 * runs under whatever view it pinned, e.g. `full` for a translated pre-view pin).
 */
function checkSnapshotMatches(loop: LoopDefinition, snapshot: RunSnapshot, tools: ReadonlyMap<string, ToolDescriptor>): void {
  const problems: LoopProblem[] = []
  const nodes = new Map(loop.graph.nodes.map((node) => [node.id, node]))
  for (const [id, pin] of Object.entries(snapshot.pins)) {
    const node = nodes.get(id)
    const at = appendPointer('/pins', id)
    if (node === undefined) problems.push({ path: at, code: 'unknown_node', message: `the snapshot pins node "${id}", which the definition does not have` })
    else if (node.kind !== pin.tool_id) problems.push({ path: `${at}/tool_id`, code: 'tool_mismatch', message: `the snapshot pins tool "${pin.tool_id}" for node "${id}", whose kind is "${node.kind}"` })
    else {
      const selected = hasResultViewParam(node) ? node.params![RESULT_VIEW_PARAM] : undefined
      const viewed = tools.get(node.kind)?.output_views !== undefined
      if (viewed && (selected === 'compact' || selected === 'full') && selected !== pin.result_view) {
        problems.push({
          path: `${at}/result_view`,
          code: 'view_mismatch',
          message: `the snapshot pins view "${pin.result_view}" for node "${id}", whose params select result_view "${selected}"`,
        })
      }
    }
  }
  for (const node of nodes.values()) {
    if (tools.has(node.kind) && !own(snapshot.pins, node.id)) {
      problems.push({ path: '/pins', code: 'missing_pin', message: `node "${node.id}" calls tool "${node.kind}", but the snapshot has no pin for it` })
    }
  }
  if (problems.length > 0) throw snapshotInvalid(problems)
}

interface CheckedOptions {
  readonly dispatcher: LoopDispatcher
  readonly inputs: Readonly<Record<string, unknown>>
  readonly actions: Readonly<Record<string, LoopAction>>
  readonly scope: CallScope | undefined
}

/** Every key {@link RunLoopOptions} knows. */
const RUN_OPTIONS = optionsTable(['dispatcher', 'inputs', 'actions', 'snapshot', 'supersededDigests', 'scope'])

function checkOptions(options: RunLoopOptions): CheckedOptions {
  const problems: LoopProblem[] = []
  if (typeof options !== 'object' || options === null) throw optionsInvalid([{ path: '', code: 'invalid_options', message: 'options must be an object with a dispatcher' }])
  // Through the options reader: a misspelt `inputs` or `scope` is refused, never run without.
  const read = readOptions(options, RUN_OPTIONS, '', problems) as Partial<RunLoopOptions>
  const { inputs = {}, actions = {}, scope } = read
  const dispatcher = read.dispatcher as LoopDispatcher
  const isFunction = (value: unknown): boolean => typeof value === 'function'
  if (typeof dispatcher !== 'object' || dispatcher === null || !isFunction(dispatcher.invoke) || !isFunction(dispatcher.describe) || !isFunction(dispatcher.list)) {
    problems.push({ path: '/dispatcher', code: 'invalid_dispatcher', message: 'dispatcher must have invoke, describe and list (a createDispatcher result)' })
  }
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
    problems.push({ path: '/inputs', code: 'invalid_inputs', message: 'inputs must be an object' })
  } else {
    try {
      canonicalJson(inputs)
    } catch (error) {
      if (!isJsonValueError(error)) throw error
      problems.push({ path: `/inputs${error.pointer}`, code: 'non_json_value', message: error.message })
    }
  }
  if (typeof actions !== 'object' || actions === null || Array.isArray(actions)) {
    problems.push({ path: '/actions', code: 'invalid_actions', message: 'actions must be an object of functions by node kind' })
  } else {
    for (const kind of Object.keys(actions)) {
      if (!isFunction(actions[kind])) problems.push({ path: appendPointer('/actions', kind), code: 'invalid_action', message: `action "${kind}" must be a function` })
    }
  }
  if (scope !== undefined && (typeof scope !== 'object' || scope === null || Array.isArray(scope))) {
    problems.push({ path: '/scope', code: 'invalid_scope', message: 'scope must be an object' })
  }
  if (problems.length > 0) throw optionsInvalid(problems)
  return { dispatcher, inputs, actions, scope }
}

function own(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key)
}
