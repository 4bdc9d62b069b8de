import { isToolError, type ToolError } from '../errors/tool-error.js'
import { assertPlainJson, RESULT_JSON } from '../json/canonical.js'
import { isPlainObject } from '../json/guards.js'
import { isJsonValueError } from '../json/json-value-error.js'
import { ownJsonCopy } from '../json/own-copy.js'
import type { Tool } from '../tool/types.js'
import { recordCopyFor } from '../views/record-copy.js'
import type { Call, ToolResult } from '../call/call.js'
import { outputInvalid, schemaCompileFailed } from './errors.js'
import { firstErrorValidatorFor, fullSchemaOf, searchesArrays, toIssues, validatorFor, type ValidationIssue } from './validators.js'

/**
 * The output stage of the lifecycle: checks the handler's record, then builds the envelope of
 * the selected view (`{ structured, preview }`). What the caller receives is always a plain JSON
 * record of its own:
 * - compact: the record is validated against the full schema and projected; the projector checks
 *   each value it copies, so the projection is plain JSON. Parts of the record the compact view
 *   leaves out are judged by the full schema alone. The record is the handler's own value, not a
 *   checked copy, so it is validated by a validator that stops at the first error (an array of
 *   2 ** 32 - 1 holes fails at its first element), and checked to be plain JSON before anything
 *   reports every error of it or walks its arrays whole.
 * - full or single: the record is copied and checked in one walk, and the copy validated.
 *
 * @returns the envelope, or `tool_output_invalid` (details: ajv `issues`, or the `pointer` and
 *   `problem` of a value that is not plain JSON) / `tool_execution_failed` (`schema_compile_failed`,
 *   or `omit_rule_failed` when a value-dependent compact rule failed).
 */
export function resultOf(call: Call, record: unknown): ToolResult | ToolError {
  const { tool } = call
  if (tool.kind === 'viewed' && call.view === 'compact') {
    // The commonest slip, a class instance returned as the record, is named before anything
    // reads it through its prototype.
    if (!isPlainRoot(record)) return notPlainJson(tool, record)
    let judged = validateUnchecked(tool, record)
    let source = record
    if (judged.kind === 'unreadable') {
      // ajv could not read the record as it is (a throwing getter, a null-prototype object under
      // uniqueItems, a recursion past the call stack): judge a checked copy of it instead.
      try {
        source = ownJsonCopy(record, RESULT_JSON)
      } catch (error) {
        return notPlainJson(tool, record, error)
      }
      judged = validateOutput(tool, source)
      if (judged.kind === 'unreadable') return notPlainJson(tool, source, judged.thrown)
    }
    if (judged.kind === 'invalid') return judged.error
    let structured: unknown
    try {
      // The projection is plain JSON by construction: it checks each value it copies. A failed
      // value-dependent rule (`omitWhen`) is the tool's own typed error.
      structured = tool.project(source, 'compact')
    } catch (error) {
      if (isToolError(error)) return error
      // The projector's pointer is relative to the position it copied whole: the record is
      // checked again to name the pointer from its root.
      return notPlainJson(tool, source, error, false)
    }
    return { structured, preview: tool.preview(record, structured, call.secrets) }
  }
  let copy: unknown
  try {
    // Copied before validation: what was validated is exactly what the caller receives. The copy
    // is compiled from the schema (the same value as ownJsonCopy(record, RESULT_JSON)).
    copy = recordCopyFor(fullSchemaOf(tool))(record)
  } catch (error) {
    return notPlainJson(tool, record, error)
  }
  const judged = validateOutput(tool, copy)
  if (judged.kind === 'unreadable') return notPlainJson(tool, copy, judged.thrown)
  if (judged.kind === 'invalid') return judged.error
  // A tool's own preview gets the handler's record, never the copy the caller receives.
  return { structured: copy, preview: tool.preview(record, copy, call.secrets) }
}

/** Whether a record is a scalar, an array or a plain object (prototype `Object.prototype` or `null`). */
function isPlainRoot(record: unknown): boolean {
  if (typeof record !== 'object' || record === null) return true
  try {
    return Array.isArray(record) || isPlainObject(record)
  } catch {
    // A Proxy whose getPrototypeOf trap throws.
    return false
  }
}

/**
 * What the full schema says of a record: `valid`; `invalid` with the typed error (the record
 * fails the schema, or the schema cannot be compiled); or `unreadable` when ajv threw while
 * reading the record, with what it threw.
 */
type Judgement = { readonly kind: 'valid' } | { readonly kind: 'invalid'; readonly error: ToolError } | { readonly kind: 'unreadable'; readonly thrown: unknown }

const VALID: Judgement = Object.freeze({ kind: 'valid' })

/**
 * The handler's own record against the full schema (see {@link Judgement}), read so that no
 * array costs more than its first hole: the first-error validator decides; only a record that
 * fails it and is plain JSON is validated again for every issue. A schema whose validation walks
 * whole arrays (`contains`) gets the plain-JSON check first.
 */
function validateUnchecked(tool: Tool, record: unknown): Judgement {
  return judge(tool, record, true)
}

/** `tool_output_invalid` naming the first value of the record that is not plain JSON, or `undefined` when it is plain JSON. */
function notPlainProblem(tool: Tool, record: unknown): ToolError | undefined {
  try {
    assertPlainJson(record, RESULT_JSON)
    return undefined
  } catch (error) {
    return isJsonValueError(error) ? outputInvalid(tool, { pointer: error.pointer, problem: error.problem }) : outputInvalid(tool, { pointer: '', problem: 'unreadable' })
  }
}

/**
 * A plain JSON record against the full schema, every issue reported (see {@link Judgement}). The
 * first-error validator decides (the same answer, without the cost of collecting errors: with
 * `format` keywords ajv's every-error code runs several times slower); only a record that fails it
 * is validated again for every issue.
 */
function validateOutput(tool: Tool, record: unknown): Judgement {
  return judge(tool, record, false)
}

/** Both judgements: `unchecked`, the record may not be plain JSON, and is checked where a walk over it could cost more than its first hole. */
function judge(tool: Tool, record: unknown, unchecked: boolean): Judgement {
  const schema = fullSchemaOf(tool)
  let decide
  try {
    decide = firstErrorValidatorFor(schema)
  } catch (error) {
    return { kind: 'invalid', error: schemaCompileFailed(tool, 'output', error) }
  }
  if (unchecked && searchesArrays(schema)) {
    const notPlain = notPlainProblem(tool, record)
    if (notPlain !== undefined) return { kind: 'invalid', error: notPlain }
  }
  try {
    if (decide(record)) return VALID
  } catch (thrown) {
    return { kind: 'unreadable', thrown }
  }
  const first = toIssues(decide.errors)
  if (unchecked) {
    const notPlain = notPlainProblem(tool, record)
    if (notPlain !== undefined) return { kind: 'invalid', error: notPlain }
  }
  return everyIssue(tool, record, first)
}

/**
 * A plain JSON record that fails the full schema, validated again for every issue (see
 * {@link Judgement}). The first-error validator decided: should this run ever pass the record, the
 * `first` issue it reported is the error.
 */
function everyIssue(tool: Tool, record: unknown, first: ValidationIssue[]): Judgement {
  let validate
  try {
    validate = validatorFor(fullSchemaOf(tool))
  } catch (error) {
    return { kind: 'invalid', error: schemaCompileFailed(tool, 'output', error) }
  }
  try {
    return { kind: 'invalid', error: outputInvalid(tool, { issues: validate(record) ? first : toIssues(validate.errors) }) }
  } catch (thrown) {
    return { kind: 'unreadable', thrown }
  }
}

/**
 * `tool_output_invalid` naming the JSON Pointer of the record's first value that is not plain
 * JSON: the pointer of what was thrown when it is one from the record's root (`pointerFromRoot`),
 * else found by checking the record. When the record passes that check, what was thrown while
 * reading it says why: `too_deep` for a value past the call stack, else `unreadable`.
 */
function notPlainJson(tool: Tool, record: unknown, thrown?: unknown, pointerFromRoot = true): ToolError {
  if (pointerFromRoot && isJsonValueError(thrown) && thrown.pointer !== '') return outputInvalid(tool, { pointer: thrown.pointer, problem: thrown.problem })
  try {
    assertPlainJson(record, RESULT_JSON)
  } catch (error) {
    if (isJsonValueError(error)) return outputInvalid(tool, { pointer: error.pointer, problem: error.problem })
  }
  const problem = isJsonValueError(thrown) ? thrown.problem : thrown instanceof RangeError ? 'too_deep' : 'unreadable'
  return outputInvalid(tool, { pointer: '', problem })
}
