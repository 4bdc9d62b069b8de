import { LOOP_NODE_ID_PATTERN, PATH_SEGMENT_PATTERN } from './definition.js'

/**
 * A reference inside a template (`docs/loops.md`): `.inputs.<name>[.<path>]` or
 * `.nodes.<id>.output[.<path>]`. `path` holds the segments after the name / after `output`;
 * all-digit segments index arrays.
 */
export type TemplateReference =
  | { readonly root: 'inputs'; readonly name: string; readonly path: readonly string[] }
  | { readonly root: 'nodes'; readonly node_id: string; readonly path: readonly string[] }

/** A piece of a parsed template string: literal text, or a reference with its source span. */
export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'reference'
      readonly reference: TemplateReference
      /** Offset (UTF-16 code units, 0-based) of the opening `{{`. */
      readonly start: number
      /** Offset just past the closing `}}`. */
      readonly end: number
    }

/** Why a template string is malformed, and where. */
export interface TemplateProblem {
/** What is wrong with the template, in words. */
  readonly message: string
  /**
   * Offset (UTF-16 code units, 0-based) of the `{{` that opens the malformed template; for a
   * `{{` inside a template, of that inner `{{`. `0` when the input is not a string.
   */
  readonly offset: number
}

/** The result of {@link parseTemplate}: never thrown, always one of these. */
export type TemplateParse =
  | { readonly ok: true; readonly parts: readonly TemplatePart[]; readonly references: readonly TemplateReference[] }
  | { readonly ok: false; readonly problem: TemplateProblem }

const OPEN = '{{'
const CLOSE = '}}'
/** Longest expression quoted back in a problem message. */
const MAX_QUOTED = 80

/**
 * Parses a params string into literal text and references. Any number of templates may appear in
 * one string; whitespace inside the braces is ignored (`{{.inputs.x}}`, `{{  .inputs.x  }}`).
 * A `}}` outside a template is literal text. Never throws: a malformed template (unclosed `{{`,
 * `{{` inside a template, an empty template, an expression that is not one reference, more than
 * one reference in one pair of braces, a bad segment) is `{ ok: false, problem }`, and so is a
 * `text` that is not a string (`null`, `undefined`, a number: problem `template must be a
 * string`, offset 0).
 *
 * @example parseTemplate('Tools allowed: {{ .nodes.inspect.output.session.id }}')
 *   // → { ok: true, parts: [{ kind: 'text', text: 'Tools allowed: ' }, { kind: 'reference', … }],
 *   references: [...] }
 */
export function parseTemplate(text: string): TemplateParse {
  if (typeof text !== 'string') return fail(`template must be a string, found ${text === null ? 'null' : typeof text}`, 0)
  const parts: TemplatePart[] = []
  const references: TemplateReference[] = []
  let index = 0
  while (index < text.length) {
    const open = text.indexOf(OPEN, index)
    if (open === -1) break
    if (open > index) parts.push({ kind: 'text', text: text.slice(index, open) })
    const close = text.indexOf(CLOSE, open + OPEN.length)
    if (close === -1) return fail('unclosed "{{" (no matching "}}")', open)
    const inner = text.slice(open + OPEN.length, close)
    const nested = inner.indexOf(OPEN)
    if (nested !== -1) return fail('"{{" inside a template (templates do not nest; close the first with "}}")', open + OPEN.length + nested)
    const parsed = parseExpression(inner.trim())
    if (typeof parsed === 'string') return fail(parsed, open)
    parts.push({ kind: 'reference', reference: parsed, start: open, end: close + CLOSE.length })
    references.push(parsed)
    index = close + CLOSE.length
  }
  if (index < text.length) parts.push({ kind: 'text', text: text.slice(index) })
  return { ok: true, parts, references }
}

/** True when `text` contains `{{`, i.e. when it is (or tries to be) a template. */
export function hasTemplate(text: string): boolean {
  return text.includes(OPEN)
}

/** The reference as text, without the leading dot: `nodes.inspect.output.session.id`, `inputs.session_id`. */
export function formatReference(reference: TemplateReference): string {
  const head = reference.root === 'inputs' ? ['inputs', reference.name] : ['nodes', reference.node_id, 'output']
  return [...head, ...reference.path].join('.')
}

function fail(message: string, offset: number): TemplateParse {
  return { ok: false, problem: { message, offset } }
}

/** One reference, or a message saying why the expression is not one. */
function parseExpression(expression: string): TemplateReference | string {
  if (expression === '') return 'empty template'
  const quoted = JSON.stringify(expression.length > MAX_QUOTED ? expression.slice(0, MAX_QUOTED) + '…' : expression)
  const expected = `expected one reference such as ".inputs.<name>" or ".nodes.<id>.output.<path>", found ${quoted}`
  if (!expression.startsWith('.')) return expected
  if (expression.split(/\s+/).filter((word) => word.startsWith('.')).length > 1) return `expected one reference per "{{ }}", found ${quoted}; write each reference in its own "{{ }}"`
  const segments = expression.slice(1).split('.')
  for (const segment of segments) {
    if (segment === '') return `empty path segment in ${quoted}`
    if (!PATH_SEGMENT_PATTERN.test(segment)) return `invalid path segment ${JSON.stringify(segment.slice(0, MAX_QUOTED))} in ${quoted}`
  }
  const [root, name, third, ...rest] = segments as [string, ...string[]]
  if (root === 'inputs') {
    if (name === undefined) return `".inputs" needs an input name, found ${quoted}`
    return { root: 'inputs', name, path: third === undefined ? [] : [third, ...rest] }
  }
  if (root === 'nodes') {
    if (name === undefined || third !== 'output') return `expected ".nodes.<id>.output", found ${quoted}`
    if (!LOOP_NODE_ID_PATTERN.test(name)) return `invalid node id ${JSON.stringify(name)} in ${quoted}`
    return { root: 'nodes', node_id: name, path: rest }
  }
  return expected
}
