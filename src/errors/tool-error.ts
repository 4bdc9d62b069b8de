import { defineBrand } from './brand.js'
import { ToolErrorCodes, type ToolErrorCode } from './codes.js'
import { SURFACE_HINTS, surfaceDetailsOf, type SurfaceDetails } from './surface-details.js'

const brand = defineBrand('result-views.ToolError')

/** A surface a `ToolError` is shown on (`docs/errors.md`). */
export type ErrorSurface = 'dispatch' | 'cli' | 'http'

/** The messages redacting surfaces show instead of the dispatch message (`docs/errors.md`). */
export const SURFACE_MESSAGES = {
  input: 'invalid tool request',
  denial: 'tool invocation denied',
  failure: 'tool invocation failed',
} as const

/** Construction fields of a {@link ToolError}. */
export interface ToolErrorInit {
  /** Stable code from the registry (`docs/errors.md`). */
  code: ToolErrorCode
  /** Stable machine-readable reason within the code, e.g. `schema_invalid`, `result_view_pinned`. */
  reason: string
  /** The dispatch message, e.g. `tool "x" input "result_view" must be one of "compact", "full"`. */
  message: string
  /** Structured data about the failure; its shape per code is in `docs/errors.md`. Never holds secrets. */
  details?: Record<string, unknown>
}

/**
 * The error every failed `invoke` returns (as `{ status: 'error', error }`, never thrown).
 * Match on `code` and `reason`, or use {@link isToolError}: `instanceof` breaks across two bundle
 * copies of this library.
 */
export class ToolError extends Error {
/** Always `'ToolError'`. */
  override readonly name = 'ToolError'
/** The stable code (`ToolErrorCodes`, `docs/errors.md`). */
  readonly code: ToolErrorCode
/** The stable reason within the code (each code's table in `docs/errors.md`). */
  readonly reason: string
/** Structured data about the failure, by code and reason (`docs/errors.md`); never holds a secret. */
  readonly details: Readonly<Record<string, unknown>> | undefined

  constructor(init: ToolErrorInit) {
    super(init.message)
    this.code = init.code
    this.reason = init.reason
    this.details = init.details
    brand.mark(this)
  }

  /**
   * The error as a given surface shows it. `'dispatch'` keeps the dispatch message and `details`;
   * `'cli'` and `'http'` keep `code` and `reason` but replace the message with `"invalid tool
   * request"` for input errors, `"tool invocation denied"` for denials and `"tool invocation
   * failed"` for failures (`docs/errors.md`), keep the message of a code a tool reports (kind
   * `reported`: written for the caller), and replace `details` by what a caller can act on: the
   * input's problems of the library's own input errors (`details.issues`: `{ pointer, keyword,
   * expected }`, never a value) and a hint for `approval_required` (`details.hint`).
   *
   * @returns a plain JSON object `{ code, reason, message, details? }`.
   */
  forSurface(surface: ErrorSurface): ToolErrorPayload {
    if (surface === 'dispatch') {
      return this.details === undefined
        ? { code: this.code, reason: this.reason, message: this.message }
        : { code: this.code, reason: this.reason, message: this.message, details: this.details }
    }
    const kind = Object.hasOwn(ToolErrorCodes, this.code) ? ToolErrorCodes[this.code].kind : 'failure'
    const message = kind === 'reported' ? this.message : SURFACE_MESSAGES[kind]
    const details = shownDetails(this, surface)
    return details === undefined ? { code: this.code, reason: this.reason, message } : { code: this.code, reason: this.reason, message, details }
  }

  /** The dispatch payload (`forSurface('dispatch')`), so `JSON.stringify(error)` is useful. */
  toJSON(): ToolErrorPayload {
    return this.forSurface('dispatch')
  }
}

/** What `forSurface('cli' | 'http')` shows as `details`: the library's input issues and the surface's hint. */
function shownDetails(error: ToolError, surface: 'cli' | 'http'): SurfaceDetails | undefined {
  const attached = surfaceDetailsOf(error)
  const hint = SURFACE_HINTS[`${error.code}/${error.reason}`]?.[surface]
  if (hint === undefined) return attached
  return attached === undefined ? { hint } : { ...attached, hint }
}

/** The JSON shape of a {@link ToolError} on a surface. */
export interface ToolErrorPayload {
/** The stable code. */
  code: ToolErrorCode
/** The stable reason. */
  reason: string
/** The dispatch message, or the surface's redacted message (`invalid tool request`, ...). */
  message: string
/** The details: all of them on the dispatch surface; on `cli` and `http`, only {@link SurfaceDetails} (input issues, a hint). */
  details?: Readonly<Record<string, unknown>>
}

/** True for a {@link ToolError} from any copy of this library (checks a global brand, not `instanceof`). */
export function isToolError(value: unknown): value is ToolError {
  return brand.has(value)
}
