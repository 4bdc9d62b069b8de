import { quoted } from '../errors/quote.js'
import { defineBrand } from '../errors/brand.js'
import { ToolError, UsageError } from 'result-views'
import type { JsonValueError, UsageProblem, View } from 'result-views'
import type { LoopDiagnostic } from './diagnostics.js'

const brand = defineBrand('result-views.LoopError')

/**
 * Codes of {@link LoopError} (thrown for a Loop that cannot start, never for a node that fails),
 * registered with the other misuse codes (`UsageErrorCodes`, `docs/errors.md` "Misuse errors"):
 * - `loop_definition_invalid`: the definition (object or YAML) does not have the Loop shape;
 *   `problems` lists each with a JSON Pointer (and line/column for YAML).
 * - `loop_lint_failed`: `startRun` / `runLoop` refused to start because lint reported errors;
 *   `problems` holds one per error diagnostic (its path, code and message) and `diagnostics` every
 *   diagnostic (errors and warnings).
 * - `loop_snapshot_invalid`: a run snapshot is malformed or does not match the definition.
 * - `loop_options_invalid`: an argument is malformed (catalog, runner options).
 *
 * Documented in `docs/loops.md`.
 */
export type LoopErrorCode = 'loop_definition_invalid' | 'loop_lint_failed' | 'loop_snapshot_invalid' | 'loop_options_invalid'

/** One problem found in a definition, snapshot or option: a `UsageProblem` with the YAML position where there is one. */
export interface LoopProblem extends UsageProblem {
  /** 1-based line in the YAML text (YAML sources only). */
  readonly line?: number
  /** 1-based column in the YAML text (YAML sources only). */
  readonly column?: number
}

/**
 * Thrown when a Loop cannot be loaded or started: a `UsageError` (root entry) whose `problems`
 * say what is wrong and where, each `{ path, code, message, line?, column? }` with `path` a JSON
 * Pointer (RFC 6901) into the checked value (the definition, the snapshot, the options; `""` is
 * the root). Match on `code` (see {@link LoopErrorCode}) or use {@link isLoopError};
 * `instanceof` breaks across two bundle copies of this library.
 */
export class LoopError extends UsageError {
  /** Always `'LoopError'`. */
  override readonly name = 'LoopError'
  /** Which kind of problem stops the Loop (see {@link LoopErrorCode}). */
  declare readonly code: LoopErrorCode
  /** Every problem found, each with its JSON Pointer and, for YAML, its line and column. */
  declare readonly problems: readonly LoopProblem[]
  /** For `loop_lint_failed`: every diagnostic lint reported (errors and warnings), in lint order; empty otherwise. */
  readonly diagnostics: readonly LoopDiagnostic[]

  constructor(code: LoopErrorCode, summary: string, problems: readonly LoopProblem[], diagnostics: readonly LoopDiagnostic[] = []) {
    const lines =
      code === 'loop_lint_failed'
        ? diagnostics.filter((d) => d.severity === 'error').map((d) => `  - ${d.code}${d.line === undefined ? '' : ` at line ${d.line}, column ${d.column ?? 1}`}: ${d.message}`)
        : problems.map((p) => `  - ${where(p)}: ${p.message}`)
    super({ code, subject: summary, problems, message: lines.length === 0 ? summary : `${summary}:\n${lines.join('\n')}` })
    this.diagnostics = diagnostics
    brand.mark(this)
  }
}

/** True for a {@link LoopError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isLoopError(value: unknown): value is LoopError {
  return brand.has(value)
}

function where(problem: LoopProblem): string {
  const at = problem.path === '' ? '/' : problem.path
  return problem.line === undefined ? at : `line ${problem.line}, column ${problem.column ?? 1} (${at})`
}

/** `loop_definition_invalid` listing `problems`. */
export function definitionInvalid(problems: readonly LoopProblem[]): LoopError {
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`
  return new LoopError('loop_definition_invalid', `loop definition is invalid (${count})`, problems)
}

/** `loop_lint_failed`: lint reported `errors` (out of `diagnostics`); one problem per error diagnostic. */
export function lintFailed(diagnostics: readonly LoopDiagnostic[]): LoopError {
  const errors = diagnostics.filter((d) => d.severity === 'error')
  const problems = errors.map((d) => ({ path: d.path, code: d.code, message: d.message }))
  return new LoopError('loop_lint_failed', `loop cannot start: lint reported ${errors.length} error${errors.length === 1 ? '' : 's'}`, problems, diagnostics)
}

/** `loop_snapshot_invalid` listing `problems`. */
export function snapshotInvalid(problems: readonly LoopProblem[]): LoopError {
  return new LoopError('loop_snapshot_invalid', 'run snapshot is invalid', problems)
}

/** `loop_options_invalid` listing `problems`. */
export function optionsInvalid(problems: readonly LoopProblem[]): LoopError {
  return new LoopError('loop_options_invalid', 'loop options are invalid', problems)
}

/** Longest message of a thrown value quoted in a node error. */
const MAX_QUOTED = 500

/** What a stale-contract check compares: the pin against the dispatcher's current descriptor. */
export interface StaleContract {
  readonly node_id: string
  readonly tool_id: string
  readonly result_view: View
  readonly expected_digest: string
  /** `null` when the dispatcher no longer has the tool. */
  readonly current_digest: string | null
}

/** `loop_contract_stale` (`schema_digest_changed` or `tool_removed`), naming both digests. */
export function contractStale(stale: StaleContract): ToolError {
  const { node_id, tool_id, result_view, expected_digest, current_digest } = stale
  const message =
    current_digest === null
      ? `node "${node_id}" pinned tool "${tool_id}" at schema digest ${expected_digest}, but the dispatcher no longer has that tool`
      : `node "${node_id}" pinned the ${result_view} contract of tool "${tool_id}" at schema digest ${expected_digest}, but the tool now has ${current_digest}`
  return new ToolError({
    code: 'loop_contract_stale',
    reason: current_digest === null ? 'tool_removed' : 'schema_digest_changed',
    message,
    details: { node_id, tool_id, result_view, expected_digest, current_digest },
  })
}

/** `loop_node_failed` / `action_failed`: the host action threw. The thrown value is kept as `cause`. */
export function actionFailed(nodeId: string, kind: string, cause: unknown): ToolError {
  const text = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : 'a non-Error value was thrown'
  const quoted = text.length > MAX_QUOTED ? text.slice(0, MAX_QUOTED) + '…' : text
  const error = new ToolError({
    code: 'loop_node_failed',
    reason: 'action_failed',
    message: `node "${nodeId}" action "${kind}" failed: ${quoted}`,
    details: { node_id: nodeId, kind },
  })
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false })
  return error
}

/** `loop_node_failed` / `action_output_invalid`: the host action returned something that is not plain JSON. */
export function actionOutputInvalid(nodeId: string, kind: string, error: JsonValueError): ToolError {
  return new ToolError({
    code: 'loop_node_failed',
    reason: 'action_output_invalid',
    message:
      error.pointer === '' && error.problem === 'undefined'
        ? `node "${nodeId}" action "${kind}" returned undefined, which is not plain JSON; return null when the action has no output`
        : `node "${nodeId}" action "${kind}" returned a value that is not plain JSON at ${quoted(error.pointer)}`,
    details: { node_id: nodeId, kind, pointer: error.pointer, problem: error.problem },
  })
}

/**
 * `loop_node_failed` / `params_not_json`: the node's params reference a value that is not plain
 * JSON (a tool result may hold strings with lone surrogates; an input may not).
 */
export function paramsNotJson(nodeId: string, error: JsonValueError): ToolError {
  return new ToolError({
    code: 'loop_node_failed',
    reason: 'params_not_json',
    message: `node "${nodeId}" params reference a value that is not plain JSON at ${quoted(error.pointer)} (${error.problem})`,
    details: { node_id: nodeId, pointer: error.pointer, problem: error.problem },
  })
}

/** `loop_node_failed` / `approval_pending`: the node's tool call waits on an approval. */
export function approvalPending(nodeId: string, toolId: string, approvalId: string): ToolError {
  return new ToolError({
    code: 'loop_node_failed',
    reason: 'approval_pending',
    message: `node "${nodeId}" call to tool "${toolId}" waits on approval ${approvalId}`,
    details: { node_id: nodeId, tool_id: toolId, approval_id: approvalId },
  })
}
