import { quoted } from '../errors/quote.js'
import { UsageError } from '../errors/usage-error.js'
import { canonicalSha256Hex } from '../json/canonical.js'
import { RESULT_VIEW_KEY, type ToolOrigin } from '../views/view.js'

/**
 * Input digest (`docs/views.md` "Digests"; `docs/approvals.md` "The order, on the final input"):
 * `"sha256:"` + lowercase hex SHA-256 of the canonical JSON (RFC 8785) of a tool input, with the
 * top-level `result_view` removed for native tools. The same input with or without `result_view`,
 * and with keys in any order, has one digest. Nested `result_view` keys are kept.
 *
 * @param input - the tool input, a plain JSON object (or any plain JSON value).
 * @param options - `origin`: the origin of the tool the input is for. Default `'native'`: the
 *   top-level `result_view` key is removed before hashing. For `'extension'` and `'mcp'` tools it is
 *   kept (their `result_view`, if any, is their own input).
 * @returns `sha256:<64 hex>`.
 * @throws JsonValueError (`code: 'non_json_value'`) naming the JSON Pointer of a non-JSON value.
 * @throws UsageError (`code: 'digest_options_invalid'`, problem `invalid_origin` at `/origin`) for an
 *   unknown `origin`.
 */
export function inputDigest(input: unknown, options: { readonly origin?: ToolOrigin } = {}): string {
  const origin = options?.origin ?? 'native'
  if (origin !== 'native' && origin !== 'extension' && origin !== 'mcp') {
    const problem = `origin must be "native", "extension" or "mcp", got ${typeof origin === 'string' ? quoted(origin as string, 64) : typeof origin}`
    throw new UsageError({ code: 'digest_options_invalid', subject: 'inputDigest options', problems: [{ path: '/origin', code: 'invalid_origin', message: problem }], message: `inputDigest: ${problem}` })
  }
  // One walk checks the input (result_view included) and writes its canonical form.
  return 'sha256:' + canonicalSha256Hex(input, origin === 'native' ? RESULT_VIEW_KEY : undefined)
}
