import { appendPointer } from '../json/pointer.js'

/** A regular expression of a schema that the comparison refuses to run, and where it is. */
export interface UnsafePattern {
  /** JSON Pointer to the `pattern` value or the `patternProperties` entry. */
  readonly pointer: string
  /** The regular expression's source. */
  readonly source: string
}

/**
 * Every `pattern` and `patternProperties` source in `schema` that could backtrack exponentially
 * (see {@link mayBacktrackExponentially}), in document order. Walks with an explicit stack (any
 * depth) and visits each object once (a cycle of JavaScript objects ends the walk there); a
 * value that cannot be read is left to the proof, which refuses it as not plain JSON. Reads
 * every object key named `pattern` or `patternProperties`, also inside `enum` or `const` values:
 * a superset, so the comparison never runs one of these.
 */
export function findUnsafePatterns(schema: unknown): UnsafePattern[] {
  const found: UnsafePattern[] = []
  const seen = new Set<object>()
  const stack: { value: unknown; pointer: string }[] = [{ value: schema, pointer: '' }]
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!
    if (typeof value !== 'object' || value === null || seen.has(value)) continue
    seen.add(value)
    const keys = Object.keys(value)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!
      const child = (value as Record<string, unknown>)[key]
      const at = appendPointer(pointer, key)
      if (key === 'pattern' && typeof child === 'string' && mayBacktrackExponentially(child)) found.push({ pointer: at, source: child })
      if (key === 'patternProperties' && typeof child === 'object' && child !== null && !Array.isArray(child)) {
        for (const source of Object.keys(child)) {
          if (mayBacktrackExponentially(source)) found.push({ pointer: appendPointer(at, source), source })
        }
      }
      stack.push({ value: child, pointer: at })
    }
  }
  return found.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0))
}

/**
 * Whether a regular expression (JavaScript syntax, as ajv compiles a JSON Schema `pattern`) may
 * take exponential time on some string, judged from its source without running it. Conservative:
 * true for a group repeated more than once (`*`, `+`, `{n,}`, `{n,m}` with `m > 1`) whose body
 * holds a quantifier or an alternative (`(a*)*`, `(a|a)+`, `(?:\d+,?){2,}`: the ways to split
 * a string among the repetitions multiply), and for a backreference (`\1`, `\k<name>`). A
 * pattern that has neither runs in polynomial time on the backtracking engine.
 */
export function mayBacktrackExponentially(source: string): boolean {
  // One frame per open group: whether its body holds a quantifier or an alternative.
  const frames: boolean[] = [false]
  let closedGroupInner: boolean | undefined // the body of the group that just closed, if the last atom is one
  let i = 0
  while (i < source.length) {
    const c = source[i]!
    const lastGroup = closedGroupInner
    closedGroupInner = undefined
    if (c === '\\') {
      const next = source[i + 1] ?? ''
      if (/[1-9]/.test(next) || (next === 'k' && source[i + 2] === '<')) return true
      if ((next === 'u' || next === 'p' || next === 'P') && source[i + 2] === '{') {
        const end = source.indexOf('}', i + 3)
        i = end < 0 ? source.length : end + 1
      } else {
        i += 2
      }
      continue
    }
    if (c === '[') {
      i++
      if (source[i] === ']') i++
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1
      i++
      continue
    }
    if (c === '(') {
      frames.push(false)
      i++
      if (source[i] === '?') {
        // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: no quantifier of the body.
        if (source[i + 1] === '<' && source[i + 2] !== '=' && source[i + 2] !== '!') {
          const end = source.indexOf('>', i)
          i = end < 0 ? source.length : end + 1
        } else {
          i += source[i + 1] === '<' ? 3 : 2
        }
      }
      continue
    }
    if (c === ')') {
      const inner = frames.length > 1 ? frames.pop()! : false
      frames[frames.length - 1] ||= inner
      closedGroupInner = inner
      i++
      continue
    }
    if (c === '|') {
      frames[frames.length - 1] = true
      i++
      continue
    }
    const quantifier = readQuantifier(source, i)
    if (quantifier !== undefined) {
      if (lastGroup === true && quantifier.max > 1) return true
      frames[frames.length - 1] = true
      i = quantifier.end
      if (source[i] === '?') i++ // lazy
      continue
    }
    i++
  }
  return false
}

/** The quantifier at `i` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`): its most repetitions and where it ends. */
function readQuantifier(source: string, i: number): { max: number; end: number } | undefined {
  const c = source[i]
  if (c === '*' || c === '+') return { max: Infinity, end: i + 1 }
  if (c === '?') return { max: 1, end: i + 1 }
  if (c !== '{') return undefined
  const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i))
  if (match === null) return undefined
  const max = match[2] === undefined ? Number(match[1]) : match[3] === '' ? Infinity : Number(match[3])
  return { max, end: i + match[0].length }
}
