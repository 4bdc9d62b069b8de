import type { Call } from '../call/call.js'
import { redactInput } from '../redact/redact.js'

/** The real input of a pending approval, as this process holds it. */
export interface HeldInput {
  readonly input: unknown
}

/**
 * The real inputs of pending approvals whose stored record is redacted (`docs/approvals.md`
 * "Secrets": stored approval records never hold a sensitive value in clear), when the dispatcher
 * has no seal key (with one, the record carries the real input sealed: `docs/approvals.md` "Sealed
 * pending inputs"). They live only in the memory of the process that opened the approval, until
 * it is resolved, canceled or expires; approving one whose real input is not held here (another
 * process, a restart) is refused and leaves it pending (`approval_unavailable` /
 * `input_held_elsewhere`): it never runs on `"[REDACTED]"`.
 */
export class HeldInputs {
  readonly #inputs = new Map<string, { readonly input: unknown; readonly expiresAtMs: number }>()

  /** Keeps the real input of an approval until `expiresAtMs` (epoch milliseconds). */
  hold(approvalId: string, input: unknown, expiresAtMs: number, nowMs: number): void {
    this.sweep(nowMs)
    this.#inputs.set(approvalId, { input, expiresAtMs })
  }

  /** Whether this process holds the real input of an approval (it is not taken). */
  has(approvalId: string): boolean {
    return this.#inputs.has(approvalId)
  }

  /** Removes and returns the real input of an approval, if this process holds it. */
  take(approvalId: string): HeldInput | undefined {
    const held = this.#inputs.get(approvalId)
    this.#inputs.delete(approvalId)
    return held
  }

  /** Forgets an approval's input (canceled, denied). */
  drop(approvalId: string): void {
    this.#inputs.delete(approvalId)
  }

  /** Forgets every input whose approval has expired. */
  sweep(nowMs: number): void {
    for (const [id, held] of this.#inputs) if (held.expiresAtMs <= nowMs) this.#inputs.delete(id)
  }
}

/**
 * The input of a call as approval records and the prompt keep it: the input as sent, with
 * `result_view` (`docs/views.md` "The selector": the prompt shows the input as sent, selector
 * included), and every sensitive input field replaced by `"[REDACTED]"` (`docs/approvals.md`
 * "Secrets": stored approval records never hold a secret in clear). The real input of a redacted
 * pending record is sealed into it or kept in process memory (`HeldInputs`) for the deferred call.
 */
export function toStoredInput(call: Call): unknown {
  return call.sensitivePaths.length === 0 ? call.input : redactInput(call.input, call.sensitivePaths)
}
