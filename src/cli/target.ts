import type { ToolErrorPayload, ToolErrorReason } from 'result-views'

/** One call of the HTTP routes (`docs/http.md`), whichever target serves it. */
export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** The path under the base path, each segment already percent-encoded: `/tools/x/invoke`. */
  readonly path: string
  /** Query parameters; `undefined` values are left out. */
  readonly query?: Readonly<Record<string, string | undefined>>
  /** Sent as JSON. */
  readonly body?: unknown
}

/** What a target answered: the status and JSON body, or why no answer came. */
export type ApiAnswer =
  | { readonly ok: true; readonly status: number; readonly body: unknown }
  | { readonly ok: false; readonly error: ToolErrorPayload }

/**
 * Where the commands send their calls: a `result-views/http` server (`--url`, `--socket`) or a
 * catalog module run in this process (`--catalog`). Both speak the same routes, so each command
 * is written once. `send` never rejects.
 */
export interface Target {
  send(request: ApiRequest): Promise<ApiAnswer>
}

/** `/segment/segment` with each segment percent-encoded. */
export function apiPath(...segments: readonly string[]): string {
  return segments.map((segment) => `/${encodeURIComponent(segment)}`).join('')
}

/** `?a=1&b=2` of the defined values, or `''`. */
export function queryString(query: Readonly<Record<string, string | undefined>> | undefined): string {
  if (query === undefined) return ''
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value)
  const text = params.toString()
  return text.length === 0 ? '' : `?${text}`
}

/** `cli_target_unavailable` with one of its reasons. */
export function targetUnavailable(reason: ToolErrorReason<'cli_target_unavailable'>, message: string): ApiAnswer {
  return { ok: false, error: { code: 'cli_target_unavailable', reason, message } }
}
