import type { View } from 'result-views'
import { escapePointerToken } from '../json/pointer.js'
import { contractDigest, indexCatalog, type LoopCatalog } from './catalog.js'
import type { LoopDefinition } from './definition.js'
import type { LoopDiagnostic } from './diagnostics.js'
import { lintFailed, snapshotInvalid, type LoopProblem } from './errors.js'
import { lintLoop, type LintOptions } from './lint.js'
import { parseLoopDefinition } from './parse.js'
import { roleOf } from './selection.js'
import { setOwn } from '../json/clone.js'
import { isRecord } from '../json/guards.js'

/** The snapshot format {@link startRun} writes. Version 1 (or none) is a host's pre-view format. */
export const RUN_SNAPSHOT_VERSION = 2

/**
 * The contract one tool node pinned when its run started (`docs/loops.md` "Pinning and migration":
 * a run pins the contract of the view each node selected): the tool, the view, and that view's
 * schema digest (64 lowercase hex characters). A single-result tool's pin says `full`: its one
 * schema is the full record, exactly as a pre-view pin translated by {@link migrateRunSnapshot}.
 */
export interface RunPin {
/** The tool the node calls. */
  readonly tool_id: string
/** The view the node selected (`full` for a single-result tool). */
  readonly result_view: View
/** That view's schema digest when the run started (64 lowercase hex). */
  readonly schema_digest: string
}

/** What a run pinned, per tool node ID. Plain JSON: store it and pass it back to `runLoop` to resume. */
export interface RunSnapshot {
/** The snapshot format version. */
  readonly version: typeof RUN_SNAPSHOT_VERSION
/** The pin of each tool node, by node ID. */
  readonly pins: Readonly<Record<string, RunPin>>
}

/** Options of {@link migrateRunSnapshot}. */
export interface MigrateOptions {
  /**
   * The superseded schema digest table (`docs/loops.md` "Pinning and migration"): a pre-view pin's
   * digest → the digest of the full view that replaced that schema. Applied to translated pins
   * only.
   */
  readonly supersededDigests?: Readonly<Record<string, string>>
}

/**
 * Starts a run: lints the Loop and pins, for every tool node, the tool, its selected view
 * (`compact` when the params select none) and that view's schema digest.
 *
 * @param definition - the Loop (checked with `parseLoopDefinition` first).
 * @param catalog - tools or descriptors; a node whose kind is not in it is a host action and is not
 *   pinned.
 * @param options - lint options (`actions`).
 * @returns a frozen plain-JSON snapshot `{ version: 2, pins }`.
 * @throws LoopError `loop_lint_failed` (lint reported errors, all diagnostics attached),
 *   `loop_definition_invalid`, `loop_options_invalid`.
 */
export function startRun(definition: LoopDefinition, catalog: LoopCatalog, options: Pick<LintOptions, 'actions'> = {}): RunSnapshot {
  return startRunWithDiagnostics(definition, catalog, options).snapshot
}

/** {@link startRun}, also returning lint's warnings. */
export function startRunWithDiagnostics(
  definition: LoopDefinition,
  catalog: LoopCatalog,
  options: Pick<LintOptions, 'actions'>,
): { readonly snapshot: RunSnapshot; readonly diagnostics: readonly LoopDiagnostic[] } {
  const loop = parseLoopDefinition(definition)
  const diagnostics = lintLoop(loop, catalog, options)
  if (diagnostics.some((d) => d.severity === 'error')) throw lintFailed(diagnostics)
  const tools = indexCatalog(catalog)
  const pins: Record<string, RunPin> = {}
  for (const node of loop.graph.nodes) {
    const role = roleOf(node, tools)
    if (role.role === 'other') continue
    const view: View = role.role === 'viewed' ? role.view! : 'full'
    setOwn(pins, node.id, { tool_id: node.kind, result_view: view, schema_digest: contractDigest(role.tool.descriptor, view) })
  }
  return { snapshot: freeze({ version: RUN_SNAPSHOT_VERSION, pins }), diagnostics }
}

/**
 * Reads a stored snapshot and translates pre-view pins (no `result_view` recorded) to `full`
 * (`docs/loops.md` "Pinning and migration"): such a run keeps the
 * contract it pinned and its nodes return the full record. A translated pin's digest goes through
 * `supersededDigests` when the table lists it.
 *
 * Every `schema_digest`, and every key and value of `supersededDigests`, must be 64 lowercase hex
 * characters. A version-2 snapshot records `result_view` on every pin: a version-2 pin without it
 * is refused (only version 1, or no version, is the pre-view format that translates to `full`).
 *
 * @param snapshot - `{ version?: 1 | 2, pins: { [node_id]: { tool_id, result_view?, schema_digest }
 *   } }`.
 * @returns a frozen version-2 snapshot.
 * @throws LoopError `loop_snapshot_invalid` listing every problem (JSON Pointers into `snapshot`;
 *   a bad `supersededDigests` entry is at `/supersededDigests/<key>`).
 */
export function migrateRunSnapshot(snapshot: unknown, options: MigrateOptions = {}): RunSnapshot {
  const problems: LoopProblem[] = []
  if (!isRecord(snapshot)) throw snapshotInvalid([{ path: '', code: 'invalid_snapshot', message: 'a run snapshot must be an object with "pins"' }])
  if (snapshot.version !== undefined && snapshot.version !== 1 && snapshot.version !== RUN_SNAPSHOT_VERSION) {
    problems.push({ path: '/version', code: 'unknown_version', message: `unknown snapshot version ${JSON.stringify(snapshot.version)} (expected 1 or ${RUN_SNAPSHOT_VERSION})` })
  }
  if (!isRecord(snapshot.pins)) throw snapshotInvalid([...problems, { path: '/pins', code: 'invalid_pins', message: 'pins must be an object keyed by node id' }])
  const superseded = options.supersededDigests ?? {}
  if (!isRecord(superseded)) problems.push({ path: '/supersededDigests', code: 'invalid_superseded_digests', message: 'supersededDigests must be an object of digest → digest' })
  else {
    for (const [from, to] of Object.entries(superseded)) {
      if (!isDigest(from) || !isDigest(to)) {
        problems.push({ path: `/supersededDigests/${escapePointerToken(from)}`, code: 'invalid_superseded_digests', message: 'a superseded digest mapping must map 64 lowercase hex characters to 64 lowercase hex characters' })
      }
    }
  }
  const versioned = snapshot.version === RUN_SNAPSHOT_VERSION
  const pins: Record<string, RunPin> = {}
  for (const nodeId of Object.keys(snapshot.pins)) {
    const at = `/pins/${escapePointerToken(nodeId)}`
    const pin = snapshot.pins[nodeId]
    if (!isRecord(pin)) {
      problems.push({ path: at, code: 'invalid_pin', message: 'a pin must be an object with tool_id and schema_digest' })
      continue
    }
    const bad = (key: string, message: string): void => void problems.push({ path: `${at}/${key}`, code: 'invalid_pin', message })
    if (typeof pin.tool_id !== 'string' || pin.tool_id === '') bad('tool_id', 'tool_id must be a non-empty string')
    if (!isDigest(pin.schema_digest)) bad('schema_digest', 'schema_digest must be 64 lowercase hex characters')
    const recorded = Object.prototype.hasOwnProperty.call(pin, 'result_view')
    if (recorded && pin.result_view !== 'compact' && pin.result_view !== 'full') bad('result_view', 'result_view must be "compact" or "full"')
    if (!recorded && versioned) bad('result_view', `a version ${RUN_SNAPSHOT_VERSION} pin must record result_view ("compact" or "full")`)
    if (typeof pin.tool_id !== 'string' || typeof pin.schema_digest !== 'string' || !isRecord(superseded)) continue
    const digest = !recorded && Object.prototype.hasOwnProperty.call(superseded, pin.schema_digest) ? superseded[pin.schema_digest]! : pin.schema_digest
    setOwn(pins, nodeId, { tool_id: pin.tool_id, result_view: recorded ? (pin.result_view as View) : 'full', schema_digest: digest })
  }
  if (problems.length > 0) throw snapshotInvalid(problems)
  return freeze({ version: RUN_SNAPSHOT_VERSION, pins })
}

const DIGEST = /^[0-9a-f]{64}$/

function isDigest(value: unknown): value is string {
  return typeof value === 'string' && DIGEST.test(value)
}

function freeze(snapshot: RunSnapshot): RunSnapshot {
  for (const pin of Object.values(snapshot.pins)) Object.freeze(pin)
  Object.freeze(snapshot.pins)
  return Object.freeze(snapshot)
}
