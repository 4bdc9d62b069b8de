import type { ToolError } from '../errors/tool-error.js'
import { ownJsonCopy } from '../json/own-copy.js'
import { JsonValueError, isJsonValueError } from '../json/json-value-error.js'
import type { Tool } from '../tool/types.js'
import type { Call, CallBase } from '../call/call.js'
import { inputNotJson, inputSchemaInvalid, schemaCompileFailed } from './errors.js'
import { collectSecrets } from '../redact/secrets.js'
import { mergeSecrets, scrubError } from '../redact/scrub-error.js'
import { redactIssues, redactPointer } from '../redact/sensitive-pointer.js'
import type { SensitivePath } from '../redact/sensitive-paths.js'
import { selectView } from './select-view.js'
import type { View } from '../views/view.js'
import { toIssues, validatorFor } from './validators.js'

/**
 * What the input stages answer: the prepared call, or the typed input error together with the
 * call's own copy of the rejected input and the view it selected, which `tool.post_error` shows
 * (never a second read of the caller's object).
 */
export type PreparedInput =
  | { readonly ok: true; readonly call: Call }
  | {
      readonly ok: false
      readonly error: ToolError
      /** The call's own copy of the input; `null` when it was not plain JSON (no copy was made). */
      readonly input: unknown
      /** The view the input selected, when the `result_view` rules passed (a schema error after a valid `result_view`). */
      readonly view: View | undefined
    }

/**
 * The input stages of the lifecycle (`docs/architecture.md` "The invocation lifecycle"): the
 * input must be plain JSON, then the `result_view` selector rules (`docs/views.md` "The
 * selector"), then the tool's input schema (ajv, compiled once per tool on first use). Run again
 * on an input a pre-call hook patched.
 *
 * Every error it returns is free of the input's sensitive values (`docs/hooks.md` "Sensitive
 * input fields"): an input that is not plain JSON has its secrets collected from the value as it
 * is (the walk is safe on anything), and a JSON Pointer into a sensitive field stops at that
 * field, so no key inside a secret is named, however short.
 *
 * @returns the call with `view` and `handlerInput` set, or the typed input error with what it was
 *   made on.
 */
export function prepareInput(base: CallBase, sent: unknown): PreparedInput {
  const { tool } = base
  let input: unknown
  try {
    // The call works on its own copy from here on: a caller changing its object later (while a
    // hook, a policy or an approval store is awaited) never changes what was validated and runs.
    input = ownJsonCopy(sent)
  } catch (error) {
    // Only JsonValueErrors are expected; anything else that escaped a read fails closed too.
    const why = isJsonValueError(error) ? error : new JsonValueError('unreadable', '', 'the input could not be read')
    const secrets = mergeSecrets(base.secrets, collectSecrets(sent, base.sensitivePaths))
    return { ok: false, error: scrubError(inputNotJson(tool, why, redactPointer(why.pointer, base.sensitivePaths)), secrets), input: null, view: undefined }
  }
  const selection = selectView(tool, input, base.request.pinned_result_view)
  if (!selection.ok) return { ok: false, error: selection.error, input, view: undefined }
  const secrets = mergeSecrets(base.secrets, collectSecrets(input, base.sensitivePaths))
  const invalid = validateInput(tool, selection.input, base.sensitivePaths)
  if (invalid !== undefined) return { ok: false, error: scrubError(invalid, secrets), input, view: selection.view }
  // An explicit literal, not `{ ...base, secrets, ... }`: V8 turns a spread whose later keys
  // override earlier ones into a slow path (microseconds per call on this hot path).
  const call: Call = {
    request: base.request,
    tool,
    tool_call_id: base.tool_call_id,
    scope: base.scope,
    sensitivePaths: base.sensitivePaths,
    secrets,
    input: input as Record<string, unknown>,
    view: selection.view,
    handlerInput: selection.input,
  }
  return { ok: true, call }
}

function validateInput(tool: Tool, input: unknown, paths: readonly SensitivePath[]): ToolError | undefined {
  let validate
  try {
    validate = validatorFor(tool.inputSchema)
  } catch (error) {
    return schemaCompileFailed(tool, 'input', error)
  }
  // Issues inside a sensitive field name the field, never a key inside it.
  return validate(input) ? undefined : inputSchemaInvalid(tool, redactIssues(toIssues(validate.errors), paths))
}
