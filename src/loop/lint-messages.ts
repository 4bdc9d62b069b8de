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

/**
 * `result_view_field_requires_full`, in the spec's exact words (`docs/loops.md`
 * "`result_view_field_requires_full`"). For a field neither view lists (the full view is open
 * there), the nearest listed field follows, if one is near: one the compact result has
 * (`compactHas`) is offered as the other fix.
 */
export function requiresFull(subject: Subject, toolId: string, sourceNode: string, suggestion?: readonly string[], compactHas = false): string {
  const text = `${subject}, which the compact result of ${toolId} does not include; fix: ${addFull(sourceNode)}`
  if (suggestion === undefined) return text
  return compactHas ? `${text}; or did you mean ${outputPath(suggestion)}, which the compact result has?` : `${text}; did you mean ${outputPath(suggestion)}?`
}

/** `result_view_not_accepted`, in the words of the selector's single-result error (`docs/views.md` "The selector"). */
export function notAccepted(nodeId: string, toolId: string): string {
  return `node "${nodeId}" params.result_view is not accepted: tool "${toolId}" returns a single result and does not accept "result_view"`
}

/** What an `unresolvable_path` message says. */
export interface Unresolvable {
  readonly subject: Subject
  readonly toolId: string
  readonly view: Answered
  /** The segments that resolved (the deepest valid segment is the last). */
  readonly deepest: readonly string[]
  /** The fields the answering view lists there, sorted. */
  readonly available: readonly string[]
  readonly acceptsIndex: boolean
  /** Set (to the source node) when the deepest valid segment exists only in the full view while compact is selected. */
  readonly fullOnlyFrom?: string
  /** The nearest listed field, as an output path; `fullOnlyFrom` names the source node when only the full view lists it. */
  readonly suggestion?: { readonly path: readonly string[]; readonly fullOnlyFrom?: string }
}

/**
 * `unresolvable_path`: the deepest valid segment and what is there; whether only the full view
 * reaches that far; the nearest listed field name.
 */
export function unresolvable(found: Unresolvable): string {
  const { subject, toolId, view, suggestion } = found
  const where = outputPath(found.deepest)
  const owner = view === undefined ? `which the result of ${toolId} does not include` : `which neither view of ${toolId} includes`
  const result = view === undefined ? 'the result' : `the ${view} result`
  const fullOnly = found.fullOnlyFrom === undefined ? '' : `, which only the full result has (${addFull(found.fullOnlyFrom)} to read it)`
  let text = `${subject}, ${owner}; deepest valid segment: ${where}${fullOnly}, where ${result} has ${contents(found.available, found.acceptsIndex)}`
  if (suggestion !== undefined) {
    const note = suggestion.fullOnlyFrom === undefined ? '' : ` (only the full result has it: ${addFull(suggestion.fullOnlyFrom)})`
    text += `; did you mean ${outputPath(suggestion.path)}${note}?`
  }
  return text
}

/** `unresolvable_path` for a non-tool node's output: not among its `produces`. */
export function notProduced(subject: Subject, sourceNode: string, produces: readonly string[]): string {
  return `${subject}, which node "${sourceNode}" does not declare in produces (declared: ${produces.join(', ') || 'none'})`
}

/** `path_unproven`: where the path leaves what the schema lists, and the nearest listed field. */
export function unproven(subject: Subject, toolId: string, view: Answered, openParent: readonly string[], reason: OpenReason, suggestion?: readonly string[]): string {
  const result = view === undefined ? 'the result' : `the ${view} result`
  const where = outputPath(openParent)
  const text = `${subject}, which goes through an open part of ${result} of ${toolId} at ${where} (${OPEN_REASONS[reason]}); the path cannot be proven, and a missing field resolves to an empty value at run time`
  return suggestion === undefined ? text : `${text}; did you mean ${outputPath(suggestion)}?`
}

/** `output_unchecked`: a non-tool node without `produces`. */
export function unchecked(subject: Subject, sourceNode: string, kind: string): string {
  return `${subject}, but node "${sourceNode}" (kind "${kind}") is not a catalog tool and declares no produces; the path cannot be checked`
}

/** `output.session.id` for segments `['session', 'id']`. */
function outputPath(segments: readonly string[]): string {
  return ['output', ...segments].join('.')
}

/** The fix the spec's `result_view_field_requires_full` message names. */
function addFull(sourceNode: string): string {
  return `add \`result_view: full\` to the params of node "${sourceNode}"`
}

function contents(available: readonly string[], acceptsIndex: boolean): string {
  if (available.length > 0) return `fields ${available.join(', ')}${acceptsIndex ? ' or a numeric index' : ''}`
  return acceptsIndex ? 'an array (read it with a numeric index)' : 'no fields'
}
