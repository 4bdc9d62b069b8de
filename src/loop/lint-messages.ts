import type { View } from 'result-views'
import type { OpenReason } from './schema-path.js'

/**
 * Who reads what, as messages start: `node "report" reads nodes.inspect.output.session.id` or
 * `node "inspect" produces session.id`.
 */
export type Subject = string

/** The view whose schema answered, or `undefined` for a single-result tool's one schema. */
export type Answered = View | undefined

const OPEN_REASONS: Record<OpenReason, string> = {
  additional_properties: 'an object that allows fields it does not list',
  pattern_properties: 'a field matched by patternProperties, not listed',
  object_without_properties: 'an object with no listed fields',
  additional_items: 'an index past the listed items of a tuple',
  empty_schema: 'a schema that accepts any value',
  unresolved_ref: 'a $ref that cannot be followed',
}

/** `result_view_not_literal`, in the spec's exact words (`docs/loops.md` "`result_view_not_literal`"). */
export function notLiteral(nodeId: string): string {
  return `node "${nodeId}" params.result_view must be a literal "compact" or "full"`
}

/** `result_view_field_requires_full`, in the spec's exact words (`docs/loops.md` "`result_view_field_requires_full`"). */
export function requiresFull(subject: Subject, toolId: string, sourceNode: string): string {
  return `${subject}, which the compact result of ${toolId} does not include; fix: add \`result_view: full\` to the params of node "${sourceNode}"`
}

/** `result_view_not_accepted`, in the words of the selector's single-result error (`docs/views.md` "The selector"). */
export function notAccepted(nodeId: string, toolId: string): string {
  return `node "${nodeId}" params.result_view is not accepted: tool "${toolId}" returns a single result and does not accept "result_view"`
}

/** `unresolvable_path`: the deepest valid segment and what is there. */
export function unresolvable(subject: Subject, toolId: string, view: Answered, deepest: readonly string[], available: readonly string[], acceptsIndex: boolean): string {
  const where = ['output', ...deepest].join('.')
  const owner = view === undefined ? `which the result of ${toolId} does not include` : `which neither view of ${toolId} includes`
  const result = view === undefined ? 'the result' : `the ${view} result`
  return `${subject}, ${owner}; deepest valid segment: ${where}, where ${result} has ${contents(available, acceptsIndex)}`
}

/** `unresolvable_path` for a non-tool node's output: not among its `produces`. */
export function notProduced(subject: Subject, sourceNode: string, produces: readonly string[]): string {
  return `${subject}, which node "${sourceNode}" does not declare in produces (declared: ${produces.join(', ') || 'none'})`
}

/** `path_unproven`: where the path leaves what the schema lists. */
export function unproven(subject: Subject, toolId: string, view: Answered, openParent: readonly string[], reason: OpenReason): string {
  const result = view === undefined ? 'the result' : `the ${view} result`
  const where = ['output', ...openParent].join('.')
  return `${subject}, which goes through an open part of ${result} of ${toolId} at ${where} (${OPEN_REASONS[reason]}); the path cannot be proven, and a missing field resolves to an empty value at run time`
}

/** `output_unchecked`: a non-tool node without `produces`. */
export function unchecked(subject: Subject, sourceNode: string, kind: string): string {
  return `${subject}, but node "${sourceNode}" (kind "${kind}") is not a catalog tool and declares no produces; the path cannot be checked`
}

function contents(available: readonly string[], acceptsIndex: boolean): string {
  if (available.length > 0) return `fields ${available.join(', ')}${acceptsIndex ? ' or a numeric index' : ''}`
  return acceptsIndex ? 'an array (read it with a numeric index)' : 'no fields'
}
