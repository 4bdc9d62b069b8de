import { appendPointer } from '../json/pointer.js'
import { setOwn } from '../json/clone.js'
import { isRecord } from '../json/guards.js'

/** `value` as short text for messages: JSON cut to `maxChars` characters, or `String(value)`. */
export function formatValue(value: unknown, maxChars = 200): string {
  let text: string
  try {
    text = value === undefined ? 'undefined' : JSON.stringify(value) ?? String(value)
  } catch {
    text = Object.prototype.toString.call(value)
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text
}

function hasOwn(target: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(target, key)
}

/** A deep copy of a JSON-like record (own enumerable keys; `__proto__` stays an own key). */
export function snapshotRecord(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snapshotRecord)
  if (isRecord(value)) {
    const copy: Record<string, unknown> = {}
    for (const key of Object.keys(value)) setOwn(copy, key, snapshotRecord(value[key]))
    return copy
  }
  return value
}

/** Where two JSON-like values first differ. */
export interface RecordDifference {
  readonly pointer: string
  readonly before: unknown
  readonly after: unknown
}

/** The first place (depth first, in key order) where `before` and `after` differ, or `undefined`. */
export function firstDifference(before: unknown, after: unknown, pointer = ''): RecordDifference | undefined {
  if (Object.is(before, after)) return undefined
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let index = 0; index < Math.max(before.length, after.length); index++) {
      const at = appendPointer(pointer, index)
      if (index >= before.length || index >= after.length) return { pointer: at, before: before[index], after: after[index] }
      const difference = firstDifference(before[index], after[index], at)
      if (difference !== undefined) return difference
    }
    return undefined
  }
  if (isRecord(before) && isRecord(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const at = appendPointer(pointer, key)
      if (!hasOwn(before, key) || !hasOwn(after, key)) {
        return { pointer: at, before: hasOwn(before, key) ? before[key] : undefined, after: hasOwn(after, key) ? after[key] : undefined }
      }
      const difference = firstDifference(before[key], after[key], at)
      if (difference !== undefined) return difference
    }
    return undefined
  }
  return { pointer, before, after }
}

/** A compact value that has no equal counterpart in the full record. */
export interface SubsetViolation {
  readonly pointer: string
  readonly value: unknown
  readonly detail: string
}

/**
 * The first compact value (depth first, in key order) that is not in `full` at the same JSON
 * Pointer with an equal value, or `undefined`. Objects and arrays in the compact record may
 * hold fewer members than their full counterparts; scalars must be equal (`===`). Iterative.
 */
export function findSubsetViolation(compact: unknown, full: unknown): SubsetViolation | undefined {
  const stack: Array<[unknown, unknown, string]> = [[compact, full, '']]
  while (stack.length > 0) {
    const [left, right, pointer] = stack.pop()!
    if (Array.isArray(left)) {
      if (!Array.isArray(right)) {
        return { pointer, value: left, detail: `the compact record has an array here, the full record has ${formatValue(right)}` }
      }
      for (let index = left.length - 1; index >= 0; index--) {
        if (index >= right.length) {
          return { pointer: appendPointer(pointer, index), value: left[index], detail: `the full record's array has only ${right.length} items` }
        }
        stack.push([left[index], right[index], appendPointer(pointer, index)])
      }
    } else if (isRecord(left)) {
      if (!isRecord(right)) {
        return { pointer, value: left, detail: `the compact record has an object here, the full record has ${formatValue(right)}` }
      }
      const keys = Object.keys(left)
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!
        if (!hasOwn(right, key)) {
          return { pointer: appendPointer(pointer, key), value: left[key], detail: 'the compact record has this field, the full record has none here' }
        }
        stack.push([left[key], right[key], appendPointer(pointer, key)])
      }
    } else if (!(left === right || Object.is(left, right))) {
      return { pointer, value: left, detail: `the full record has ${formatValue(right)} here` }
    }
  }
  return undefined
}
