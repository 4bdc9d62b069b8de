import { optionsTable } from '../options/options.js'
import { readTestingOptions } from './testing-options.js'
import type FC from 'fast-check'
import { fc } from './fast-check.js'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { compileProjector, UsageError, type Projector, type ViewedTool } from 'result-views'
import { appendPointer, parsePointer } from '../json/pointer.js'
import { validatorFor } from './ajv-validators.js'
import { jsonSchemaArbitrary, type JsonSchemaArbitraryOptions } from './arbitraries.js'
import { findSubsetViolation, firstDifference, formatValue, snapshotRecord } from './record-compare.js'
import { isViewInvariantError, ViewInvariantError } from './view-invariant-error.js'
import { unescapePointerToken } from '../json/pointer.js'

/** The options the function takes; any other key is refused. */
const CONSISTENCY_OPTIONS = optionsTable(['runs', 'seed', 'maxDepth', 'maxArrayLength'])

/** Options of {@link assertViewsConsistent}. */
export interface ViewsConsistencyOptions extends JsonSchemaArbitraryOptions {
  /** How many full records to generate and project. Integer ≥ 1, default 200. */
  runs?: number
  /** fast-check seed, to replay a failure (the error's `seed`). Default: random. */
  seed?: number
}

/** Default `runs` of {@link assertViewsConsistent}. */
export const DEFAULT_VIEW_CHECK_RUNS = 200

/**
 * Throws a `compact_not_in_full` {@link ViewInvariantError} unless every value of
 * `compactRecord` is in `fullRecord` at the same JSON Pointer with an equal value: objects and
 * arrays of the compact record may hold fewer members than the full record's, scalars must be
 * `===`. Walks the compact record (iteratively); reads own enumerable keys only. For hosts'
 * own tests of records they project.
 *
 * @throws ViewInvariantError (`code: 'view_invariant_violated'`, `reason: 'compact_not_in_full'`)
 *   with `pointer` and `value` of the first compact value not found in the full record.
 */
export function assertCompactSubsetOfFull(compactRecord: unknown, fullRecord: unknown): void {
  const violation = findSubsetViolation(compactRecord, fullRecord)
  if (violation !== undefined) {
    throw new ViewInvariantError({ reason: 'compact_not_in_full', pointer: violation.pointer, value: violation.value, detail: violation.detail })
  }
}

function valueAt(record: unknown, pointer: string): unknown {
  if (pointer === '') return record
  let current = record
  for (const raw of pointer.slice(1).split('/')) {
    const token = unescapePointerToken(raw)
    if (typeof current !== 'object' || current === null || !Object.prototype.hasOwnProperty.call(current, token)) return undefined
    current = (current as Record<string, unknown>)[token]
  }
  return current
}

/** The JSON Pointer of the value an ajv error is about (the extra or missing property for those keywords). */
function errorPointer(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
    return appendPointer(error.instancePath, params['additionalProperty'])
  }
  if (error.keyword === 'required' && typeof params['missingProperty'] === 'string') {
    return appendPointer(error.instancePath, params['missingProperty'])
  }
  return error.instancePath
}

/** Checks one full record; throws a {@link ViewInvariantError} (without run details) on a violation. */
function checkRecord(tool: ViewedTool, full: unknown, validateCompact: ValidateFunction): void {
  // Project a copy, so the generated record (fast-check's counterexample) stays as generated.
  const given = snapshotRecord(full)
  let compact: unknown
  try {
    compact = tool.project(given, 'compact')
  } catch (error) {
    throw new ViewInvariantError({
      reason: 'projection_threw', pointer: '', value: full, toolId: tool.id, cause: error,
      detail: `tool.project(full, 'compact') threw: ${error instanceof Error ? error.message : formatValue(error)}`,
    })
  }
  const mutation = firstDifference(full, given)
  if (mutation !== undefined) {
    throw new ViewInvariantError({
      reason: 'full_record_mutated', pointer: mutation.pointer, value: mutation.after, toolId: tool.id,
      detail: `projecting changed the full record here (it was ${formatValue(mutation.before)})`,
    })
  }
  checkCompact(tool, compact, full, validateCompact, '')
  const rules = Object.keys(tool.omitWhen ?? {})
  if (rules.length === 0) return
  // Both outcomes of every value-dependent rule, whatever the rules answer for this record: the
  // record they all keep (the projection without rules) and the one they all omit.
  const kept = plainProjectorOf(tool)(snapshotRecord(full))
  checkCompact(tool, kept, full, validateCompact, ' (with every omitWhen rule answering false)')
  const omitted = snapshotRecord(kept)
  for (const rule of rules) omitAt(omitted, parsePointer(rule), 0)
  checkCompact(tool, omitted, full, validateCompact, ' (with every omitWhen rule answering true)')
}

/** Checks (a) and (b) of {@link assertViewsConsistent} on one compact record; `variant` names a rules outcome. */
function checkCompact(tool: ViewedTool, compact: unknown, full: unknown, validateCompact: ValidateFunction, variant: string): void {
  if (validateCompact(compact) !== true) {
    const error = validateCompact.errors?.[0]
    const pointer = error === undefined ? '' : errorPointer(error)
    throw new ViewInvariantError({
      reason: 'compact_schema_invalid', pointer, value: valueAt(compact, pointer), toolId: tool.id,
      detail: `the compact record${variant} is invalid under the compact schema: ${error === undefined ? 'rejected' : `${error.keyword} at schema "${error.schemaPath}": ${error.message ?? ''}`}`,
    })
  }
  const violation = findSubsetViolation(compact, full)
  if (violation !== undefined) {
    throw new ViewInvariantError({ reason: 'compact_not_in_full', pointer: violation.pointer, value: violation.value, toolId: tool.id, detail: violation.detail + variant })
  }
}

const plainProjectors = new WeakMap<object, Projector>()

/** The tool's projector without its value-dependent rules, compiled once per tool. */
function plainProjectorOf(tool: ViewedTool): Projector {
  let projector = plainProjectors.get(tool)
  if (projector === undefined) {
    projector = compileProjector(tool.output.compact)
    plainProjectors.set(tool, projector)
  }
  return projector
}

/** Deletes, in place, the property a rule path (`*` for every array item) names wherever it occurs in `value`. */
function omitAt(value: unknown, tokens: readonly string[], depth: number): void {
  if (typeof value !== 'object' || value === null) return
  const token = tokens[depth]!
  if (Array.isArray(value)) {
    if (token === '*') for (const item of value) omitAt(item, tokens, depth + 1)
    return
  }
  if (!Object.hasOwn(value, token)) return
  const record = value as Record<string, unknown>
  if (depth === tokens.length - 1) delete record[token]
  else omitAt(record[token], tokens, depth + 1)
}

function assertViewedTool(tool: ViewedTool): void {
  const candidate = tool as Partial<ViewedTool> | null
  if (
    typeof candidate !== 'object' || candidate === null || typeof candidate.project !== 'function' ||
    typeof candidate.output?.compact !== 'object' || candidate.output.compact === null ||
    typeof candidate.output.full !== 'object' || candidate.output.full === null
  ) {
    const problem = 'expected a viewed tool (output.compact, output.full and project)'
    throw new UsageError({ code: 'testing_argument_invalid', subject: 'assertViewsConsistent tool', problems: [{ path: '', code: 'not_a_viewed_tool', message: problem }], message: `assertViewsConsistent: ${problem}` })
  }
}

/**
 * Property test of a viewed tool's views: generates `runs` full records valid under
 * `tool.output.full` (with {@link jsonSchemaArbitrary}), projects each with
 * `tool.project(full, 'compact')` and checks that (a) the compact record is valid under
 * `tool.output.compact` (ajv, `strict: false`, `allErrors: true`, ajv-formats; each schema
 * compiled once, in its own ajv instance), (b) every compact value is in the full record at
 * the same JSON Pointer with an equal value (as {@link assertCompactSubsetOfFull}), and (c)
 * projecting did not change the full record. A tool with value-dependent compact rules
 * (`omitWhen`, `docs/views.md` "Value-dependent compact rules") is also checked, for (a) and (b),
 * with both outcomes of every rule on every record: all kept (the projection without rules) and
 * all omitted. Runs with `fc.check` (the runner behind
 * `fc.assert`) and shrinks a failure to a small counterexample.
 *
 * @param tool a viewed tool (`kind: 'viewed'`), or any object with `output.compact`,
 *   `output.full` and `project(full, view)`.
 * @param options `runs` (default 200), `seed` (default random), and the generator bounds
 *   `maxDepth` / `maxArrayLength` of {@link jsonSchemaArbitrary}.
 * @throws ViewInvariantError (`code: 'view_invariant_violated'`) on the first violation, with
 *   `reason`, `pointer`, `value`, `seed`, `run`, `counterexamplePath` and the shrunk
 *   `counterexample` (the full record); its message names the pointer and the value.
 * @throws SchemaArbitraryError when the full schema uses a keyword the generator does not support.
 * @throws UsageError (`code: 'testing_argument_invalid'`, a `TypeError`) when `tool` is not a viewed
 *   tool (problem `not_a_viewed_tool`) or `runs` is not an integer ≥ 1 (`invalid_option` at `/runs`).
 */
export function assertViewsConsistent(tool: ViewedTool, options: ViewsConsistencyOptions = {}): void {
  assertViewedTool(tool)
  options = readTestingOptions('assertViewsConsistent', options, CONSISTENCY_OPTIONS) as ViewsConsistencyOptions
  const runs = options.runs ?? DEFAULT_VIEW_CHECK_RUNS
  if (!Number.isInteger(runs) || runs < 1) {
    const problem = `"runs" must be an integer ≥ 1, got ${String(runs)}`
    throw new UsageError({ code: 'testing_argument_invalid', subject: 'assertViewsConsistent options', problems: [{ path: '/runs', code: 'invalid_option', message: problem }], message: `assertViewsConsistent: ${problem}` })
  }
  const generatorOptions: JsonSchemaArbitraryOptions = {}
  if (options.maxDepth !== undefined) generatorOptions.maxDepth = options.maxDepth
  if (options.maxArrayLength !== undefined) generatorOptions.maxArrayLength = options.maxArrayLength
  const fullRecords = jsonSchemaArbitrary(tool.output.full, generatorOptions)
  const validateCompact = validatorFor(tool.output.compact)
  const property = fc.property(fullRecords, (full) => checkRecord(tool, full, validateCompact))
  const details = fc.check(property, options.seed === undefined ? { numRuns: runs } : { numRuns: runs, seed: options.seed })
  if (!details.failed) return
  const failure = details.errorInstance
  if (!isViewInvariantError(failure)) {
    throw failure ?? new RangeError(`assertViewsConsistent: the property did not complete (seed ${details.seed}, ${details.numRuns} runs)`)
  }
  const path = details.counterexamplePath ?? undefined
  throw new ViewInvariantError({
    ...failure.toInit(),
    seed: details.seed,
    run: path === undefined ? details.numRuns - 1 : Number(path.split(':')[0]),
    ...(path === undefined ? {} : { counterexamplePath: path }),
    counterexample: details.counterexample?.[0],
  })
}
