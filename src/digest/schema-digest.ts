import { createHash } from 'node:crypto'
import { canonicalJson, canonicalJsonOfChecked, type JsonValue } from '../json/canonical.js'

/** Lowercase hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * Schema digest (`docs/views.md` "Digests"): lowercase hex SHA-256 (64 characters, no prefix) of the
 * canonical JSON (RFC 8785) of a JSON Schema. TypeBox's hidden non-enumerable keys are not part of
 * it. `required` keeps declaration order, so reordered fields give another digest.
 *
 * @example schemaDigest({ type: 'object' }) //
 *   'a2c799262a3ce3c19ef5cdd983bf3d12b43ab3c426227091b909dcb7054738c0'
 * @throws JsonValueError (`code: 'non_json_value'`) when the schema is not plain JSON.
 */
export function schemaDigest(schema: unknown): string {
  return sha256Hex(canonicalJson(schema))
}

/** {@link schemaDigest} of a schema already known to be plain JSON (a tool's own copy): no second check. */
export function checkedSchemaDigest(schema: JsonValue): string {
  return sha256Hex(canonicalJsonOfChecked(schema))
}
