import { assertPlainJson, type JsonValue, type PlainJsonOptions } from './canonical.js'
import { cloneJson, setOwn } from './clone.js'
import { deepFreeze } from './freeze.js'
import { NOT_PLAIN, plainContainer, plainLeaf } from './guards.js'
import { JsonValueError } from './json-value-error.js'

/**
 * A private deep copy of a plain JSON value. Later changes to the original never reach the copy
 * (no check-then-use gap between validation, approval and the handler).
 *
 * The common case is one walk that checks each value as it copies it: every property is read
 * once, so a getter or Proxy that would answer differently on a second read has nothing to
 * smuggle past the check. Anything that walk does not accept (a bad value, a throwing read, a
 * cycle, nesting past its depth) is checked precisely (`assertPlainJson`, naming the pointer),
 * then copied and the copy checked again.
 *
 * @param options - `wellFormedStrings: false` copies strings and keys holding lone surrogates;
 *   `undefinedAsAbsent: true` leaves out object members whose value is `undefined`.
 * @throws JsonValueError (`code: 'non_json_value'`) naming the pointer of the first bad value;
 *   problem `unreadable` when the value changed or could not be read while it was copied.
 */
export function ownJsonCopy(value: unknown, options?: PlainJsonOptions): JsonValue {
  return copyOf(value, false, options)
}

/**
 * {@link ownJsonCopy}, deep-frozen as it is copied (for values kept for good, such as a tool's
 * schemas).
 *
 * @throws JsonValueError as {@link ownJsonCopy} does.
 */
export function frozenJsonCopy(value: unknown): JsonValue {
  return copyOf(value, true)
}

function copyOf(value: unknown, freeze: boolean, options?: PlainJsonOptions): JsonValue {
  const strings = options?.wellFormedStrings !== false
  const absent = options?.undefinedAsAbsent === true
  const copy = copyPlainGuarded(value, freeze, strings, absent)
  if (copy !== NOT_PLAIN) return copy as JsonValue
  assertPlainJson(value, options)
  let slow: unknown
  try {
    slow = cloneJson(value)
    assertPlainJson(slow, options)
    if (absent) dropUndefinedMembers(slow)
  } catch {
    throw new JsonValueError('unreadable', '', 'the value changed or could not be read while it was copied')
  }
  return (freeze ? deepFreeze(slow) : slow) as JsonValue
}

/** Deepest nesting the one-walk copy follows before it hands over to the precise path. */
const FAST_DEPTH = 512

function copyPlainGuarded(value: unknown, freeze: boolean, strings: boolean, absent: boolean): unknown {
  try {
    return copyPlain(value, 0, freeze, strings, absent)
  } catch {
    return NOT_PLAIN
  }
}

function copyPlain(value: unknown, depth: number, freeze: boolean, strings: boolean, absent: boolean): unknown {
  if (typeof value !== 'object') return plainLeaf(value, strings)
  if (value === null) return null
  if (depth >= FAST_DEPTH) return NOT_PLAIN
  const kind = plainContainer(value)
  if (kind === undefined) return NOT_PLAIN
  if (kind === 'array') {
    const array = value as unknown[]
    const items: unknown[] = []
    for (let i = 0; i < array.length; i++) {
      if (!(i in array)) return NOT_PLAIN
      const item = copyPlain(array[i], depth + 1, freeze, strings, absent)
      if (item === NOT_PLAIN) return NOT_PLAIN
      items.push(item)
    }
    return freeze ? Object.freeze(items) : items
  }
  const out: Record<string, unknown> = {}
  const keys = Object.keys(value)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (strings && !(key as string & { isWellFormed(): boolean }).isWellFormed()) return NOT_PLAIN
    const read = (value as Record<string, unknown>)[key]
    if (read === undefined && absent) continue
    const member = copyPlain(read, depth + 1, freeze, strings, absent)
    if (member === NOT_PLAIN) return NOT_PLAIN
    setOwn(out, key, member)
  }
  return freeze ? Object.freeze(out) : out
}

/** Deletes, in place, every object member of a copy whose value is `undefined` (iteratively: copies may be deep). */
function dropUndefinedMembers(root: unknown): void {
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== 'object' || node === null) continue
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item)
      continue
    }
    for (const key of Object.keys(node)) {
      const member = (node as Record<string, unknown>)[key]
      if (member === undefined) delete (node as Record<string, unknown>)[key]
      else stack.push(member)
    }
  }
}
