import type { Parts, Structured } from './projection-plan.js'

const hasOwn = Object.prototype.hasOwnProperty
const objectPrototype = Object.prototype as unknown as Record<string, unknown>

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
 * it (one straight-line function per object schema, keys as string literals: as fast as a
 * hand-written projection), and a loop over the keys where `new Function` is not available.
 */
export function objectProjector(keys: readonly string[], required: readonly boolean[], parts: readonly Parts[]): Structured {
  try {
    return generated(keys, required, parts)
  } catch {
    return looped(keys, parts)
  }
}

/**
 * Generated projection: reads every declared key once (own properties only), then builds the
 * result the way a hand-written projection would: an object literal of the required keys when
 * they are all present, then the optional keys that are present.
 */
function generated(keys: readonly string[], required: readonly boolean[], parts: readonly Parts[]): Structured {
  const reads: string[] = []
  const literal: number[] = []
  const appended: number[] = []
  keys.forEach((key, i) => {
    const k = JSON.stringify(key)
    const project = `if (typeof v${i} === "object" && v${i} !== null) v${i} = Array.isArray(v${i}) ? a${i}(v${i}) : o${i}(v${i});`
    if (key in objectPrototype) {
      // `constructor`, `toString`, `__proto__`, ...: inherited for every plain object, so own only.
      reads.push(`let v${i} = h.call(s, ${k}) ? s[${k}] : undefined; ${project}`)
    } else {
      reads.push(`let v${i} = s[${k}]; if (v${i} !== undefined && v${i} === P[${k}] && !h.call(s, ${k})) v${i} = undefined; ${project}`)
    }
    if (required[i] === true && key !== '__proto__') literal.push(i)
    else appended.push(i)
  })
  const store = (i: number): string => {
    const k = JSON.stringify(keys[i])
    return keys[i] === '__proto__' ? `if (v${i} !== undefined) d(out, ${k}, v${i});` : `if (v${i} !== undefined) out[${k}] = v${i};`
  }
  const build = literal.length === 0
    ? 'const out = {};'
    : `let out;\nif (${literal.map((i) => `v${i} !== undefined`).join(' && ')}) out = { ${literal.map((i) => `${JSON.stringify(keys[i])}: v${i}`).join(', ')} };\n` +
      `else { out = {}; ${literal.map(store).join(' ')} }`
  const bindings = keys.map((_, i) => `const o${i} = parts[${i}].objects, a${i} = parts[${i}].arrays;`).join('\n')
  const body = `"use strict";\n${bindings}\nreturn function projectObject(s) {\n${reads.join('\n')}\n${build}\n${appended.map(store).join('\n')}\nreturn out;\n};`
  // Keys enter the code only as JSON string literals (never `__proto__` in a literal, which would set the prototype).
  const factory = new Function('parts', 'h', 'P', 'd', body) as (
    parts: readonly Parts[], h: typeof hasOwn, P: Record<string, unknown>, d: typeof define,
  ) => Structured
  return factory(parts, hasOwn, objectPrototype, define)
}

function looped(keys: readonly string[], parts: readonly Parts[]): Structured {
  const count = keys.length
  return (value) => {
    const source = value as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (let i = 0; i < count; i++) {
      const key = keys[i]!
      if (!hasOwn.call(source, key)) continue
      let item = source[key]
      if (item === undefined) continue
      if (typeof item === 'object' && item !== null) item = Array.isArray(item) ? parts[i]!.arrays(item) : parts[i]!.objects(item)
      if (key === '__proto__') define(out, key, item)
      else out[key] = item
    }
    return out
  }
}

function define(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
}
