import { canonicalJson } from '../json/canonical.js'
import type { ToolOrigin } from '../tool/origin.js'
import { sha256Hex } from './schema-digest.js'

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
 * Input digest (DESIGN.md glossary; spec 000 "Approvals", spec 001 "Remembered native-tool
 * decisions"): `"sha256:"` + lowercase hex SHA-256 of the canonical JSON (RFC 8785) of a tool
 * input, with the top-level `result_view` removed for native tools. The same input with or without
 * `result_view`, and with keys in any order, has one digest. Nested `result_view` keys are kept.
 *
 * @param input - the tool input, a plain JSON object (or any plain JSON value).
 * @returns `sha256:<64 hex>`.
 * @throws JsonValueError (`code: 'non_json_value'`) naming the JSON Pointer of a non-JSON value.
 */
export function inputDigest(input: unknown, options: InputDigestOptions = {}): string {
  return 'sha256:' + sha256Hex(canonicalJson(withoutResultView(input, options.origin ?? 'native')))
}

function withoutResultView(input: unknown, origin: ToolOrigin): unknown {
  if (origin !== 'native' || typeof input !== 'object' || input === null || Array.isArray(input)) return input
  if (!Object.prototype.hasOwnProperty.call(input, 'result_view')) return input
  const copy: Record<string, unknown> = Object.create(Object.getPrototypeOf(input))
  for (const key of Object.keys(input)) {
    if (key === 'result_view') continue
    // defineProperty, not assignment: a JSON-parsed "__proto__" key must stay a plain key.
    Object.defineProperty(copy, key, { value: (input as Record<string, unknown>)[key], enumerable: true, writable: true, configurable: true })
  }
  return copy
}
