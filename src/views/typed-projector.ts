import type { ArrayShape, CompactShape, ObjectShape, UnionShape, ValueShape } from '../schema/compact-shape.js'
import { ARRAY, BOOLEAN, FRACTION, INTEGER, NULL, OBJECT, STRING } from '../schema/type-mask.js'
import { jsonLeaf, jsonLeafTest } from './json-leaf.js'
import type { Structured } from './parts.js'
import type { PlanCompiler } from './projection-plan.js'

/**
 * The typed projector: one function generated for a whole compact schema, its code shaped by the
 * schema (a `typeof` test for the type a position declares, a plain loop for an array, an
 * `if`/`else` on the literal tag of a union, object literals of the required keys then the
 * optional ones), so that projecting a record that fits the schema costs what a hand-written pick
 * costs.
 *
 * It handles what records usually hold and hands everything else back: a value of another type
 * than its position declares, a required key that is absent, an object that is not plain, an
 * `undefined` array element or a hole, a tag no branch has, a getter that throws, anything a
 * position copied whole refuses. Then the whole record is projected again by the general
 * projector (`projection-plan.ts`), which gives the same result for every record this one
 * accepts (a property test compares them) and names what is wrong with the others. Positions
 * it does not type (tuples, `patternProperties`, keys `Object.prototype` also has, `false`
 * schemas) call the general projector's function for that position.
 */
export type TypedProjector = (full: unknown) => unknown

/** What generated code throws to hand a record back to the general projector. */
const HAND_BACK: unique symbol = Symbol('project generally')

/** Most object, array and union shapes inlined into one generated function; past it, a position gets a function of its own. */
const MAX_INLINED_SHAPES = 64
/** Deepest nesting inlined into one generated function. */
const MAX_INLINE_DEPTH = 12

type Factory = (bound: readonly unknown[], handBack: symbol, proto: object, hasOwn: typeof Object.prototype.hasOwnProperty) => TypedProjector

/**
 * The typed projector of `root`, or `undefined` where code generation is not available (`new
 * Function` blocked by a content security policy or `--disallow-code-generation-from-strings`).
 *
 * @param root - the compact schema's shape (already checked: no blocking issue).
 * @param plans - the general projector's compiler, for the positions this one does not type.
 * @param general - the general projector of the whole schema, for records this one hands back.
 */
export function typedProjector(root: CompactShape, plans: PlanCompiler, general: TypedProjector): TypedProjector | undefined {
  const emitter = new Emitter(plans)
  const body = emitter.program(root)
  let factory: Factory
  try {
    // Keys enter the code only as JSON string literals (never `__proto__` in a literal: such keys are handed to the general projector).
    factory = new Function('B', 'X', 'P', 'h', body) as Factory
  } catch {
    return undefined
  }
  const typed = factory([general, ...emitter.bound], HAND_BACK, Object.prototype, Object.prototype.hasOwnProperty)
  return typed
}

interface Inline {
  readonly path: ReadonlySet<CompactShape>
  readonly depth: number
}

/** Writes the generated program: the bindings, one function per out-of-line position, the entry. */
class Emitter {
  /** Values the code refers to as `B[i + 1]` (`B[0]` is the general projector). */
  readonly bound: unknown[] = []
  readonly #boundNames = new Map<unknown, string>()
  /** Out-of-line functions by position shape, and their code. */
  readonly #functions = new Map<CompactShape, string>()
  readonly #functionCode: string[] = []
  #names = 0
  /** Object, array and union shapes inlined into the function being written. */
  #inlined = 0

  constructor(readonly plans: PlanCompiler) {}

  program(root: CompactShape): string {
    const entry = this.#functionBody(root)
    const bindings = this.bound.map((_, i) => `const b${i + 1} = B[${i + 1}];`).join('\n')
    return `"use strict";\nconst G = B[0];\n${bindings}\n${this.#functionCode.join('\n')}\nreturn function projectTyped(s) {\ntry {\n${entry}\nreturn r;\n} catch (e) {\nreturn G(s);\n}\n};`
  }

  /** Statements that set `r` to the projection of `s` at `shape`, in a function of their own. */
  #functionBody(shape: CompactShape): string {
    const saved = this.#inlined
    this.#inlined = 0
    const code = `let r;\n${this.#value(shape, 's', 'r', { path: new Set(), depth: 0 })}`
    this.#inlined = saved
    return code
  }

  #name(prefix: string): string {
    return `${prefix}${this.#names++}`
  }

  /** A binding for `value` (each value bound once). */
  #bind(value: unknown): string {
    let name = this.#boundNames.get(value)
    if (name === undefined) {
      this.bound.push(value)
      name = `b${this.bound.length}`
      this.#boundNames.set(value, name)
    }
    return name
  }

  /** The general projector's function for every value at `shape` (scalars included). */
  #general(shape: CompactShape): string {
    const { objects, arrays } = this.plans.parts(shape)
    const position = (value: unknown): unknown =>
      typeof value === 'object' && value !== null ? (Array.isArray(value) ? arrays(value) : objects(value)) : jsonLeaf(value)
    return this.#bind(position)
  }

  /** The general projector's function for objects (or arrays) at `shape`. */
  #generalPart(shape: CompactShape, part: 'objects' | 'arrays'): string {
    const fn: Structured = this.plans.parts(shape)[part]
    return this.#bind(fn)
  }

  /** Statements that set `dst` to the projection of `src` (never `undefined`) at `shape`. */
  #value(shape: CompactShape, src: string, dst: string, inline: Inline): string {
    switch (shape.kind) {
      case 'any':
        return `if (typeof ${src} === "object") ${dst} = ${src} === null ? null : ${this.#generalPart(shape, 'objects')}(${src});\n` +
          `else if (${jsonLeafTest(src)}) ${dst} = ${src};\nelse throw X;`
      case 'never':
        return `${dst} = ${this.#general(shape)}(${src});`
    }
    // A shape met again on the way down (a recursive schema), or past the size bounds, gets a function of its own.
    const structured = shape.kind === 'union' || (shape.types & (OBJECT | ARRAY)) !== 0
    if (structured && (inline.path.has(shape) || inline.depth >= MAX_INLINE_DEPTH || this.#inlined >= MAX_INLINED_SHAPES)) return `${dst} = ${this.#outOfLine(shape)}(${src});`
    if (structured) this.#inlined++
    const inner: Inline = { path: new Set(inline.path).add(shape), depth: inline.depth + 1 }
    return shape.kind === 'value' ? this.#valueShape(shape, src, dst, inner) : this.#union(shape, src, dst, inner)
  }

  /** The scalar tests of a type mask, each copying the value as it is; `else` hands back. */
  #scalars(types: number, src: string, dst: string): string[] {
    const tests: string[] = []
    if (types & STRING) tests.push(`if (typeof ${src} === "string") ${dst} = ${src};`)
    if (types & (INTEGER | FRACTION)) tests.push(`if (typeof ${src} === "number") { if (${src} - ${src} !== 0) throw X; ${dst} = ${src}; }`)
    if (types & BOOLEAN) tests.push(`if (typeof ${src} === "boolean") ${dst} = ${src};`)
    if (types & NULL) tests.push(`if (${src} === null) ${dst} = null;`)
    return tests
  }

  #valueShape(shape: ValueShape, src: string, dst: string, inline: Inline): string {
    const tests = this.#scalars(shape.types, src, dst)
    if (shape.types & OBJECT) {
      tests.push(`if (typeof ${src} === "object" && ${src} !== null && !Array.isArray(${src})) {\n${this.#objectPart(shape, src, dst, inline)}\n}`)
    }
    if (shape.types & ARRAY) tests.push(`if (Array.isArray(${src})) {\n${this.#arrayPart(shape, src, dst, inline)}\n}`)
    return chain(tests)
  }

  /** Objects of a value shape: field by field, copied whole (`opaque`), or by the general projector. */
  #objectPart(shape: ValueShape, src: string, dst: string, inline: Inline): string {
    if (shape.object === 'opaque') return `${dst} = ${this.#generalPart(shape, 'objects')}(${src});`
    if (!typable(shape.object)) return `${dst} = ${this.#generalPart(shape, 'objects')}(${src});`
    return this.#object(shape.object, src, dst, inline)
  }

  #arrayPart(shape: ValueShape, src: string, dst: string, inline: Inline): string {
    if (shape.array === 'opaque') return `${dst} = ${this.#generalPart(shape, 'arrays')}(${src});`
    const array: ArrayShape = shape.array
    if (array.prefix.length > 0 || array.rest === undefined) return `${dst} = ${this.#generalPart(shape, 'arrays')}(${src});`
    const n = this.#name('n')
    const out = this.#name('o')
    const i = this.#name('i')
    const item = this.#name('e')
    const projected = this.#name('p')
    return `const ${n} = ${src}.length, ${out} = [];\nfor (let ${i} = 0; ${i} < ${n}; ${i}++) {\n` +
      // A hole reads as undefined: it is handed back at its index, before anything past it.
      `const ${item} = ${src}[${i}]; if (${item} === undefined) throw X;\nlet ${projected};\n${this.#value(array.rest.shape, item, projected, inline)}\n${out}.push(${projected});\n}\n${dst} = ${out};`
  }

  /** The function projecting a value at `shape`, generated once, out of line (recursion, size). */
  #outOfLine(shape: CompactShape): string {
    let name = this.#functions.get(shape)
    if (name === undefined) {
      name = this.#name('f')
      this.#functions.set(shape, name)
      this.#functionCode.push(`function ${name}(s) {\n${this.#functionBody(shape)}\nreturn r;\n}`)
    }
    return name
  }

  /** Statements projecting the plain object `src` field by field into `dst`. */
  #object(object: ObjectShape, src: string, dst: string, inline: Inline): string {
    // Only a plain object is read field by field. The prototype is checked right after the first
    // read (before any call), where the compiler knows the object's map and answers the check
    // without calling Object.getPrototypeOf.
    const plain = `{ const q = Object.getPrototypeOf(${src}); if (q !== P && q !== null) throw X; }`
    const lines = object.properties.length === 0 ? [plain] : []
    const required: string[] = []
    const optional: string[] = []
    const values = new Map<string, string>()
    for (const property of object.properties) {
      const k = JSON.stringify(property.key)
      const read = this.#name('a')
      const value = this.#name('w')
      values.set(property.key, value)
      // An inherited value (a polluted Object.prototype) is not the record's: absent, as it is generally.
      lines.push(`let ${read} = ${src}[${k}];`)
      if (lines.length === 1) lines.push(plain)
      lines.push(`if (${read} !== undefined && ${read} === P[${k}] && !h.call(${src}, ${k})) ${read} = undefined;`)
      if (property.required) {
        lines.push(`if (${read} === undefined) throw X;\nlet ${value};\n${this.#value(property.shape, read, value, inline)}`)
        required.push(property.key)
      } else {
        lines.push(`let ${value};\nif (${read} !== undefined) {\n${this.#value(property.shape, read, value, inline)}\n}`)
        optional.push(property.key)
      }
    }
    // Required keys first, then optional ones, each in declaration order (as the general projector).
    const entries = (keys: readonly string[]): string => keys.map((key) => `${JSON.stringify(key)}: ${values.get(key)!}`).join(', ')
    if (optional.length === 0) {
      lines.push(`${dst} = { ${entries(required)} };`)
    } else {
      const all = optional.map((key) => `${values.get(key)!} !== undefined`).join(' && ')
      const stores = optional.map((key) => `if (${values.get(key)!} !== undefined) ${dst}[${JSON.stringify(key)}] = ${values.get(key)!};`).join('\n')
      lines.push(`if (${all}) ${dst} = { ${entries([...required, ...optional])} };\nelse {\n${dst} = { ${entries(required)} };\n${stores}\n}`)
    }
    return lines.join('\n')
  }

  #union(union: UnionShape, src: string, dst: string, inline: Inline): string {
    // Scalars are copied as they are, whatever the branches (as the general projector does).
    const tests = this.#scalars(STRING | INTEGER | FRACTION | BOOLEAN | NULL, src, dst)
    const objects = union.objects
    switch (objects.mode) {
      case 'copy':
        tests.push(`if (typeof ${src} === "object" && ${src} !== null && !Array.isArray(${src})) ${dst} = ${this.#generalPart(union, 'objects')}(${src});`)
        break
      case 'single':
        tests.push(`if (typeof ${src} === "object" && ${src} !== null && !Array.isArray(${src})) {\n${this.#objectPart(objects.branch, src, dst, inline)}\n}`)
        break
      case 'tag': {
        const literals = [...objects.byTag.keys()]
        if (!literals.every(isScalarLiteral)) {
          tests.push(`if (typeof ${src} === "object" && ${src} !== null && !Array.isArray(${src})) ${dst} = ${this.#generalPart(union, 'objects')}(${src});`)
          break
        }
        const k = JSON.stringify(objects.key)
        const tag = this.#name('t')
        const branches = [...objects.byTag].map(([literal, branch]) => `if (${tag} === ${JSON.stringify(literal)}) {\n${this.#objectPart(branch, src, dst, inline)}\n}`)
        // The tag counts only as the own property of a plain object (checked right after reading it, as above).
        tests.push(
          `if (typeof ${src} === "object" && ${src} !== null && !Array.isArray(${src})) {\n` +
            `let ${tag} = ${src}[${k}];\n{ const q = Object.getPrototypeOf(${src}); if (q !== P && q !== null) throw X; }\n` +
            `if (${tag} !== undefined && ${tag} === P[${k}] && !h.call(${src}, ${k})) throw X;\n${chain(branches)}\n}`,
        )
        break
      }
      default:
        // 'none' (no object branch: handed back) and 'ambiguous' (refused when compiling).
        break
    }
    const arrays = union.arrays
    if (arrays.mode === 'single') tests.push(`if (Array.isArray(${src})) {\n${this.#arrayPart(arrays.branch, src, dst, inline)}\n}`)
    else if (arrays.mode === 'copy') tests.push(`if (Array.isArray(${src})) ${dst} = ${this.#generalPart(union, 'arrays')}(${src});`)
    return chain(tests)
  }
}

/** `if … else if … else throw X` of the tests (each an `if` statement). */
function chain(tests: readonly string[]): string {
  return tests.length === 0 ? 'throw X;' : `${tests.join('\nelse ')}\nelse throw X;`
}

/** Objects the typed code reads field by field; others go to the general projector. */
function typable(object: ObjectShape): boolean {
  return object.pattern === undefined && object.properties.every((p) => !(p.key in Object.prototype))
}

function isScalarLiteral(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'boolean' || value === null || (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0))
}
