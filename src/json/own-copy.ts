import { assertPlainJson, type JsonValue } from './canonical.js'
import { cloneJson } from './clone.js'
import { JsonValueError } from './json-value-error.js'

/**
 * A private deep copy of a plain JSON value: checked (`assertPlainJson`, naming the pointer of a
 * bad value), copied, and the copy checked again, so a getter or Proxy that answers differently on
 * a second read can never smuggle a value past the check. Later changes to the original never
 * reach the copy (no check-then-use gap between validation, approval and the handler).
 *
 * @throws JsonValueError (`code: 'non_json_value'`), problem `unreadable` when the value changed or
 *   could not be read while it was copied.
 */
export function ownJsonCopy(value: unknown): JsonValue {
  assertPlainJson(value)
  let copy: unknown
  try {
    copy = cloneJson(value)
    assertPlainJson(copy)
  } catch {
    throw new JsonValueError('unreadable', '', 'the value changed or could not be read while it was copied')
  }
  return copy as JsonValue
}
