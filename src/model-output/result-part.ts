import type { View } from '../views/view.js'

/**
 * One part of a result too large for the surface's `maxResultBytes` (`docs/mcp.md` "Result size
 * limits"): a slice of the JSON text of the selected view's record, never cut inside a surrogate
 * pair or an escape, with where it sits in the whole and the handle of the next part. The
 * `result_part` strings of all parts, joined in order, are exactly `JSON.stringify(record)`.
 */
export interface ResultPart {
  /** This part of the JSON text. */
  readonly result_part: string
  /** 1-based index of this part. */
  readonly part: number
  /** UTF-8 byte offset of this part in the whole JSON text. */
  readonly bytes_from: number
  /** UTF-8 bytes of this part. */
  readonly bytes_shown: number
  /** UTF-8 bytes of the whole JSON text. */
  readonly total_bytes: number
  /** The view the record is in, for tools with views. */
  readonly result_view?: View
  /** Handle of the next part; absent on the last part (or when the rest could not be kept). */
  readonly continuation?: string
  /** What a model reads about the part: bytes shown of total, how to get the rest. */
  readonly note: string
}

/** What {@link resultPartForModel} needs to know about the part. */
export interface ResultPartFacts {
  readonly text: string
  readonly part: number
  readonly bytesFrom: number
  readonly bytesShown: number
  readonly totalBytes: number
  readonly resultView: View | undefined
  /** The next part's handle; `undefined` on the last part. */
  readonly continuation: string | undefined
  /** The tool that returns the next part, e.g. `result_continue`. */
  readonly continueTool: string
  /** The called tool, to say how to ask for a smaller record. */
  readonly toolId: string
  /**
   * Why the rest was not kept, when it was not: `'too_large'` (larger than the store's `maxBytes`:
   * calling again keeps nothing either) or `'store_failed'` (the store failed or did not answer in
   * time: calling again may succeed).
   */
  readonly restDropped?: 'too_large' | 'store_failed'
}

/**
 * A part with its note, the one wording every surface uses:
 *
 * - more to come: `Partial result: part <n>, bytes <from>–<to> of <total> of the JSON text of the
 *   <view> record. Call <continueTool> with {"continuation":"<handle>"} for the next part; the
 *   parts joined in order are the exact JSON.` plus, for a full record,
 *   ` Calling <tool> with "result_view": "compact" returns a smaller record.`;
 * - the last part: `Last part: part <n>, bytes <from>–<to> of <total> …; the parts joined in order
 *   are the exact JSON.`;
 * - the rest too large to keep: the first sentence, then `The rest is too large to keep for
 *   <continueTool>: call <tool> again with narrower input.` (and the compact sentence);
 * - the rest not kept because the store failed: the first sentence, then `The rest could not be
 *   kept for <continueTool> right now: calling <tool> again may succeed.` (and the compact
 *   sentence).
 */
export function resultPartForModel(facts: ResultPartFacts): ResultPart {
  const view = facts.resultView === undefined ? '' : `${facts.resultView} `
  const to = facts.bytesFrom + facts.bytesShown
  const span = `part ${facts.part}, bytes ${facts.bytesFrom}–${to} of ${facts.totalBytes} of the JSON text of the ${view}record`
  const smaller = facts.resultView === 'full' ? ` Calling ${facts.toolId} with "result_view": "compact" returns a smaller record.` : ''
  let note: string
  if (facts.continuation !== undefined) {
    note = `Partial result: ${span}. Call ${facts.continueTool} with ${JSON.stringify({ continuation: facts.continuation })} for the next part; the parts joined in order are the exact JSON.${smaller}`
  } else if (facts.restDropped === 'too_large') {
    note = `Partial result: ${span}. The rest is too large to keep for ${facts.continueTool}: call ${facts.toolId} again with narrower input.${smaller}`
  } else if (facts.restDropped === 'store_failed') {
    note = `Partial result: ${span}. The rest could not be kept for ${facts.continueTool} right now: calling ${facts.toolId} again may succeed.${smaller}`
  } else {
    note = `Last part: ${span}; the parts joined in order are the exact JSON.`
  }
  const base = { result_part: facts.text, part: facts.part, bytes_from: facts.bytesFrom, bytes_shown: facts.bytesShown, total_bytes: facts.totalBytes }
  return Object.freeze({
    ...base,
    ...(facts.resultView === undefined ? {} : { result_view: facts.resultView }),
    ...(facts.continuation === undefined ? {} : { continuation: facts.continuation }),
    note,
  })
}
