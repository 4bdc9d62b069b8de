import { setOwn } from '../json/clone.js'
import { assertPlainObject, jsonLeaf, jsonLeafTest } from './json-leaf.js'
import type { Parts, Structured } from './parts.js'

const hasOwn = Object.prototype.hasOwnProperty
const objectPrototype = Object.prototype as unknown as Record<string, unknown>

/** The declared keys of one compact object schema and how each value is projected. */
interface ObjectPlan {
  readonly keys: readonly string[]
  readonly required: readonly boolean[]
  readonly parts: readonly Parts[]
}

/**
 * The plan behind each generated object projector (a property of the function under this
 * symbol), so that a parent object can inline its children's projection into its own generated
 * function instead of calling them.
 */
const PLAN = Symbol('object projection plan')

type PlannedProjector = Structured & { [PLAN]?: ObjectPlan }

type Factory = (bound: ReadonlyArray<readonly Parts[]>, h: typeof hasOwn, P: Record<string, unknown>, d: typeof setOwn, L: typeof jsonLeaf) => Structured

/** Deepest nesting of objects inlined into one generated function (deeper ones are called). */
const MAX_INLINE_DEPTH = 4
/** Most objects inlined into one generated function, to keep the code small. */
const MAX_INLINED_OBJECTS = 16

/**
 * The projection of an object with declared keys `keys` (the properties of a compact object
 * schema; `required[i]` when the schema requires `keys[i]`), each value projected by `parts[i]`.
 *
 * The result is a new plain object holding each declared key that the source has as an own
 * property with a value other than `undefined` (`undefined` counts as absent, as in JSON):
 * required keys first, then optional ones, each in declaration order. Keys are data: `__proto__`
 * is defined, never assigned, and a key that also exists on `Object.prototype` (`constructor`,
 * `toString`, ...) is copied only when the source has it as its own.
 *
 * This is the hot path of every compact call, so it is generated code when the platform allows
 * it, and a loop over the keys where `new Function` is not available. The generated function
 * reads every declared key once, as a hand-written projection would, and builds the result as one
 * object literal when every key is present. Child objects whose projection is itself generated
 * (non-recursive object schemas, nested up to {@link MAX_INLINE_DEPTH}) are inlined into the same
 * function rather than called; arrays and other positions call their own projector.
 */
export function objectProjector(keys: readonly string[], required: readonly boolean[], parts: readonly Parts[]): Structured {
  const plan: ObjectPlan = { keys, required, parts }
  let projector: Structured
  try {
    projector = generated(plan)
  } catch {
    return looped(keys, required, parts)
  }
  ;(projector as PlannedProjector)[PLAN] = plan
  return projector
}

/** What the code of one generated function refers to: the parts of each emitted object, and their bindings. */
interface Emitted {
  readonly bound: Array<readonly Parts[]>
  readonly bindings: string[]
}

/** Builds the generated projector of `plan` (and of the children it inlines). */
function generated(plan: ObjectPlan): Structured {
  const emitted: Emitted = { bound: [], bindings: [] }
  const code = emitObject(plan, 's', 0, emitted)
  const body = `"use strict";\n${emitted.bindings.join('\n')}\nreturn function projectObject(s) {\n${code}\nreturn r0;\n};`
  // Keys enter the code only as JSON string literals (never `__proto__` in a literal, which would set the prototype).
  const factory = new Function('B', 'h', 'P', 'd', 'L', body) as Factory
  return factory(emitted.bound, hasOwn, objectPrototype, setOwn, jsonLeaf)
}

/**
 * Statements that project the object in variable `source` into `r<n>` (`n`: this object's index
 * in `bound`). Value of key `i` is `v<n>_<i>`; objects in it are projected by the inlined child
 * plan when there is one, else by `o<n>_<i>`; arrays by `a<n>_<i>` (bound as `B[n][i]`).
 */
function emitObject(plan: ObjectPlan, source: string, depth: number, emitted: Emitted): string {
  const { bound, bindings } = emitted
  const n = bound.length
  bound.push(plan.parts)
  const { keys, required, parts } = plan
  // Read field by field only from a plain object; anything else is refused, never read through its prototype.
  const lines: string[] = [`{ const p = Object.getPrototypeOf(${source}); if (p !== P && p !== null) L(${source}); }`]
  const names: string[] = []
  const literals: string[] = []
  const literal: number[] = []
  const appended: number[] = []
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const k = JSON.stringify(key)
    const v = `v${n}_${i}`
    names.push(v)
    literals.push(k)
    if (key in objectPrototype) {
      // `constructor`, `toString`, `__proto__`, ...: inherited for every plain object, so own only.
      lines.push(`let ${v} = h.call(${source}, ${k}) ? ${source}[${k}] : undefined;`)
    } else {
      lines.push(`let ${v} = ${source}[${k}]; if (${v} !== undefined && ${v} === P[${k}] && !h.call(${source}, ${k})) ${v} = undefined;`)
    }
    const isObject = `if (typeof ${v} === "object" && ${v} !== null)`
    const child = (parts[i]!.objects as PlannedProjector)[PLAN]
    if (child !== undefined && depth + 1 < MAX_INLINE_DEPTH && bound.length < MAX_INLINED_OBJECTS) {
      const m = bound.length
      const inner = emitObject(child, `c${m}`, depth + 1, emitted)
      bindings.push(`const a${n}_${i} = B[${n}][${i}].arrays;`)
      lines.push(`${isObject} { if (Array.isArray(${v})) ${v} = a${n}_${i}(${v}); else { const c${m} = ${v};\n${inner}\n${v} = r${m}; } }`)
    } else {
      bindings.push(`const o${n}_${i} = B[${n}][${i}].objects, a${n}_${i} = B[${n}][${i}].arrays;`)
      lines.push(`${isObject} ${v} = Array.isArray(${v}) ? a${n}_${i}(${v}) : o${n}_${i}(${v});`)
    }
    // A scalar is copied as it is, once checked (inline for the common kinds, `L` for the rest);
    // strings are taken as they are.
    lines.push(`else if (${v} !== undefined && !${jsonLeafTest(v)}) L(${v});`)
    if (required[i] === true && key !== '__proto__') literal.push(i)
    else appended.push(i)
  }
  const r = `r${n}`
  const entries = (list: readonly number[]): string => list.map((i) => `${literals[i]}: ${names[i]}`).join(', ')
  const present = (list: readonly number[]): string => list.map((i) => `${names[i]} !== undefined`).join(' && ')
  const store = (i: number): string =>
    keys[i] === '__proto__' ? `if (${names[i]} !== undefined) d(${r}, ${literals[i]}, ${names[i]});` : `if (${names[i]} !== undefined) ${r}[${literals[i]}] = ${names[i]};`
  // Key order is always required keys, then optional ones, each in declaration order.
  lines.push(`let ${r};`)
  if (appended.length > 0 && !keys.includes('__proto__')) {
    const all = literal.concat(appended)
    lines.push(`if (${present(all)}) ${r} = { ${entries(all)} };\nelse {`)
  } else {
    lines.push('{')
  }
  if (literal.length === 0) lines.push(`${r} = {};`)
  else lines.push(`if (${present(literal)}) ${r} = { ${entries(literal)} };\nelse { ${r} = {}; ${literal.map(store).join(' ')} }`)
  for (const i of appended) lines.push(store(i))
  lines.push('}')
  return lines.join('\n')
}

/** The same projection as a loop over the keys (in the generated code's order: required keys first). */
function looped(keys: readonly string[], required: readonly boolean[], parts: readonly Parts[]): Structured {
  const first = (i: number): boolean => required[i] === true && keys[i] !== '__proto__'
  const order = keys.map((_, i) => i).filter(first).concat(keys.map((_, i) => i).filter((i) => !first(i)))
  return (value) => {
    const source = value as Record<string, unknown>
    assertPlainObject(source)
    const out: Record<string, unknown> = {}
    for (const i of order) {
      const key = keys[i]!
      if (!hasOwn.call(source, key)) continue
      let item = source[key]
      if (item === undefined) continue
      if (typeof item === 'object' && item !== null) item = Array.isArray(item) ? parts[i]!.arrays(item) : parts[i]!.objects(item)
      else jsonLeaf(item)
      setOwn(out, key, item)
    }
    return out
  }
}
