import { optionsTable } from '../options/options.js'
import { readTestingOptions } from './testing-options.js'
import type FC from 'fast-check'
import { fc } from './fast-check.js'
import type { TSchema } from 'typebox'
import { UsageError, type JsonSchema } from 'result-views'
import { cloneJson } from '../json/clone.js'
import { appendPointer } from '../json/pointer.js'
import { createAjv } from './ajv-validators.js'
import { arrayArbitrary, objectArbitrary } from './arbitrary-containers.js'
import {
  childAt, probedFilter, unionOf, type CompileContext, type Location, type MaybeArbitrary,
} from './arbitrary-context.js'
import { integerArbitrary, numberArbitrary, stringArbitrary } from './arbitrary-scalars.js'
import { SchemaArbitraryError } from './schema-arbitrary-error.js'
import { isSchemaObject, rejectUnsupportedKeywords, validationSiblings } from './schema-keywords.js'
import { indexIds, resolveRef, type SchemaResource } from './schema-refs.js'
import { unescapePointerToken } from '../json/pointer.js'

/** The options the function takes; any other key is refused. */
const ARBITRARY_OPTIONS = optionsTable(['maxDepth', 'maxArrayLength'])

/** Options of {@link jsonSchemaArbitrary}. */
export interface JsonSchemaArbitraryOptions {
  /**
   * How many times one `$ref` target may be expanded along one path of a value (recursion
   * bound; deeper, recursive branches are cut: arrays end, optional properties stay absent,
   * union branches drop out). Also the depth of values generated for `{}`. Integer ≥ 1, default 4.
   */
  maxDepth?: number
  /** How many items an array may hold beyond `minItems` (or its tuple prefix); also the most extra object keys. Integer ≥ 0, default 4. */
  maxArrayLength?: number
}

/** Default `maxDepth` of {@link jsonSchemaArbitrary}. */
export const DEFAULT_MAX_DEPTH = 4
/** Default `maxArrayLength` of {@link jsonSchemaArbitrary}. */
export const DEFAULT_MAX_ARRAY_LENGTH = 4

const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'patternProperties']
const ARRAY_KEYWORDS = ['items', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems']
const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format']
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']
const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']

/** The key the root schema is registered under in the generator's own ajv instance. */
const ROOT_KEY = 'result-views:arbitrary-root'

function readOption(value: number | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < min) {
    const problem = `option "${name}" must be an integer ≥ ${min}, got ${String(value)}`
    throw new UsageError({ code: 'testing_argument_invalid', subject: 'jsonSchemaArbitrary options', problems: [{ path: `/${name}`, code: 'invalid_option', message: problem }], message: `jsonSchemaArbitrary: ${problem}` })
  }
  return value
}

function lastToken(pointer: string): string {
  return unescapePointerToken(pointer.slice(pointer.lastIndexOf('/') + 1))
}

/**
 * A fast-check arbitrary of values valid under a plain JSON Schema (the subset TypeBox 1.x
 * emits, as a TypeBox schema or as its JSON copy). The schema is walked and compiled into
 * arbitraries once, here; sampling never re-reads the schema.
 *
 * Supported: `type` (`string`, `number`, `integer`, `boolean`, `null`, `object`, `array`, or an
 * array of them; when absent it is inferred from the keywords present, and `{}`/`true` give any
 * JSON value via `fc.jsonValue`); `properties`, `required` (optional properties absent about a
 * third of the time), `additionalProperties` (`false`: no extra keys; absent, `true` or a
 * schema: sometimes extra keys, valid under that schema), `patternProperties`; `items`
 * (schema, or draft-07 tuple array with `additionalItems`, as TypeBox `Tuple` emits), `minItems`,
 * `maxItems`, `uniqueItems`; `enum`, `const` (checked against sibling keywords with ajv);
 * `anyOf`; `oneOf` (values are filtered with ajv to match exactly one branch); `$ref` to
 * `#`, `#/json/pointer` (e.g. `#/$defs/X`, `#/definitions/X`) or to an `$id` (TypeBox `Cyclic`:
 * `{"$defs":{"Node":{…,"$id":"Node"}},"$ref":"Node"}`); `minLength`, `maxLength`, `pattern`
 * (`fc.stringMatching`), `format` (`date-time`, `date`, `time`, `uuid`, `email`, `uri`, `ipv4`,
 * `ipv6`, `hostname`; another format only beside a `pattern`); `minimum`, `maximum`,
 * `exclusiveMinimum`, `exclusiveMaximum` (numeric form), `multipleOf`. Annotations (`title`,
 * `description`, `default`, `examples`, ...) and keys that are no JSON Schema keyword are ignored.
 *
 * Not supported (throws): `allOf`, `not`, `if`/`then`/`else`, `dependentSchemas`,
 * `dependentRequired`, `dependencies`, `propertyNames`, `minProperties`, `maxProperties`,
 * `contains`, `unevaluated*`, `$anchor`, `$dynamicRef`, `$recursiveRef`, `nullable`, and
 * `prefixItems` (this library validates with ajv's default draft-07 dialect, which ignores it);
 * `anyOf`/`oneOf`/`$ref` beside other validation keywords; unknown formats without a pattern.
 *
 * Generated objects are plain objects whose keys are defined with `Object.defineProperty`, so
 * `__proto__` is an own key when generated (extra keys include it now and then). Strings are mostly
 * printable ASCII, sometimes any code point (never a lone surrogate). Numbers are finite.
 *
 * @param schema a JSON Schema object (a TypeBox schema or its plain JSON copy) or a boolean schema.
 * @param options bounds, see {@link JsonSchemaArbitraryOptions}.
 * @returns an arbitrary whose every value is valid under `schema` per ajv (`strict: false`, ajv-formats).
 * @throws SchemaArbitraryError (a `TypeError`, `code: 'schema_arbitrary_unsupported'`) naming the
 *   keyword and its JSON Pointer, for an unsupported keyword or combination, an invalid keyword
 *   value, an unresolved `$ref`, or a schema with no valid value within the bounds.
 * @throws UsageError (`code: 'testing_argument_invalid'`, problem `invalid_option` at `/<option>`) for
 *   an option that is not an integer in range.
 */
export function jsonSchemaArbitrary(schema: JsonSchema | TSchema | boolean, options: JsonSchemaArbitraryOptions = {}): FC.Arbitrary<unknown> {
  options = readTestingOptions('jsonSchemaArbitrary', options, ARBITRARY_OPTIONS) as JsonSchemaArbitraryOptions
  const maxDepth = readOption(options.maxDepth, 'maxDepth', DEFAULT_MAX_DEPTH, 1)
  const maxArrayLength = readOption(options.maxArrayLength, 'maxArrayLength', DEFAULT_MAX_ARRAY_LENGTH, 0)
  const root: unknown = schema
  if (typeof root === 'boolean') return root ? fc.jsonValue({ maxDepth }) : unsatisfiable('')
  if (!isSchemaObject(root)) {
    throw new SchemaArbitraryError('invalid_keyword_value', '', '', 'the schema must be an object or a boolean')
  }
  const ids = indexIds(root)
  const memo = new Map<string, MaybeArbitrary>()
  const validators = new Map<string, (value: unknown) => boolean>()
  let ajv: ReturnType<typeof createAjv> | undefined

  const ctx: CompileContext = {
    maxDepth,
    maxArrayLength,
    anyJson: fc.jsonValue({ maxDepth }),
    compile,
    validator(pointer) {
      let validate = validators.get(pointer)
      if (validate === undefined) {
        if (ajv === undefined) {
          ajv = createAjv()
          ajv.addSchema(root, ROOT_KEY)
        }
        const fragment = pointer.split('/').map((token) => encodeURIComponent(token)).join('/')
        const compiled = ajv.getSchema(`${ROOT_KEY}#${fragment}`)
        if (compiled === undefined) {
          throw new SchemaArbitraryError('unresolved_ref', lastToken(pointer), pointer, 'ajv cannot resolve this subschema')
        }
        validate = (value) => compiled(value) === true
        validators.set(pointer, validate)
      }
      return validate
    },
  }

  function compile(subschema: unknown, at: Location): MaybeArbitrary {
    if (subschema === true) return ctx.anyJson
    if (subschema === false) return undefined
    if (!isSchemaObject(subschema)) {
      throw new SchemaArbitraryError('invalid_keyword_value', lastToken(at.pointer), at.pointer,
        'a subschema must be an object or a boolean')
    }
    rejectUnsupportedKeywords(subschema, at.pointer)
    const here: Location = typeof subschema['$id'] === 'string' && at.base.pointer !== at.pointer
      ? { ...at, base: { schema: subschema, pointer: at.pointer } }
      : at
    if (subschema['$ref'] !== undefined) return compileRef(subschema, here)
    if (subschema['anyOf'] !== undefined || subschema['oneOf'] !== undefined) return compileComposition(subschema, here)
    if (subschema['enum'] !== undefined || Object.prototype.hasOwnProperty.call(subschema, 'const')) return compileConstants(subschema, here)
    return compileTypes(subschema, here)
  }

  function rejectSiblings(subschema: JsonSchema, keyword: string, pointer: string): void {
    const sibling = validationSiblings(subschema, [keyword])[0]
    if (sibling !== undefined) {
      const at = appendPointer(pointer, sibling)
      throw new SchemaArbitraryError('unsupported_combination', sibling, at, `"${sibling}" beside "${keyword}" is not supported`)
    }
  }

  function compileRef(subschema: JsonSchema, at: Location): MaybeArbitrary {
    rejectSiblings(subschema, '$ref', at.pointer)
    const ref = subschema['$ref']
    if (typeof ref !== 'string') {
      throw new SchemaArbitraryError('invalid_keyword_value', '$ref', appendPointer(at.pointer, '$ref'), '"$ref" must be a string')
    }
    const target = resolveRef(ref, at.pointer, at.base, ids)
    const expansions = at.recursion.get(target.pointer) ?? 0
    if (expansions >= maxDepth) return undefined
    const recursion = new Map(at.recursion).set(target.pointer, expansions + 1)
    const key = `${target.pointer}|${[...recursion].map(([pointer, count]) => `${pointer}=${count}`).sort().join(',')}`
    if (memo.has(key)) return memo.get(key)
    const compiled = compile(target.schema, { pointer: target.pointer, base: target.base, recursion })
    memo.set(key, compiled)
    return compiled
  }

  function compileComposition(subschema: JsonSchema, at: Location): MaybeArbitrary {
    const keyword = subschema['oneOf'] !== undefined ? 'oneOf' : 'anyOf'
    rejectSiblings(subschema, keyword, at.pointer)
    const branches = subschema[keyword]
    if (!Array.isArray(branches) || branches.length === 0) {
      throw new SchemaArbitraryError('invalid_keyword_value', keyword, appendPointer(at.pointer, keyword), `"${keyword}" must be a non-empty array of schemas`)
    }
    const arbitraries = branches.map((branch, index) => compile(branch, childAt(at, keyword, index)))
    const union = unionOf(arbitraries)
    if (keyword === 'anyOf' || union === undefined) return union
    const matchers = branches.map((_, index) => ctx.validator(appendPointer(at.pointer, keyword, index)))
    const matchesExactlyOne = (value: unknown): boolean => {
      let matches = 0
      for (const matcher of matchers) if (matcher(value) && ++matches > 1) return false
      return matches === 1
    }
    return probedFilter(union, matchesExactlyOne, 'oneOf', at.pointer, 'match exactly one "oneOf" branch')
  }

  function compileConstants(subschema: JsonSchema, at: Location): MaybeArbitrary {
    const useConst = Object.prototype.hasOwnProperty.call(subschema, 'const')
    const keyword = useConst ? 'const' : 'enum'
    let candidates: unknown[]
    if (useConst) {
      candidates = [subschema['const']]
    } else {
      const values = subschema['enum']
      if (!Array.isArray(values)) {
        throw new SchemaArbitraryError('invalid_keyword_value', 'enum', appendPointer(at.pointer, 'enum'), '"enum" must be an array')
      }
      candidates = values
    }
    if (validationSiblings(subschema, [keyword]).length > 0) candidates = candidates.filter(ctx.validator(at.pointer))
    if (candidates.length === 0) return undefined
    const chosen = candidates
    return fc.integer({ min: 0, max: chosen.length - 1 }).map((index) => cloneJson(chosen[index]))
  }

  function compileTypes(subschema: JsonSchema, at: Location): MaybeArbitrary {
    const declared = subschema['type']
    let types: string[]
    if (declared === undefined) {
      const present = (keywords: string[]): boolean => keywords.some((keyword) => subschema[keyword] !== undefined)
      types = [
        ...(present(OBJECT_KEYWORDS) ? ['object'] : []),
        ...(present(ARRAY_KEYWORDS) ? ['array'] : []),
        ...(present(STRING_KEYWORDS) ? ['string'] : []),
        ...(present(NUMBER_KEYWORDS) ? ['number'] : []),
      ]
      if (types.length === 0) return ctx.anyJson
    } else {
      types = typeof declared === 'string' ? [declared] : Array.isArray(declared) ? declared : []
      const unknown = types.find((type) => !TYPES.includes(type))
      if (types.length === 0 || unknown !== undefined) {
        throw new SchemaArbitraryError('invalid_keyword_value', 'type', appendPointer(at.pointer, 'type'),
          `"type" must be one of ${TYPES.join(', ')} or an array of them, got ${JSON.stringify(declared)}`)
      }
    }
    return unionOf(types.map((type) => {
      switch (type) {
        case 'string': return stringArbitrary(subschema, at.pointer)
        case 'number': return numberArbitrary(subschema, at.pointer)
        case 'integer': return integerArbitrary(subschema, at.pointer)
        case 'boolean': return fc.boolean()
        case 'null': return fc.constant(null)
        case 'object': return objectArbitrary(ctx, subschema, at)
        default: return arrayArbitrary(ctx, subschema, at)
      }
    }))
  }

  const base: SchemaResource = { schema: root, pointer: '' }
  return compile(root, { pointer: '', base, recursion: new Map() }) ?? unsatisfiable('')
}

function unsatisfiable(pointer: string): never {
  throw new SchemaArbitraryError('unsatisfiable', '', pointer,
    'no value is valid under the schema within the bounds (maxDepth, maxArrayLength); a required property or item may recurse without end')
}
