import type { JsonValue } from './canonical.js'
import { NOT_PLAIN, plainContainer, plainLeaf } from './guards.js'

/**
 * Frozen copies one caller makes of several values that may hold the same objects (a tool's
 * input, compact and full schemas built from the same TypeBox parts): source object → its frozen
 * copy. Only copies of context-free subtrees are kept (see {@link sharedFrozenCopy}). Made for
 * one group of copies and then dropped, never kept across calls: a source may change between
 * calls, and a copy must be of what the source held when it was read.
 */
export type SharedCopies = Map<object, object>

/**
 * Keys that make a subschema's meaning depend on where it sits (a reference resolved against
 * the enclosing resource, a new resource or anchor): a subtree holding one anywhere (as a keyword
 * or as a property name: conservative) is copied afresh wherever it occurs, never shared.
 */
const CONTEXT_KEYS: ReadonlySet<string> = new Set(['$ref', '$id', '$anchor', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor'])

/** Deepest nesting the walk follows before it hands the value to the precise path. */
const FAST_DEPTH = 512

/**
 * Whether the last subtree {@link copy} finished holds a context key: set by each object and
 * array as it finishes, read by its parent right after the child returns.
 */
let contextual = false

/**
 * A deep-frozen plain JSON copy of `value`, reading every property once, that reuses the copy
 * `shared` already holds of a source object met before (in this value or in an earlier one of
 * the group), and adds the copies it makes. A reused copy is of the same source object read
 * earlier in the same group: the group is one snapshot. Subtrees holding a `$ref`, `$id` or
 * anchor key are never shared, so a shared subtree means the same wherever it sits. Strings must
 * be well-formed; an object may not hold a `__proto__` key.
 *
 * @returns the copy, or `undefined` for anything this walk does not accept (not plain JSON, a
 *   read that throws, a `__proto__` key, a cycle or nesting past 512 levels): the caller then
 *   runs the precise copy for the typed error and its pointer. Nothing is added to `shared` then
 *   that is not a complete, checked copy of its source.
 */
export function sharedFrozenCopy(value: unknown, shared: SharedCopies): JsonValue | undefined {
  try {
    const result = copy(value, 0, shared)
    return result === NOT_PLAIN ? undefined : (result as JsonValue)
  } catch {
    return undefined
  }
}

function copy(value: unknown, depth: number, shared: SharedCopies): unknown {
  if (typeof value !== 'object') return plainLeaf(value, true)
  if (value === null) return null
  const known = shared.get(value)
  if (known !== undefined) {
    contextual = false
    return known
  }
  if (depth >= FAST_DEPTH) return NOT_PLAIN
  const kind = plainContainer(value)
  if (kind === undefined) return NOT_PLAIN
  let context = false
  let out: object
  if (kind === 'array') {
    const array = value as unknown[]
    const items: unknown[] = []
    for (let i = 0; i < array.length; i++) {
      if (!(i in array)) return NOT_PLAIN
      const item = copy(array[i], depth + 1, shared)
      if (item === NOT_PLAIN) return NOT_PLAIN
      if (typeof item === 'object' && item !== null && contextual) context = true
      items.push(item)
    }
    out = Object.freeze(items)
  } else {
    const members: Record<string, unknown> = {}
    const keys = Object.keys(value)
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!
      // `__proto__` is refused by the caller with its pointer; assigning it would set the prototype.
      if (key === '__proto__' || !(key as string & { isWellFormed(): boolean }).isWellFormed()) return NOT_PLAIN
      if (CONTEXT_KEYS.has(key)) context = true
      const member = copy((value as Record<string, unknown>)[key], depth + 1, shared)
      if (member === NOT_PLAIN) return NOT_PLAIN
      if (typeof member === 'object' && member !== null && contextual) context = true
      members[key] = member
    }
    out = Object.freeze(members)
  }
  if (!context) shared.set(value, out)
  contextual = context
  return out
}
