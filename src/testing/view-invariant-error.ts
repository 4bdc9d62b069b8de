import { defineBrand } from '../errors/brand.js'
import { formatValue } from './record-compare.js'

const brand = defineBrand('result-views.ViewInvariantError')

/**
 * Which view invariant failed:
 * - `projection_threw`: `tool.project(full, 'compact')` threw on a full-valid record;
 * - `compact_schema_invalid`: the projected record is invalid under the compact schema;
 * - `compact_not_in_full`: a compact field is missing from the full record at the same JSON
 *   Pointer, or holds a different value there;
 * - `full_record_mutated`: projecting changed the full record it was given.
 */
export type ViewInvariantReason = 'projection_threw' | 'compact_schema_invalid' | 'compact_not_in_full' | 'full_record_mutated'

/** Construction fields of a {@link ViewInvariantError}. */
export interface ViewInvariantErrorInit {
/** Which invariant failed. */
  reason: ViewInvariantReason
  /** JSON Pointer (RFC 6901) of the offending value, in the compact record (or the full one for `full_record_mutated`). */
  pointer: string
  /** The offending value (`undefined` for a missing value). */
  value: unknown
  /** What went wrong, in words, without the pointer and value (the message adds them). */
  detail: string
  /** fast-check seed of the failing property run, when the error comes from `assertViewsConsistent`. */
  seed?: number
  /** 0-based index of the property run that first failed. */
  run?: number
  /** fast-check `counterexamplePath`: replay with `fc.assert(property, { seed, path })`. */
  counterexamplePath?: string
  /** The (shrunk) full record that broke the invariant. */
  counterexample?: unknown
  /** The tool the invariant was checked for. */
  toolId?: string
  /** The error `tool.project` threw (`projection_threw`). */
  cause?: unknown
}

/**
 * Thrown by `assertViewsConsistent` and `assertCompactSubsetOfFull` on the first violation of the
 * compact ⊆ full view invariant. `code` is always `'view_invariant_violated'`; `reason` says which
 * check failed; `pointer` and `value` locate the offending value; `seed`, `run` and
 * `counterexample` reproduce a property failure. The message names the pointer and the value.
 * Match on `code` or use {@link isViewInvariantError} (`instanceof` breaks across bundle copies).
 */
export class ViewInvariantError extends Error {
/** Always `'ViewInvariantError'`. */
  override readonly name = 'ViewInvariantError'
/** Always `'view_invariant_violated'`: an assertion failure of a test, not a misuse code. */
  readonly code = 'view_invariant_violated' as const
/** Which invariant failed. */
  readonly reason: ViewInvariantReason
/** The JSON Pointer of the offending value (compact record; full record for `full_record_mutated`). */
  readonly pointer: string
/** The offending value (`undefined` for a missing one). */
  readonly value: unknown
/** What went wrong, in words. */
  readonly detail: string
/** The fast-check seed of the failing run (from `assertViewsConsistent`). */
  readonly seed: number | undefined
/** The 0-based index of the run that first failed. */
  readonly run: number | undefined
/** fast-check's `counterexamplePath`: replay with `fc.assert(property, { seed, path })`. */
  readonly counterexamplePath: string | undefined
/** The (shrunk) full record that broke the invariant. */
  readonly counterexample: unknown
/** The tool the invariant was checked for. */
  readonly toolId: string | undefined

  constructor(init: ViewInvariantErrorInit) {
    super(buildMessage(init), init.cause === undefined ? undefined : { cause: init.cause })
    this.reason = init.reason
    this.pointer = init.pointer
    this.value = init.value
    this.detail = init.detail
    this.seed = init.seed
    this.run = init.run
    this.counterexamplePath = init.counterexamplePath
    this.counterexample = init.counterexample
    this.toolId = init.toolId
    brand.mark(this)
  }

  /** The construction fields of this error, e.g. to rebuild it with the run details added. */
  toInit(): ViewInvariantErrorInit {
    const init: ViewInvariantErrorInit = { reason: this.reason, pointer: this.pointer, value: this.value, detail: this.detail }
    if (this.seed !== undefined) init.seed = this.seed
    if (this.run !== undefined) init.run = this.run
    if (this.counterexamplePath !== undefined) init.counterexamplePath = this.counterexamplePath
    if (this.counterexample !== undefined) init.counterexample = this.counterexample
    if (this.toolId !== undefined) init.toolId = this.toolId
    if (this.cause !== undefined) init.cause = this.cause
    return init
  }
}

function buildMessage(init: ViewInvariantErrorInit): string {
  const tool = init.toolId === undefined ? '' : ` for tool "${init.toolId}"`
  let message = `view invariant violated${tool} (${init.reason}) at "${init.pointer}": value ${formatValue(init.value)}: ${init.detail}`
  if (init.seed !== undefined) {
    message += ` [seed ${init.seed}, run ${init.run ?? '?'}${init.counterexamplePath === undefined ? '' : `, path "${init.counterexamplePath}"`}]`
  }
  if (init.counterexample !== undefined) message += `; full record: ${formatValue(init.counterexample, 500)}`
  return message
}

/** True for a {@link ViewInvariantError} from any copy of this library (checks a global brand). */
export function isViewInvariantError(value: unknown): value is ViewInvariantError {
  return brand.has(value)
}
