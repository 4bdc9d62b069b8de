import type { Call } from '../dispatch/call.js'

/**
 * The input of a call as approval records and the prompt keep it: the input as sent, with
 * `result_view` (spec 000 "Approvals": "The approval prompt shows the input as sent, including
 * the selector"). Every pending record and prompt request takes its input from here, so this is
 * the one place to redact sensitive input fields for stored approval records.
 *
 * A resolved approval runs on the stored input and refuses to run (`approval_unavailable` /
 * `record_invalid`) when its input digest differs from the approved call's, so redacting here
 * needs the real values kept elsewhere for the deferred call.
 */
export function toStoredInput(call: Call): unknown {
  return call.input
}
