import type { ToolError } from '../errors/tool-error.js'
import { INPUT_JSON } from '../json/canonical.js'
import { isRecord } from '../json/guards.js'
import { ownJsonCopy } from '../json/own-copy.js'
import { JsonValueError, isJsonValueError } from '../json/json-value-error.js'
import type { Tool } from '../tool/types.js'
import type { Call, CallBase } from '../call/call.js'
import { inputNotJson, inputSchemaInvalid, resultViewInvalid, resultViewNotAccepted, schemaCompileFailed } from './errors.js'
import { collectSecrets } from '../redact/secrets.js'
import { mergeSecrets, scrubError } from '../redact/scrub-error.js'
import { redactPointer } from '../redact/sensitive-pointer.js'
import type { SensitivePath } from '../redact/sensitive-paths.js'
import { selectView } from './select-view.js'
import { isView, RESULT_VIEW_KEY, type View } from '../views/view.js'
import { firstErrorValidatorFor, toIssues, validatorFor } from './validators.js'

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
 * `result_view` selector rules decide first (`docs/views.md` "The selector": a `result_view` that
 * is not a string is row 2 however deep or odd it is), then the input must be plain JSON (an
 * object member whose value is `undefined` counts as absent), then the selector rules on the
 * copy (a pinned view), then the tool's input schema (ajv, compiled once per tool on first use).
 * Run again on an input a pre-call hook patched.
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
  const selector = selectorFirst(tool, sent)
  if (selector !== undefined) return { ok: false, error: selector, input: copyForEvent(sent), view: undefined }
  let input: unknown
  try {
    // The call works on its own copy from here on: a caller changing its object later (while a
    // hook, a policy or an approval store is awaited) never changes what was validated and runs.
    input = ownJsonCopy(sent, INPUT_JSON)
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

/**
 * The input (a plain JSON copy) against the tool's input schema: the first-error validator decides
 * (the same answer, cheaper), and only an input that fails it is validated again for every issue
 * (never accepted by that second run).
 */
function validateInput(tool: Tool, input: unknown, paths: readonly SensitivePath[]): ToolError | undefined {
  let decide
  try {
    decide = firstErrorValidatorFor(tool.inputSchema)
  } catch (error) {
    return schemaCompileFailed(tool, 'input', error)
  }
  if (decide(input)) return undefined
  const first = toIssues(decide.errors)
  let validate
  try {
    validate = validatorFor(tool.inputSchema)
  } catch (error) {
    return schemaCompileFailed(tool, 'input', error)
  }
  // Issues inside a sensitive field name the field, never a key inside it. The first-error
  // validator decided: should the other ever pass what it refused, its one issue is reported.
  return inputSchemaInvalid(tool, validate(input) ? first : toIssues(validate.errors), paths)
}

/**
 * Rows 1-3 of the selector rules, read before the input is copied, so that they decide first: a
 * native tool's `result_view` that is present (and not `undefined`) must be `"compact"` or
 * `"full"` on a viewed tool, and is refused on a single-result tool, whatever else the input
 * holds (a value nested 5,000 deep, a sparse array, a `Date`). A read that throws is left to the
 * copy, which names it. The copy applies the same rules again (and the pinned view) to what it read.
 */
function selectorFirst(tool: Tool, sent: unknown): ToolError | undefined {
  if (tool.origin !== 'native') return undefined
  let selected: unknown
  try {
    if (!isRecord(sent) || !Object.prototype.hasOwnProperty.call(sent, RESULT_VIEW_KEY)) return undefined
    selected = (sent as Record<string, unknown>)[RESULT_VIEW_KEY]
  } catch {
    return undefined
  }
  if (selected === undefined) return undefined
  if (tool.kind === 'single') return resultViewNotAccepted(tool)
  return isView(selected) ? undefined : resultViewInvalid(tool)
}

/** The input as `tool.post_error` shows it after a selector error: a checked copy, or `null` when it is not plain JSON. */
function copyForEvent(sent: unknown): unknown {
  try {
    return ownJsonCopy(sent, INPUT_JSON)
  } catch {
    return null
  }
}
