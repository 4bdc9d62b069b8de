import type { Call } from '../call/call.js'
import { redactInput } from '../redact/redact.js'

/**
 * The input of a call as approval records and the prompt keep it: the input as sent, with
 * `result_view` (spec 000 "Approvals": "The approval prompt shows the input as sent, including
 * the selector"), and every sensitive input field replaced by `"[REDACTED]"` (spec 001
 * "Sensitive input fields": stored approval records never hold a secret). The real input of a
 * redacted pending record is kept in process memory (`HeldInputs`) for the deferred call.
 */
export function toStoredInput(call: Call): unknown {
  return call.sensitivePaths.length === 0 ? call.input : redactInput(call.input, call.sensitivePaths)
}
