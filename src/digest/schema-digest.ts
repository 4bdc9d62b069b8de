import { canonicalSha256Hex, type JsonValue } from '../json/canonical.js'

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
  return canonicalSha256Hex(schema)
}

/** {@link schemaDigest} of a schema already known to be plain JSON (a tool's own copy). */
export function checkedSchemaDigest(schema: JsonValue): string {
  return canonicalSha256Hex(schema)
}
