import type { SourcePosition } from './yaml-source.js'

/**
 * Every diagnostic `lintLoop` reports, with its severity. An `error` stops the Loop before it
 * starts (`startRun` / `runLoop` throw `loop_lint_failed`); a `warning` does not.
 * Each code is documented in `docs/loops.md` (when it fires, its message, an example); a test keeps
 * the two in sync.
 */
export const LoopDiagnosticCodes = {
  /** A tool node's `params.result_view` is not the literal `compact` or `full`. */
  result_view_not_literal: 'error',
  /** `params.result_view` on a node whose tool returns a single result (`docs/views.md` "The selector"). */
  result_view_not_accepted: 'error',
  /** A reference or `produces` entry names a field only the full view has. */
  result_view_field_requires_full: 'error',
  /** A reference or `produces` entry names a field neither view has. */
  unresolvable_path: 'error',
  /** A path goes through an open part of the schema (the path "cannot be proven"). */
  path_unproven: 'warning',
  /** A reference reads a non-tool node that declares no `produces`: nothing to check it against. */
  output_unchecked: 'warning',
  /** A reference or an edge names a node the graph does not have. */
  unknown_node: 'error',
  /** A reference reads a node that is not upstream of the reader through edges. */
  reference_not_upstream: 'error',
  /** The edges form a cycle. */
  graph_cycle: 'error',
  /** Two nodes share an ID. */
  duplicate_node_id: 'error',
  /** A params string holds a malformed template. */
  template_malformed: 'error',
  /** A node's kind is neither a catalog tool nor a host action (checked only when actions are given). */
  unknown_kind: 'error',
} as const satisfies Record<string, DiagnosticSeverity>

/** How bad a diagnostic is: an `error` blocks the run, a `warning` does not. */
export type DiagnosticSeverity = 'error' | 'warning'

/** Every diagnostic code (`keyof typeof LoopDiagnosticCodes`). */
export type LoopDiagnosticCode = keyof typeof LoopDiagnosticCodes

/** One finding of `lintLoop`. */
export interface LoopDiagnostic {
  /** The node whose definition `path` points into, or `null` for a finding about an edge. */
  readonly node_id: string | null
/** Which rule the finding is about (`LoopDiagnosticCodes`, `docs/loops.md` "Diagnostics"). */
  readonly code: LoopDiagnosticCode
/** `error` stops the Loop before it starts; `warning` does not. */
  readonly severity: DiagnosticSeverity
  /**
   * Human-readable. Starts with the spec's exact text for `result_view_not_literal` and
   * `result_view_field_requires_full`; may end with a suggestion (`did you mean output.<path>?`).
   */
  readonly message: string
  /** JSON Pointer (RFC 6901) into the definition, e.g. `/graph/nodes/1/params/prompt`. */
  readonly path: string
  /**
   * For a definition parsed from YAML (`parseLoopYaml`): the 1-based line of what the diagnostic
   * refers to, the `{{` of its template or the value at `path` (`docs/loops.md` "Positions").
   * Absent for a definition given as an object.
   */
  readonly line?: number
  /** With `line`: the 1-based column, in UTF-16 code units. */
  readonly column?: number
}

/** Builds a diagnostic with the severity the registry gives its code, and its YAML position when known. */
export function diagnostic(code: LoopDiagnosticCode, nodeId: string | null, path: string, message: string, position?: SourcePosition): LoopDiagnostic {
  const found: LoopDiagnostic = { node_id: nodeId, code, severity: LoopDiagnosticCodes[code], message, path }
  return position === undefined ? found : { ...found, line: position.line, column: position.column }
}
