import type { JsonValue } from 'result-views'

/**
 * A Loop definition: the shape of the spec's YAML (`docs/loops.md`), `{ graph: { nodes, edges } }`.
 * Keys this library does not read (a loop `name`, node `description`, ...) are kept as they are.
 * Produced by `parseLoopDefinition` / `parseLoopYaml`, which check the shape and return a frozen
 * plain-JSON copy.
 *
 * ```yaml
 * graph:
 *   nodes:
 *     - id: inspect
 *       class: action
 *       kind: compozy__session_status
 *       params:
 *         session_id: "{{ .inputs.session_id }}"
 *         result_view: full
 *   edges:
 *     - from: inspect
 *       to: report
 * ```
 */
export interface LoopDefinition {
/** The nodes and edges. */
  readonly graph: LoopGraph
  /** Keys this library does not read, kept as they are (plain JSON). */
  readonly [key: string]: unknown
}

/** The nodes and the dependency edges of a Loop. */
export interface LoopGraph {
  /** In definition order; IDs are unique (lint reports `duplicate_node_id`). */
  readonly nodes: readonly LoopNode[]
  /** `from` runs before `to`; `to` may read `from`'s output. Absent means no edges. */
  readonly edges?: readonly LoopEdge[]
/** Keys this library does not read, kept as they are (plain JSON). */
  readonly [key: string]: unknown
}

/** One node of a Loop. */
export interface LoopNode {
  /** Matches {@link LOOP_NODE_ID_PATTERN} (letters, digits, `_`, `-`; not starting with a digit or `-`). */
  readonly id: string
  /**
   * The node class: always `action` (required, as in every node of the spec's Loop format). Every
   * node is an action node, and `kind` says what it runs; any other class is refused
   * (`loop_definition_invalid`), never run as an action by mistake.
   */
  readonly class: 'action'
  /** A tool ID (a tool node: called through the dispatcher) or a host action kind such as `run-agent`. */
  readonly kind: string
  /**
   * Parameters: plain JSON whose strings may hold templates (`{{ .inputs.x }}`,
   * `{{ .nodes.<id>.output.<path> }}`). For a tool node they are the tool input; `result_view`
   * selects the node's view and must be the literal `compact` or `full`.
   */
  readonly params?: { readonly [key: string]: JsonValue }
  /**
   * Output fields the node declares it produces: dotted paths relative to its output
   * (`session.id`, `items.0.name`). A tool node's declarations are checked against its selected
   * view; a non-tool node's declarations are what references to its output are checked against.
   */
  readonly produces?: readonly string[]
/** Keys this library does not read (`timeout`, ...), kept as they are (plain JSON). */
  readonly [key: string]: unknown
}

/** A dependency: `from` runs before `to`. */
export interface LoopEdge {
/** The node that runs first. */
  readonly from: string
/** The node that runs after it and may read its output. */
  readonly to: string
/** Keys this library does not read, kept as they are (plain JSON). */
  readonly [key: string]: unknown
}

/** Node IDs: letters, digits, `_` and `-`, starting with a letter or `_` (so templates can name them). */
export const LOOP_NODE_ID_PATTERN: RegExp = /^[A-Za-z_][A-Za-z0-9_-]*$/

/** One segment of a reference or `produces` path: letters, digits, `_` and `-` (digits only = an array index). */
export const PATH_SEGMENT_PATTERN: RegExp = /^[A-Za-z0-9_-]+$/
