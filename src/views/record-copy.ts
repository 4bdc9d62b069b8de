import { RESULT_JSON, type JsonValue } from '../json/canonical.js'
import { ownJsonCopy } from '../json/own-copy.js'
import type { JsonSchema } from '../schema/json-schema.js'

/**
 * The checking copy of a full (or single-result) record, compiled from its schema: the same
 * value as `ownJsonCopy(record, RESULT_JSON)` (a deep copy in the record's key order, checked to
 * be plain JSON as it is made, strings taken as they are), reached faster. The code reads the
 * keys the schema declares by name, in declaration order, and builds each copy as one object
 * literal when every key is there; it copies generically only what the schema does not describe
 * (an open object's extra keys, an unconstrained position) and any object whose keys are not a
 * subsequence of its declared keys in order.
 *
 * Anything unusual (a value that is not JSON, a class instance, a hole, a getter or Proxy trap
 * that throws) hands the whole record back to `ownJsonCopy`, which names the JSON Pointer of the
 * problem, so errors are exactly the generic copy's.
 */
export type RecordCopy = (record: unknown) => JsonValue

/** How a position is copied: field by field, element by element, or generically. */
type CopyPlan =
  | { readonly kind: 'generic'; readonly types: readonly string[] }
  | ObjectPlan
  | { readonly kind: 'tagged'; readonly types: readonly string[]; readonly key: string; readonly branches: ReadonlyMap<string | number | boolean, ObjectPlan> }
  | { readonly kind: 'array'; readonly types: readonly string[]; readonly items: CopyPlan }

interface ObjectPlan {
  readonly kind: 'object'
  readonly types: readonly string[]
  readonly keys: readonly string[]
  readonly children: readonly CopyPlan[]
}

/** What generated code throws to hand the whole record back to the generic copy. */
const HAND_BACK: unique symbol = Symbol('copy generically')

/** Deepest schema nesting the plan follows; deeper positions are copied generically. */
const MAX_PLAN_DEPTH = 32
/** Most objects one generated copy reads field by field. */
const MAX_PLANNED_OBJECTS = 256

const genericCopy = (value: unknown): JsonValue => ownJsonCopy(value, RESULT_JSON)

const compiled = new WeakMap<object, RecordCopy>()

/**
 * The checking copy for records of `schema`, compiled on first use and kept (the schema is a
 * tool's frozen copy). Falls back to the generic copy where code generation is not available.
 *
 * @throws JsonValueError (`code: 'non_json_value'`) from the returned copy, as `ownJsonCopy`.
 */
export function recordCopyFor(schema: JsonSchema): RecordCopy {
  let copy = compiled.get(schema)
  if (copy === undefined) {
    copy = compile(schema)
    compiled.set(schema, copy)
  }
  return copy
}

function compile(schema: JsonSchema): RecordCopy {
  const budget = { objects: 0 }
  const plan = planOf(schema, 0, budget)
  if (plan.kind === 'generic') return genericCopy
  const emitter = new CopyEmitter()
  const body = emitter.program(plan)
  let factory: (handBack: symbol, generic: RecordCopy, proto: object) => RecordCopy
  try {
    factory = new Function('X', 'G', 'P', body) as typeof factory
  } catch {
    return genericCopy
  }
  return factory(HAND_BACK, genericCopy, Object.prototype)
}

/**
 * The plan of a schema position: `properties` and `items` where the schema has them. A plan only
 * says how the code reads a value; what is copied is always the value's own keys in its own order,
 * so any plan gives the same copy (a wrong guess costs a generic copy of that object, no more).
 */
function planOf(schema: unknown, depth: number, budget: { objects: number }): CopyPlan {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || depth >= MAX_PLAN_DEPTH) return { kind: 'generic', types: [] }
  const s = schema as Record<string, unknown>
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined
  if (union !== undefined) return unionPlan(union, depth, budget)
  const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type.filter((t): t is string => typeof t === 'string') : []
  const properties = s.properties
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties) && budget.objects < MAX_PLANNED_OBJECTS) {
    const keys = Object.keys(properties)
    // `__proto__` keys are defined as data by the generic copy only.
    if (keys.length > 0 && !keys.includes('__proto__')) {
      budget.objects++
      const children = keys.map((key) => planOf((properties as Record<string, unknown>)[key], depth + 1, budget))
      return { kind: 'object', types, keys, children }
    }
  }
  if (typeof s.items === 'object' && s.items !== null && !Array.isArray(s.items)) {
    return { kind: 'array', types, items: planOf(s.items, depth + 1, budget) }
  }
  return { kind: 'generic', types }
}

/**
 * A union: a nullable position (one schema and `{ type: 'null' }`) is planned as that schema;
 * object branches that share a required literal tag are told apart by it; anything else is
 * copied generically.
 */
function unionPlan(union: readonly unknown[], depth: number, budget: { objects: number }): CopyPlan {
  const nullable = union.some(isNullSchema)
  const others = union.filter((branch) => !isNullSchema(branch))
  const withNull = (plan: CopyPlan): CopyPlan => (nullable ? { ...plan, types: [...plan.types, 'null'] } : plan)
  if (others.length === 1) return withNull(planOf(others[0], depth, budget))
  const plans = others.map((branch) => planOf(branch, depth, budget))
  if (plans.length === 0 || !plans.every((plan): plan is ObjectPlan => plan.kind === 'object')) return { kind: 'generic', types: [] }
  for (const key of plans[0]!.keys) {
    const tags = others.map((branch) => tagOf(branch, key))
    if (tags.every((tag) => tag !== undefined) && new Set(tags).size === tags.length) {
      const branches = new Map(tags.map((tag, i) => [tag!, plans[i]!]))
      return withNull({ kind: 'tagged', types: ['object'], key, branches })
    }
  }
  return { kind: 'generic', types: [] }
}

/** The literal a branch requires at `key` (`const`, or a one-value `enum`), when it is a string, finite number or boolean. */
function tagOf(branch: unknown, key: string): string | number | boolean | undefined {
  const b = branch as { properties?: Record<string, { const?: unknown; enum?: unknown }>; required?: unknown }
  if (!Array.isArray(b.required) || !b.required.includes(key)) return undefined
  const property = b.properties?.[key]
  const literal = property === undefined ? undefined : Object.hasOwn(property, 'const') ? property.const : Array.isArray(property.enum) && property.enum.length === 1 ? property.enum[0] : undefined
  return typeof literal === 'string' || typeof literal === 'boolean' || (typeof literal === 'number' && Number.isFinite(literal)) ? literal : undefined
}

function isNullSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'null' && Object.keys(schema).every((k) => k === 'type' || k === 'description' || k === 'title')
}

/** Writes the generated copy: one function, the plan inlined. */
class CopyEmitter {
  #names = 0

  program(plan: CopyPlan): string {
    return `"use strict";\nreturn function copyRecord(s) {\ntry {\nlet r;\n${this.#value(plan, 's', 'r')}\nreturn r;\n} catch (e) {\nreturn G(s);\n}\n};`
  }

  #name(prefix: string): string {
    return `${prefix}${this.#names++}`
  }

  /** Statements that set `dst` to the copy of `src` at `plan`. */
  #value(plan: CopyPlan, src: string, dst: string): string {
    const scalar =
      `if (typeof ${src} === "string" || typeof ${src} === "boolean") ${dst} = ${src};\n` +
      `else if (typeof ${src} === "number") { if (${src} - ${src} !== 0) throw X; ${dst} = ${src}; }`
    let structured: string
    switch (plan.kind) {
      case 'generic':
        structured = `${dst} = ${src} === null ? null : G(${src});`
        break
      case 'object':
      case 'tagged':
        structured = `if (${src} === null) ${dst} = null;\nelse if (Array.isArray(${src})) ${dst} = G(${src});\nelse {\n${this.#object(plan, src, dst)}\n}`
        break
      case 'array':
        structured = `if (${src} === null) ${dst} = null;\nelse if (!Array.isArray(${src})) ${dst} = G(${src});\nelse {\n${this.#array(plan, src, dst)}\n}`
        break
    }
    const object = `if (typeof ${src} === "object") {\n${structured}\n}`
    // The position's declared type is tested first.
    const first = plan.kind !== 'generic' || plan.types.includes('object') || plan.types.includes('array')
    return first ? `${object}\nelse ${scalar}\nelse throw X;` : `${scalar}\nelse ${object}\nelse throw X;`
  }

  /** A plain object (its keys, prototype and toJSON checked), then its members by the plan or the tag's branch plan. */
  #object(plan: ObjectPlan | Extract<CopyPlan, { kind: 'tagged' }>, src: string, dst: string): string {
    const ks = this.#name('k')
    const n = this.#name('n')
    const lines = [
      `const ${ks} = Object.keys(${src}), ${n} = ${ks}.length;`,
      `{ const q = Object.getPrototypeOf(${src}); if (q !== P && q !== null) throw X; }`,
      `if (typeof ${src}.toJSON === "function") throw X;`,
    ]
    if (plan.kind === 'object') {
      lines.push(this.#members(plan, src, dst, ks, n))
      return lines.join('\n')
    }
    // The tag only picks the plan to read with (an own key of a plain object, read after the checks).
    const tag = this.#name('t')
    lines.push(`const ${tag} = ${src}[${JSON.stringify(plan.key)}];`)
    const branches = [...plan.branches].map(([literal, branch]) => `if (${tag} === ${JSON.stringify(literal)}) {\n${this.#members(branch, src, dst, ks, n)}\n}`)
    lines.push(`${branches.join('\nelse ')}\nelse ${dst} = G(${src});`)
    return lines.join('\n')
  }

  /** The members of a checked plain object whose keys are `ks` (`n` of them), read by the plan. */
  #members(plan: ObjectPlan, src: string, dst: string, ks: string, n: string): string {
    const j = this.#name('j')
    const lines = [`let ${j} = 0;`]
    const copies: string[] = []
    for (let i = 0; i < plan.keys.length; i++) {
      const key = JSON.stringify(plan.keys[i]!)
      const v = this.#name('v')
      const c = this.#name('c')
      copies.push(c)
      // Read only a key the record has as its own, in declaration order.
      lines.push(`let ${c};\nif (${j} < ${n} && ${ks}[${j}] === ${key}) {\n${j}++;\nconst ${v} = ${src}[${key}];\n${this.#value(plan.children[i]!, v, c)}\n}`)
    }
    const all = copies.map((c) => `${c} !== undefined`).join(' && ')
    const entries = plan.keys.map((key, i) => `${JSON.stringify(key)}: ${copies[i]}`).join(', ')
    const stores = plan.keys.map((key, i) => `if (${copies[i]} !== undefined) ${dst}[${JSON.stringify(key)}] = ${copies[i]};`).join('\n')
    // Keys out of declaration order, or keys the schema does not declare: copied generically, in the record's order.
    lines.push(`if (${j} !== ${n}) ${dst} = G(${src});\nelse if (${all}) ${dst} = { ${entries} };\nelse {\n${dst} = {};\n${stores}\n}`)
    return lines.join('\n')
  }

  #array(plan: Extract<CopyPlan, { kind: 'array' }>, src: string, dst: string): string {
    const n = this.#name('n')
    const out = this.#name('o')
    const i = this.#name('i')
    const e = this.#name('e')
    const c = this.#name('c')
    return `if (typeof ${src}.toJSON === "function") throw X;\nconst ${n} = ${src}.length, ${out} = [];\nfor (let ${i} = 0; ${i} < ${n}; ${i}++) {\n` +
      // A hole (or undefined) hands back at its index: nothing is done per element past it.
      // `in` first, as the generic copy asks (a Proxy's has trap runs here too).
      `if (!(${i} in ${src})) throw X;\nconst ${e} = ${src}[${i}]; if (${e} === undefined) throw X;\nlet ${c};\n${this.#value(plan.items, e, c)}\n${out}.push(${c});\n}\n${dst} = ${out};`
  }
}
