import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { JsonSchema } from '../schema/json-schema.js'
import type { Tool } from '../tool/types.js'
import { FIRST_ERROR_OPTIONS, OPTIONS } from './ajv-options.js'
import { isDraft07Schema } from './draft-07-meta-schema.generated.js'

// ajv-formats is CommonJS: its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv

/** One validation issue, as ajv reports it (JSON Pointers; never the offending value). */
export interface ValidationIssue {
  /** JSON Pointer into the validated value, e.g. `/session_id`. */
  readonly instancePath: string
  /** JSON Pointer (URI fragment) into the schema, e.g. `#/properties/session_id/type`. */
  readonly schemaPath: string
/** The JSON Schema keyword that failed, e.g. `type`, `required`, `enum`. */
  readonly keyword: string
/** ajv's message, e.g. `must be string`. */
  readonly message: string
/** ajv's parameters of the failure, e.g. `{ missingProperty: "id" }` (never the offending value). */
  readonly params: Readonly<Record<string, unknown>>
}

// ownProperties: a property is present only as the value's own (an absent optional `constructor` or a
// required `toString` is never read through Object.prototype). It doubles the cost of validating
// every property, so it is used only for schemas that name a property Object.prototype has.
const OWN_PROPERTY_OPTIONS: Options = { ...OPTIONS, ownProperties: true }
const FIRST_ERROR_OWN_PROPERTY_OPTIONS: Options = { ...OWN_PROPERTY_OPTIONS, allErrors: false }
// loopRequired 0: ajv's unrolled `required` check (its default below 200 keys when it stops at the
// first error) never enforces an empty-string key, `required: [""]` (an ajv 8 defect); its loop
// does, with the same answer for every other key. The loop costs about 2.4 times the unrolled
// check on a realistic record, so it is used only for schemas whose `required` lists "".
const FIRST_ERROR_EMPTY_KEY_OPTIONS: Options = { ...FIRST_ERROR_OPTIONS, loopRequired: 0 }
const FIRST_ERROR_OWN_PROPERTY_EMPTY_KEY_OPTIONS: Options = { ...FIRST_ERROR_OWN_PROPERTY_OPTIONS, loopRequired: 0 }

/** The options of a schema's validator: every error or the first, own properties, the `required` loop. */
function optionsFor(schema: JsonSchema, firstError: boolean): Options {
  const own = namesInheritedProperty(schema)
  if (!firstError) return own ? OWN_PROPERTY_OPTIONS : OPTIONS
  if (requiresEmptyKey(schema)) return own ? FIRST_ERROR_OWN_PROPERTY_EMPTY_KEY_OPTIONS : FIRST_ERROR_EMPTY_KEY_OPTIONS
  return own ? FIRST_ERROR_OWN_PROPERTY_OPTIONS : FIRST_ERROR_OPTIONS
}

/** The instances schemas share, by options; a schema with an `$id` gets its own. */
const shared = new Map<Options, Ajv>()

/**
 * An ajv instance for a schema. Schemas without `$id` share one instance per option set; a schema
 * with an `$id` (TypeBox `Cyclic` puts one in `$defs`) gets its own, since ajv refuses a duplicate
 * `$id`.
 */
function ajvFor(schema: JsonSchema, firstError: boolean): Ajv {
  const options = optionsFor(schema, firstError)
  if (hasId(schema)) return newAjv(options)
  let ajv = shared.get(options)
  if (ajv === undefined) {
    ajv = newAjv(options)
    shared.set(options, ajv)
  }
  return ajv
}

/**
 * An ajv instance with `ajv-formats`. One that reads properties through prototypes (every option
 * set but the own-property ones) checks each schema against the draft-07 meta-schema with the
 * precompiled check (ajv's own code for these options, generated ahead of time): it answers
 * what ajv's `validateSchema` answers, without compiling the meta-schema first (tens of
 * milliseconds of a process's first call). A schema it refuses, or one naming a `$schema`,
 * goes to ajv's own `validateSchema`, which compiles the meta-schema then and throws its usual
 * `schema is invalid: …` error, word for word.
 */
function newAjv(options: Options): Ajv {
  const ajv = addFormats(new Ajv(options))
  if (options.ownProperties === true) return ajv
  const validateSchema = ajv.validateSchema
  ajv.validateSchema = function precompiledValidateSchema(this: Ajv, schema: unknown, throwOrLogError?: boolean): boolean | Promise<unknown> {
    if (typeof schema === 'object' && schema !== null && (schema as { $schema?: unknown }).$schema === undefined && isDraft07Schema(schema)) {
      this.errors = null
      return true
    }
    return validateSchema.call(this, schema as object, throwOrLogError)
  }
  return ajv
}

function hasId(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) return value.some(hasId)
  for (const [key, child] of Object.entries(value)) {
    if (key === '$id' || hasId(child)) return true
  }
  return false
}

/**
 * The names `Object.prototype` answers for (`constructor`, `toString`, `__proto__`...), read once
 * when this module loads: a schema's two validators (first error, every error), compiled at
 * different times, always get the same options, whatever is added to `Object.prototype` later.
 */
const INHERITED_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype))

/**
 * Whether any key or string anywhere in the schema is a name `Object.prototype` answers for
 * (`constructor`, `toString`, `__proto__`...): only then can a plain object seem to hold a
 * property it does not own. Conservative: a `description` that is exactly such a word counts too.
 */
function namesInheritedProperty(value: unknown): boolean {
  if (typeof value === 'string') return INHERITED_NAMES.has(value)
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) return value.some(namesInheritedProperty)
  for (const [key, child] of Object.entries(value)) {
    if (INHERITED_NAMES.has(key) || namesInheritedProperty(child)) return true
  }
  return false
}

/**
 * Whether any `required` list anywhere in the schema holds the empty-string key (`required:
 * [""]`). Conservative: a `required` array under any key counts (ajv reads `required` only where
 * it is a keyword, so counting more only costs speed).
 */
function requiresEmptyKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) return value.some(requiresEmptyKey)
  for (const [key, child] of Object.entries(value)) {
    if (key === 'required' && Array.isArray(child) && child.includes('')) return true
    if (requiresEmptyKey(child)) return true
  }
  return false
}

const compiled = new WeakMap<JsonSchema, ValidateFunction | CompileFailure>()
const compiledFirstError = new WeakMap<JsonSchema, ValidateFunction | CompileFailure>()

/**
 * The validator of a schema, compiled on first use and kept (ajv caches
 * by object identity, so compile once per tool). It reports every error (`allErrors`): give it
 * only values checked to be plain JSON (an array's holes would each be an error). Throws what
 * ajv throws for a schema it rejects, on the first call and on every call after it.
 */
export function validatorFor(schema: JsonSchema): ValidateFunction {
  return compiledFor(schema, compiled, false)
}

/**
 * The validator of a schema that stops at the first error, compiled on first use and kept: the
 * one for a value nobody has checked to be plain JSON (a handler's record on the compact path),
 * since it fails at an array's first hole instead of reporting each. Its answer is the same as
 * {@link validatorFor}'s; only `errors` holds one error at most. Throws what ajv throws for a
 * schema it rejects, on every call.
 */
export function firstErrorValidatorFor(schema: JsonSchema): ValidateFunction {
  return compiledFor(schema, compiledFirstError, true)
}

/** A schema's compile failure, kept so that every later call throws it again. */
class CompileFailure {
  constructor(readonly thrown: unknown) {}
}

/**
 * A schema's compiled validator, or what compiling it threw, on every call. ajv caches a schema
 * before its meta-schema check throws, so compiling a refused schema again on the same instance
 * would succeed: the failure is kept here instead, and the schema is removed from the instance.
 */
function compiledFor(schema: JsonSchema, cache: WeakMap<JsonSchema, ValidateFunction | CompileFailure>, firstError: boolean): ValidateFunction {
  const known = cache.get(schema)
  if (known instanceof CompileFailure) throw known.thrown
  if (known !== undefined) return known
  const ajv = ajvFor(schema, firstError)
  let validate: ValidateFunction
  try {
    validate = ajv.compile(schema as object)
  } catch (thrown) {
    cache.set(schema, new CompileFailure(thrown))
    forget(ajv, schema)
    throw thrown
  }
  cache.set(schema, validate)
  return validate
}

/** Drops a refused schema from an ajv instance, so that it holds nothing of it. */
function forget(ajv: Ajv, schema: JsonSchema): void {
  try {
    ajv.removeSchema(schema as object)
  } catch {
    // A schema ajv cannot remove stays in its cache; the kept failure still answers every call.
  }
}

const searching = new WeakMap<JsonSchema, boolean>()

/**
 * Whether ajv may walk an array of the schema's values past a failing element, even when it stops
 * at the first error: `contains` (and `unevaluatedItems`) look at every element until one fits, so
 * an array of 2 ** 32 - 1 holes is walked whole. Conservative: any key of that name anywhere in
 * the schema counts (a property called `contains` too). Computed once per schema.
 */
export function searchesArrays(schema: JsonSchema): boolean {
  let found = searching.get(schema)
  if (found === undefined) {
    found = hasKey(schema, SEARCHING_KEYWORDS)
    searching.set(schema, found)
  }
  return found
}

const SEARCHING_KEYWORDS: ReadonlySet<string> = new Set(['contains', 'unevaluatedItems'])

function hasKey(value: unknown, keys: ReadonlySet<string>): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) return value.some((item) => hasKey(item, keys))
  for (const [key, child] of Object.entries(value)) {
    if (keys.has(key) || hasKey(child, keys)) return true
  }
  return false
}

/** The schema a handler's record is validated against: the full view, or the single output. */
export function fullSchemaOf(tool: Tool): JsonSchema {
  return tool.kind === 'viewed' ? tool.output.full : tool.output
}

/** ajv's errors as {@link ValidationIssue}s (copied, so later validations cannot change them). */
export function toIssues(errors: readonly ErrorObject[] | null | undefined): ValidationIssue[] {
  return (errors ?? []).map((e) => ({
    instancePath: e.instancePath,
    schemaPath: e.schemaPath,
    keyword: e.keyword,
    message: e.message ?? 'is invalid',
    params: { ...e.params },
  }))
}
