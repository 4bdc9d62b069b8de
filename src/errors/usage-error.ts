import { defineBrand } from './brand.js'
import type { UsageErrorCode } from './codes.js'
import { problemListMessage } from './problem-list.js'

const brand = defineBrand('result-views.UsageError')

/** One problem found in a misuse of the library. */
export interface UsageProblem {
  /**
   * Where: a JSON Pointer (RFC 6901) into the argument that was misused, e.g. `/id`,
   * `/output/compact/properties/session`, `/tools/2`; `''` for the argument itself.
   */
  readonly path: string
  /** Stable problem code within the error's `code`, e.g. `invalid_id`, `unknown_option`. */
  readonly code: string
  /** One sentence saying what is wrong and, where it helps, what to write instead. */
  readonly message: string
}

/** Construction fields of a {@link UsageError}. */
export interface UsageErrorInit {
  /** Stable misuse code from the registry (`UsageErrorCodes`, documented in `docs/errors.md` "Misuse errors"). */
  code: UsageErrorCode
  /** What was misused, e.g. `tool "x"`, `createMcpServer options`; the message lists the problems under it. */
  subject: string
  /** Every problem found, at least one. */
  problems: readonly UsageProblem[]
  /** A full message to use instead of the problem list (for errors that always carry exactly one problem). */
  message?: string
  /** The underlying error, kept as the non-enumerable `cause`. */
  cause?: unknown
}

/**
 * The one base of every error this library throws for misuse of itself: a definition, option or
 * argument that must never reach a catalog or a call (never a caller's or tool's mistake at run
 * time: those are `ToolError` outcomes). Specific classes (`ToolDefinitionError`,
 * `PolicyDefinitionError`, ...) extend it so a user can catch them by name; all share one shape:
 *
 * - `code`: a stable misuse code (`docs/errors.md` "Misuse errors");
 * - `problems`: every problem found at once, each `{ path, code, message }` with `path` a JSON
 *   Pointer into the misused argument;
 * - `message`: `<subject> is invalid (N problems):` then one `  - <path>: <message>` line each
 *   (a few classes keep a message format of their own; `problems` is the same everywhere).
 *
 * A `TypeError`, as Node's own argument errors are, so code that caught a `TypeError` from this
 * library keeps working. Match with {@link isUsageError} and `code`, not `instanceof` (two bundle
 * copies break it).
 */
export class UsageError extends TypeError {
  /** `'UsageError'`, or the subclass's name (`'ToolDefinitionError'`, ...). */
  override readonly name: string = 'UsageError'
  /** The stable misuse code (`UsageErrorCodes`, `docs/errors.md` "Misuse errors"). */
  readonly code: UsageErrorCode
  /** Every problem found at once (frozen), each `{ path, code, message }`. */
  readonly problems: readonly UsageProblem[]

  constructor(init: UsageErrorInit) {
    super(init.message ?? problemListMessage(init.subject, 'is', init.problems))
    if (init.cause !== undefined) Object.defineProperty(this, 'cause', { value: init.cause, configurable: true, writable: true })
    this.code = init.code
    this.problems = Object.freeze([...init.problems])
    brand.mark(this)
  }
}

/** True for a {@link UsageError} (or a subclass) from any copy of this library; checks a global brand, not `instanceof`. */
export function isUsageError(value: unknown): value is UsageError {
  return brand.has(value)
}
