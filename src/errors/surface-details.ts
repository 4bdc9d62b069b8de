/**
 * One input problem as the redacting surfaces (HTTP, the CLI) show it (`docs/errors.md` "On every
 * surface"): where, which schema keyword, and what was expected; never the value sent.
 */
export interface SurfaceIssue {
  /** JSON Pointer into the tool input (`/result_view`; `""` is the input itself), cut at a sensitive field. */
  readonly pointer: string
  /** The JSON Schema keyword that failed (`enum`, `type`, `required`, `additionalProperties`, ...), or `plain_json`. */
  readonly keyword: string
  /** What the input must hold there, from the schema: `one of "compact", "full"`, `type string`, `property "ticket_id"`. */
  readonly expected: string
}

/** What a redacting surface adds to an error's fixed message: the details a caller can act on. */
export type SurfaceDetails = {
  /** The input's problems (at most {@link MAX_SURFACE_ISSUES}), for input errors the library found. */
  readonly issues?: readonly SurfaceIssue[]
  /** How many problems there are in all, when more than `issues` lists. */
  readonly issue_count?: number
  /** What to do next (`tool_denied` / `approval_required`: how to get an approval). */
  readonly hint?: string
}

/** Most issues a surface lists; the rest are counted in `issue_count`. */
export const MAX_SURFACE_ISSUES = 20

// Kept beside the error, not on it: only errors the library made carry surface details (a
// handler's thrown ToolError is rebuilt field by field, so nothing it sets can reach a surface).
const attached = new WeakMap<object, SurfaceDetails>()

/** Attaches what the redacting surfaces may show of `error` (library-made input errors only); returns `error`. */
export function withSurfaceDetails<E extends object>(error: E, details: SurfaceDetails): E {
  attached.set(error, details)
  return error
}

/** The surface details attached to `error`, if any. */
export function surfaceDetailsOf(error: object): SurfaceDetails | undefined {
  return attached.get(error)
}

/** The guidance each surface gives for a code and reason, by `code/reason`. */
export const SURFACE_HINTS: Readonly<Record<string, { readonly http: string; readonly cli: string }>> = {
  'tool_denied/approval_required': {
    http: 'supply an approval token (approval_token), or call with a scope.profile_id that can resolve a pending approval',
    cli: 'pass --approval-token (or set RESULT_VIEWS_APPROVAL_TOKEN), or --profile <id> so that the call opens a pending approval',
  },
}
