import { setOwn } from '../json/clone.js'
import type { ArrayShape, CompactShape, ObjectShape, UnionDispatch, UnionShape, ValueShape } from '../schema/compact-shape.js'
import { ARRAY, OBJECT } from '../schema/type-mask.js'
import { assertPlainJson, RESULT_JSON } from '../json/canonical.js'
import { ownJsonCopy } from '../json/own-copy.js'
import type { UsageError } from '../errors/usage-error.js'
import { schemaArgumentInvalid } from '../schema/schema-argument-error.js'
import { assertPlainObject, jsonLeaf } from './json-leaf.js'
import { objectProjector } from './object-projector.js'
import type { Parts, Structured } from './parts.js'

const hasOwn = Object.prototype.hasOwnProperty

/** Objects where the compact view allows none (invalid input): nothing leaks, the result is `{}`. */
// An object where the compact types have no object (only a record that does not fit them, which
// the dispatcher has refused by the full schema before): nothing of it is copied, and one that is
// not plain (a Date, a boxed String, a class instance) is refused as anywhere else.
const stripObject: Structured = (value) => (assertPlainObject(value as object), {})
/** Arrays where the compact view allows none (invalid input): the result is `[]`. */
const stripArray: Structured = () => []
// A checked copy: a non-JSON value (a Date, a class instance) is never normalized into a plain one.
// Strings are taken as they are, as everywhere in a result.
const copyStructured: Structured = (value) => ownJsonCopy(value, RESULT_JSON)

/** A position that allows no object or array (scalars or nothing). */
const EMPTY: Parts = { objects: stripObject, arrays: stripArray }

/**
 * Compiles compact shapes into projection functions, once per tool. Each shape compiles once;
 * a recursive schema compiles to functions that call each other through forwarding functions.
 */
export class PlanCompiler {
  readonly #done = new Map<CompactShape, Parts>()
  readonly #open = new Map<CompactShape, { parts: Parts }>()

  /** The function projecting non-null objects and arrays at a position with this shape. */
  structured(shape: CompactShape): Structured {
    const { objects, arrays } = this.parts(shape)
    if (objects === copyStructured && arrays === copyStructured) return copyStructured
    return (value) => (Array.isArray(value) ? arrays(value) : objects(value))
  }

  /** The functions projecting non-array objects and arrays at a position with this shape. */
  parts(shape: CompactShape): Parts {
    const done = this.#done.get(shape)
    if (done !== undefined) return done
    const open = this.#open.get(shape)
    if (open !== undefined) return { objects: (value) => open.parts.objects(value), arrays: (value) => open.parts.arrays(value) }
    const cell = { parts: { objects: copyStructured, arrays: copyStructured } }
    this.#open.set(shape, cell)
    const parts = this.#compile(shape)
    cell.parts = parts
    this.#open.delete(shape)
    this.#done.set(shape, parts)
    return parts
  }

  #compile(shape: CompactShape): Parts {
    switch (shape.kind) {
      case 'any':
        return { objects: copyStructured, arrays: copyStructured }
      case 'never':
        return EMPTY
      case 'value': {
        const objects = this.#objectOf(shape)
        const arrays = this.#arrayOf(shape)
        return objects === stripObject && arrays === stripArray ? EMPTY : { objects, arrays }
      }
      case 'union':
        return { objects: this.#unionObjects(shape, shape.objects), arrays: this.#unionArrays(shape, shape.arrays) }
    }
  }

  #objectOf(shape: ValueShape): Structured {
    if ((shape.types & OBJECT) === 0) return stripObject
    return shape.object === 'opaque' ? copyStructured : this.#object(shape.object)
  }

  #arrayOf(shape: ValueShape): Structured {
    if ((shape.types & ARRAY) === 0) return stripArray
    return shape.array === 'opaque' ? copyStructured : this.#array(shape.array)
  }

  #unionObjects(union: UnionShape, dispatch: UnionDispatch): Structured {
    switch (dispatch.mode) {
      case 'none':
        return stripObject
      case 'copy':
        return copyStructured
      case 'single':
        return this.parts(dispatch.branch).objects
      case 'ambiguous':
        throw ambiguousUnion(union, 'object branches and no required literal tag property (same key, distinct values) to choose one by')
      case 'tag': {
        const { key } = dispatch
        const byTag = new Map<unknown, Structured>()
        for (const [tag, branch] of dispatch.byTag) byTag.set(tag, this.parts(branch).objects)
        return (value) => {
          assertPlainObject(value)
          const tag = hasOwn.call(value, key) ? (value as Record<string, unknown>)[key] : undefined
          // A tag no branch has gives an empty object; one that is not JSON (a Date, NaN, a
          // function) is refused as at any other position.
          if (typeof tag === 'object' && tag !== null) assertPlainJson(tag, RESULT_JSON)
          else if (tag !== undefined) jsonLeaf(tag)
          const fn = tag === undefined ? undefined : byTag.get(tag)
          return fn === undefined ? {} : fn(value)
        }
      }
    }
  }

  #unionArrays(union: UnionShape, dispatch: UnionDispatch): Structured {
    switch (dispatch.mode) {
      case 'none':
        return stripArray
      case 'single':
        return this.parts(dispatch.branch).arrays
      case 'ambiguous':
      case 'tag':
        throw ambiguousUnion(union, 'array branches with different items')
      default:
        return copyStructured
    }
  }

  #object(object: ObjectShape): Structured {
    const keys = object.properties.map((p) => p.key)
    const parts = object.properties.map((p) => this.parts(p.shape))
    const declared = objectProjector(keys, object.properties.map((p) => p.required), parts)
    const pattern = object.pattern
    if (pattern === undefined) return declared
    const known = new Set(keys)
    const { regex } = pattern
    const sub = this.structured(pattern.shape)
    return (value) => {
      const source = value as Record<string, unknown>
      const out = declared(value) as Record<string, unknown>
      for (const key of Object.keys(source)) {
        if (known.has(key) || !regex.test(key)) continue
        let item = source[key]
        if (item === undefined) continue
        if (typeof item === 'object' && item !== null) item = sub(item)
        else jsonLeaf(item)
        setOwn(out, key, item)
      }
      return out
    }
  }

  #array(array: ArrayShape): Structured {
    const prefix = array.prefix.map((e) => this.parts(e.shape))
    const rest = array.rest === undefined ? undefined : this.parts(array.rest.shape)
    const fixed = prefix.length
    if (fixed === 0 && rest !== undefined) {
      const { objects, arrays } = rest
      return (value) => {
        const source = value as unknown[]
        const length = source.length
        const out: unknown[] = new Array(length)
        for (let i = 0; i < length; i++) {
          const item = source[i]
          out[i] = typeof item === 'object' && item !== null ? (Array.isArray(item) ? arrays(item) : objects(item)) : jsonLeaf(item)
        }
        return out
      }
    }
    return (value) => {
      const source = value as unknown[]
      // Elements past a closed tuple are not allowed (invalid input): they are dropped, not leaked.
      const length = rest === undefined ? Math.min(source.length, fixed) : source.length
      const out: unknown[] = new Array(length)
      for (let i = 0; i < length; i++) {
        const item = source[i]
        if (typeof item === 'object' && item !== null) {
          const parts = i < fixed ? prefix[i]! : rest!
          out[i] = Array.isArray(item) ? parts.arrays(item) : parts.objects(item)
        } else out[i] = jsonLeaf(item)
      }
      return out
    }
  }
}

/** A union the projector cannot choose a branch of (`schema_argument_invalid` / `union_not_discriminated`). */
function ambiguousUnion(union: UnionShape, what: string): UsageError {
  const problem = `the union at "${union.pointer}" of the compact schema has several ${what}; projection would be ambiguous`
  return schemaArgumentInvalid(`compileProjector: ${problem}`, { path: union.pointer, code: 'union_not_discriminated', message: problem })
}
