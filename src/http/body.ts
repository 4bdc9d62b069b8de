import type { ToolError } from 'result-views'
import { requestInvalid } from './errors.js'
import { isRecord } from '../json/guards.js'

const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * Whether a `Content-Type` announces JSON this handler reads: the media type `application/json`
 * (any case), with no `charset` parameter or `charset=utf-8`.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false
  if (contentType === 'application/json') return true
  const [type = '', ...params] = contentType.split(';')
  if (type.trim().toLowerCase() !== 'application/json') return false
  for (const param of params) {
    const [name = '', value = ''] = param.split('=')
    if (name.trim().toLowerCase() === 'charset' && value.trim().replace(/^"(.*)"$/, '$1').toLowerCase() !== 'utf-8') return false
  }
  return true
}

/** `http_request_invalid` / `content_type_unsupported`. */
export function unsupportedContentType(): ToolError {
  return requestInvalid('content_type_unsupported', 'a request body must be JSON: Content-Type application/json (charset utf-8)')
}

/**
 * A request body as a JSON object.
 *
 * @returns the parsed object, or `http_request_invalid`: `json_malformed` for bytes that are not
 *   UTF-8 JSON (the message gives the position when the parser reports one, never the text),
 *   `body_not_object` for JSON that is not an object.
 */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> | ToolError {
  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    return requestInvalid('json_malformed', 'the request body is not valid UTF-8')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // Only here is the text checked for being blank: every blank text (all of `trim`'s
    // whitespace, which includes JSON's) fails to parse, so the check costs nothing on a good body.
    if (text.trim().length === 0) return requestInvalid('json_malformed', 'the request body is empty; this route needs a JSON object')
    const position = /at position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1]
    return requestInvalid('json_malformed', position === undefined ? 'the request body is not valid JSON' : `the request body is not valid JSON (at character ${position})`)
  }
  if (!isRecord(value)) return requestInvalid('body_not_object', 'the request body must be a JSON object')
  return value as Record<string, unknown>
}
