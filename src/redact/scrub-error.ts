import { surfaceDetailsOf, withSurfaceDetails, type SurfaceDetails } from '../errors/surface-details.js'
import { ToolError } from '../errors/tool-error.js'
import { scrubJson, scrubText } from './secrets.js'

/**
 * The error with every secret scrubbed from its message, details and surface details
 * (`docs/hooks.md` "Sensitive input fields": error details never echo a sensitive value). Returns the same error when there is
 * nothing to scrub and it has no `cause`. The `cause` of a handler failure is not carried over: it may hold the secret.
 */
export function scrubError(error: ToolError, secrets: readonly string[]): ToolError {
  if (secrets.length === 0) return error
  const message = scrubText(error.message, secrets)
  const details = error.details === undefined ? undefined : (scrubJson(error.details, secrets) as Record<string, unknown>)
  const unchanged = message === error.message && JSON.stringify(details) === JSON.stringify(error.details)
  // A message scrubbed where it was made (a handler failure) still drops its `cause`.
  if (unchanged && !Object.prototype.hasOwnProperty.call(error, 'cause')) return error
  const scrubbed = new ToolError({ code: error.code, reason: error.reason, message, ...(details === undefined ? {} : { details }) })
  // What the redacting surfaces may show goes with it, scrubbed as well.
  const surface = surfaceDetailsOf(error)
  return surface === undefined ? scrubbed : withSurfaceDetails(scrubbed, scrubJson(surface, secrets) as SurfaceDetails)
}

/** The union of two secret lists, longest first (so longer secrets are scrubbed before their substrings). */
export function mergeSecrets(a: readonly string[], b: readonly string[]): readonly string[] {
  if (b.length === 0) return a
  if (a.length === 0) return b
  return [...new Set([...a, ...b])].sort((x, y) => y.length - x.length)
}
