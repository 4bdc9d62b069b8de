import type { ToolError } from 'result-views'
import { requestInvalid, shown } from './errors.js'

/** How a route takes a request body. */
export type BodyUse = 'none' | 'optional' | 'required'

/** One route, as data: a method, path segments (`:name` is a parameter), its query parameters and its body. */
export interface RouteSpec<Run> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Path segments under the base path; `:name` captures one segment. */
  readonly path: readonly string[]
  /** The query parameters it accepts, each at most once; any other is `query_invalid`. */
  readonly query: readonly string[]
  readonly body: BodyUse
  /** Only a loopback peer or a Unix socket may call it (approval decisions); it also gets the host and cross-site checks. */
  readonly localOnly: boolean
  readonly run: Run
}

/** A route picked for a request, with its decoded path parameters. */
export interface RouteMatch<Run> {
  readonly route: RouteSpec<Run>
  readonly params: Readonly<Record<string, string>>
}

/** No route serves the request: 404, or 405 with the methods that would (`allow`). */
export interface RouteMiss {
  readonly error: ToolError
  readonly allow?: string
}

/** The request target split into decoded path segments under the base path and its query. */
export interface Target {
  readonly segments: readonly string[]
  /** The query's parameters in order, as `URLSearchParams` iterates them. */
  readonly query: Iterable<readonly [string, string]>
}

/**
 * A target that `new URL` would leave as it is: a path (one leading `/`, not `//`) of letters,
 * digits and the sub-delimiters, `-`, `.`, `_`, `~`, `:` and `@`, with no query, no fragment and
 * no `%`; its segments need no percent-decoding. Dot segments are checked apart ({@link DOT_SEGMENT}).
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/
/** A `.` or `..` segment, which `new URL` resolves. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/
const NO_QUERY: Iterable<readonly [string, string]> = Object.freeze([])

/**
 * Splits a request target (`/api/tools/x?y=1`, or an absolute URL) into the segments under
 * `basePath` and the query. Dot segments are resolved as URLs resolve them; each segment is
 * percent-decoded once. A plain path ({@link PLAIN_PATH}, what clients send) is read as it is,
 * since `new URL` would neither change nor decode it; any other target is parsed by `new URL`
 * (`docs/http.md` "The request path").
 *
 * @returns the target, or `http_request_invalid` (`unknown_route` outside the base path or with an
 *   empty segment, `path_invalid` for a segment that is not valid percent-encoded UTF-8).
 */
export function parseTarget(url: string, basePath: string): Target | ToolError {
  if (PLAIN_PATH.test(url) && !DOT_SEGMENT.test(url)) return segmentsOf(url, basePath, NO_QUERY, false)
  let parsed: URL
  try {
    parsed = new URL(url, 'http://handler.invalid')
  } catch {
    return requestInvalid('path_invalid', 'the request target is not a valid URL path')
  }
  return segmentsOf(parsed.pathname, basePath, parsed.searchParams, true)
}

function segmentsOf(path: string, basePath: string, query: Iterable<readonly [string, string]>, decode: boolean): Target | ToolError {
  if (!(path === basePath || path.startsWith(basePath + '/'))) return requestInvalid('unknown_route', `no route serves ${shown(path)}`)
  const raw = path.slice(basePath.length + 1)
  const segments: string[] = []
  for (const segment of raw.length === 0 ? [] : raw.split('/')) {
    if (segment.length === 0) return requestInvalid('unknown_route', `no route serves ${shown(path)}`)
    if (!decode) {
      segments.push(segment)
      continue
    }
    try {
      segments.push(decodeURIComponent(segment))
    } catch {
      return requestInvalid('path_invalid', `the path segment ${shown(segment)} is not valid percent-encoded UTF-8`)
    }
  }
  return { segments, query }
}

/**
 * Picks the route for a method and path. Of the routes whose path matches, the one with the
 * request's method wins; among those, literal segments beat parameters from the left (so
 * `GET /tools/search` is the search route, not the tool `search`). A path no route has is 404
 * (`unknown_route`); a path whose routes all have other methods is 405 (`method_not_allowed`)
 * with those methods in `allow`.
 */
export function matchRoute<Run>(routes: readonly RouteSpec<Run>[], method: string, segments: readonly string[]): RouteMatch<Run> | RouteMiss {
  let best: RouteSpec<Run> | undefined
  let pathFound = false
  for (const route of routes) {
    if (!pathMatches(route.path, segments)) continue
    pathFound = true
    if (route.method === method && (best === undefined || moreSpecific(route.path, best.path))) best = route
  }
  if (best !== undefined) return { route: best, params: paramsOf(best.path, segments) }
  if (!pathFound) return { error: requestInvalid('unknown_route', `no route serves /${segments.map(encodeURIComponent).join('/')}`) }
  const allowed = new Set<string>()
  for (const route of routes) if (pathMatches(route.path, segments)) allowed.add(route.method)
  const allow = [...allowed].sort().join(', ')
  return { error: requestInvalid('method_not_allowed', `${shown(method)} is not allowed here (allowed: ${allow})`), allow }
}

function pathMatches(pattern: readonly string[], segments: readonly string[]): boolean {
  if (pattern.length !== segments.length) return false
  for (let index = 0; index < pattern.length; index++) {
    const part = pattern[index]!
    if (part !== segments[index] && part.charCodeAt(0) !== COLON) return false
  }
  return true
}

const COLON = 0x3a

/** Whether `a` has a literal where `b` has a parameter, at the first segment where they differ in kind. */
function moreSpecific(a: readonly string[], b: readonly string[]): boolean {
  for (let index = 0; index < a.length; index++) {
    const aParam = a[index]!.startsWith(':')
    const bParam = b[index]!.startsWith(':')
    if (aParam !== bParam) return bParam
  }
  return false
}

/**
 * The path parameters of a matched route, by name, frozen. A plain object: its keys are the
 * route table's parameter names (never the request's text), so no request can name `__proto__`,
 * and a null-prototype object given a computed key is a dictionary, about 1.6 µs a request.
 */
function paramsOf(pattern: readonly string[], segments: readonly string[]): Readonly<Record<string, string>> {
  const params: Record<string, string> = {}
  for (let index = 0; index < pattern.length; index++) {
    const part = pattern[index]!
    if (part.charCodeAt(0) === COLON) params[part.slice(1)] = segments[index]!
  }
  return Object.freeze(params)
}

/**
 * The query as a map of the parameters a route accepts.
 *
 * @returns the map, or `http_request_invalid` / `query_invalid` for an unknown parameter, a
 *   repeated one, or an empty value.
 */
export function queryOf(query: Iterable<readonly [string, string]>, accepted: readonly string[]): ReadonlyMap<string, string> | ToolError {
  const values = new Map<string, string>()
  for (const [name, value] of query) {
    if (!accepted.includes(name)) {
      const known = accepted.length === 0 ? 'this route takes none' : `known: ${accepted.join(', ')}`
      return requestInvalid('query_invalid', `unknown query parameter ${shown(name)} (${known})`)
    }
    if (values.has(name)) return requestInvalid('query_invalid', `query parameter ${shown(name)} is given more than once`)
    if (value.length === 0) return requestInvalid('query_invalid', `query parameter ${shown(name)} is empty`)
    values.set(name, value)
  }
  return values
}
