import type { ModelOutcomeError, ModelOutcomePending } from 'result-views'
import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.AiSdkToolError')

/**
 * What a `toAiSdkTools` tool's `execute` throws when the call did not produce a record: a typed
 * error (`outcome.status: 'error'`) or a pending approval (`'approval_pending'`). Throwing is how
 * the AI SDK records a tool error: the step gets a `tool-error` part whose `error` is this object,
 * and the model reads `message` (ai 6) or `toString()` (ai 7), both `outcome.text` (the shared mapping of
 * `outcomeForModel`).
 * It carries no `cause`: the handler's thrown value never reaches what the SDK records.
 * See `docs/adapters.md` "AI SDK specifics".
 */
export class AiSdkToolError extends Error {
  /** Always `'AiSdkToolError'`. */
  override readonly name = 'AiSdkToolError'
  /** The call's model-facing outcome: code, reason and details, or the pending `approval_id`. */
  readonly outcome: ModelOutcomeError | ModelOutcomePending

  /** @param outcome - a non-ok outcome of `outcomeForModel`; its `text` becomes the message. */
  constructor(outcome: ModelOutcomeError | ModelOutcomePending) {
    super(outcome.text)
    this.outcome = outcome
    brand.mark(this)
  }

  /**
   * The model text alone, without the usual `"AiSdkToolError: "` prefix: ai 7 shows the model
   * `error.toString()` of a tool error (ai 6 shows `message`), so both majors show the same text.
   */
  override toString(): string {
    return this.message
  }
}

/** True for an {@link AiSdkToolError} from any copy of this library (a global brand, not `instanceof`). */
export function isAiSdkToolError(value: unknown): value is AiSdkToolError {
  return brand.has(value)
}
