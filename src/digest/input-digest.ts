import { canonicalSha256Hex } from '../json/canonical.js'
import type { ToolOrigin } from '../tool/origin.js'
import { RESULT_VIEW_KEY } from '../views/view.js'

/** Options of {@link inputDigest}. */
export interface InputDigestOptions {
  /**
   * Origin of the tool the input is for. Default `'native'`: the top-level `result_view` key is
   * removed before hashing. For `'extension'` and `'mcp'` tools it is kept (their `result_view`,
   * if any, is their own input).
   */
  origin?: ToolOrigin
}

/**
 * Input digest (docs/views.md, "Digests"; docs/approvals.md): `"sha256:"` + lowercase hex SHA-256
 * of the canonical JSON (RFC 8785) of a tool input, with the top-level `result_view` removed for
 * native tools. The same input with or without
 * `result_view`, and with keys in any order, has one digest. Nested `result_view` keys are kept.
 *
 * @param input - the tool input, a plain JSON object (or any plain JSON value).
 * @returns `sha256:<64 hex>`.
 * @throws JsonValueError (`code: 'non_json_value'`) naming the JSON Pointer of a non-JSON value.
 * @throws TypeError (`code: 'ERR_INVALID_ARG_VALUE'`) for an unknown `origin`.
 */
export function inputDigest(input: unknown, options: InputDigestOptions = {}): string {
  const origin = options?.origin ?? 'native'
  if (origin !== 'native' && origin !== 'extension' && origin !== 'mcp') {
    throw Object.assign(new TypeError(`inputDigest: origin must be "native", "extension" or "mcp", got ${JSON.stringify(origin)}`), { code: 'ERR_INVALID_ARG_VALUE' })
  }
  // One walk checks the input (result_view included) and writes its canonical form.
  return 'sha256:' + canonicalSha256Hex(input, origin === 'native' ? RESULT_VIEW_KEY : undefined)
}
