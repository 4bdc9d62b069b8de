import type FC from 'fast-check'
import { fc, lazy } from './fast-check.js'

/** Deepest nesting {@link hostileInputArbitrary} builds (levels of arrays/objects). */
export const HOSTILE_MAX_NESTING = 5_000

/** Length of the huge strings {@link hostileInputArbitrary} builds, in UTF-16 code units (1 MiB). */
export const HOSTILE_HUGE_STRING_LENGTH = 1_048_576

/** Keys that change prototypes or shadow `Object.prototype` members when copied naively. */
const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', 'toJSON'] as const

const LONE_SURROGATES = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uDC00\uD800'] as const

/** The parts of {@link hostileInputArbitrary}, built on first use (fast-check is loaded then). */
const parts = lazy(() => {
  /** `fc.anything` with every exotic kind of value switched on. */
  const EXOTIC = fc.anything({
    withObjectString: true,
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withNullPrototype: true,
    withSparseArray: true,
    withBoxedValues: true,
    maxDepth: 3,
  })

  /**
   * JSON texts with a polluting key at a random depth, parsed with `JSON.parse` (which makes
   * `__proto__` an own key): e.g. `{"a":[{"__proto__":{"polluted":true}}]}`.
   */
  const PROTO_PAYLOAD = fc
    .tuple(
      fc.array(fc.constantFrom('a', 'items', '[]', 'result_view', ...POLLUTING_KEYS), { maxLength: 6 }),
      fc.constantFrom(...POLLUTING_KEYS),
      fc.constantFrom('{"polluted":true}', '{"prototype":{"polluted":true}}', 'null', '1', '"x"', '[]'),
    )
    .map(([path, key, payload]) => {
      let text = `{${JSON.stringify(key)}:${payload}}`
      for (let index = path.length - 1; index >= 0; index--) {
        const segment = path[index]!
        text = segment === '[]' ? `[${text}]` : `{${JSON.stringify(segment)}:${text}}`
      }
      return JSON.parse(text) as unknown
    })

  /** Arrays, objects or both alternating, nested up to {@link HOSTILE_MAX_NESTING} levels; built iteratively. */
  const DEEP_NESTING = fc
    .tuple(
      fc.oneof(fc.constant(HOSTILE_MAX_NESTING), fc.integer({ min: 100, max: HOSTILE_MAX_NESTING })),
      fc.constantFrom('array', 'object', 'mixed'),
    )
    .map(([depth, shape]) => {
      let value: unknown = 'leaf'
      for (let level = 0; level < depth; level++) {
        const asArray = shape === 'array' || (shape === 'mixed' && level % 2 === 0)
        value = asArray ? [value] : { nested: value }
      }
      return value
    })

  /** Strings of {@link HOSTILE_HUGE_STRING_LENGTH} code units, bare or as an object field. */
  const HUGE_STRING = fc
    .tuple(fc.constantFrom('a', 'é', '\u{1F600}', '"\\', '<script>'), fc.boolean())
    .map(([unit, wrapped]) => {
      const text = unit.repeat(Math.ceil(HOSTILE_HUGE_STRING_LENGTH / unit.length)).slice(0, HOSTILE_HUGE_STRING_LENGTH)
      return wrapped ? { query: text } : text
    })

  const NON_FINITE = fc
    .tuple(fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY), fc.constantFrom('bare', 'field', 'item'))
    .map(([number, placement]) => (placement === 'bare' ? number : placement === 'field' ? { limit: number } : [1, number]))

  const LONE_SURROGATE = fc
    .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...LONE_SURROGATES), fc.string({ maxLength: 8 }), fc.constantFrom('bare', 'value', 'key'))
    .map(([before, surrogate, after, placement]) => {
      const text = before + surrogate + after
      if (placement === 'bare') return text
      return placement === 'value' ? { query: text } : JSON.parse(`{${JSON.stringify(text)}:1}`) as unknown
    })

  const TO_JSON = fc.constantFrom('string', 'undefined', 'throws', 'self', 'function').map((kind) => {
    const target: Record<string, unknown> = { visible: true }
    target['toJSON'] = () => {
      switch (kind) {
        case 'string': return 'replaced by toJSON'
        case 'undefined': return undefined
        case 'throws': throw new RangeError('toJSON exploded')
        case 'self': return target
        default: return () => 'a function'
      }
    }
    return target
  })

  const FUNCTIONS = fc.constantFrom('arrow', 'async', 'class', 'field', 'builtin').map((kind): unknown => {
    switch (kind) {
      case 'arrow': return () => 'called'
      case 'async': return async () => 'called'
      case 'class': return class Hostile {}
      case 'field': return { query: 'x', callback: () => 'called' }
      default: return Math.max
    }
  })

  const SYMBOLS = fc.constantFrom('bare', 'registered', 'field', 'key').map((kind): unknown => {
    switch (kind) {
      case 'bare': return Symbol('hostile')
      case 'registered': return Symbol.for('hostile')
      case 'field': return { query: Symbol('hostile') }
      default: return { query: 'x', [Symbol('hidden')]: 'secret' }
    }
  })

  const CYCLES = fc.constantFrom('self', 'mutual', 'array', 'deep').map((kind): unknown => {
    switch (kind) {
      case 'self': {
        const node: Record<string, unknown> = { name: 'self' }
        node['self'] = node
        return node
      }
      case 'mutual': {
        const a: Record<string, unknown> = { name: 'a' }
        const b: Record<string, unknown> = { name: 'b', a }
        a['b'] = b
        return a
      }
      case 'array': {
        const list: unknown[] = [1]
        list.push(list)
        return list
      }
      default: {
        const root: Record<string, unknown> = { level: 0 }
        let current = root
        for (let level = 1; level < 10; level++) {
          const next: Record<string, unknown> = { level }
          current['child'] = next
          current = next
        }
        current['back'] = root
        return root
      }
    }
  })

  /**
   * Huge sparse arrays: `a.length = 2 ** 32 - 1` (the longest array there is) or `new Array(2 ** 26)`,
   * empty or after a few dense elements, bare, as a field, as an item or a few levels down. Cheap to
   * build (no element is stored) and refused at the first hole by anything that checks; a walk over
   * the indices takes minutes or runs out of memory.
   */
  const HUGE_SPARSE = fc
    .tuple(fc.constantFrom('max_length', 'new_array'), fc.integer({ min: 0, max: 3 }), fc.constantFrom('bare', 'field', 'item', 'deep'))
    .map(([kind, dense, placement]): unknown => {
      const array: unknown[] = kind === 'max_length' ? [] : new Array(2 ** 26)
      for (let i = 0; i < dense; i++) array[i] = i
      if (kind === 'max_length') array.length = 2 ** 32 - 1
      switch (placement) {
        case 'bare': return array
        case 'field': return { query: 'x', items: array }
        case 'item': return [1, array]
        default: return { options: { filters: [{ values: array }] } }
      }
    })

  /** One hostile value of a cheap kind, to place inside an otherwise plausible input. */
  const HOSTILE_LEAF: FC.Arbitrary<unknown> = fc.oneof(NON_FINITE, LONE_SURROGATE, TO_JSON, FUNCTIONS, SYMBOLS, CYCLES, PROTO_PAYLOAD, EXOTIC, HUGE_SPARSE)

  /** Plausible tool inputs (`query`, `result_view`, `limit`, ...) with one field hostile. */
  const HOSTILE_FIELD = fc
    .tuple(fc.constantFrom('query', 'result_view', 'limit', 'items', 'options', '__proto__', 'constructor'), HOSTILE_LEAF)
    .map(([key, value]) => {
      const input: Record<string, unknown> = { query: 'ok', limit: 1 }
      Object.defineProperty(input, key, { value, enumerable: true, writable: true, configurable: true })
      return input
    })
  return { EXOTIC, PROTO_PAYLOAD, DEEP_NESTING, HUGE_STRING, NON_FINITE, LONE_SURROGATE, TO_JSON, FUNCTIONS, SYMBOLS, CYCLES, HUGE_SPARSE, HOSTILE_LEAF, HOSTILE_FIELD }
})

/**
 * A fast-check arbitrary of bad inputs for fuzzing `invoke` (and anything else that must reject
 * non-JSON input with a typed error instead of crashing, hanging or being polluted). A weighted
 * `fc.oneof` of: `fc.anything()` with every exotic option (boxed values, `Map`, `Set`, `Date`,
 * `BigInt`, typed arrays, null-prototype objects, sparse arrays, object strings); JSON-parsed
 * objects with `__proto__` / `constructor` / `prototype` (and other `Object.prototype` names) as
 * own keys at any depth; plausible inputs with one hostile field; NaN and ±Infinity; strings
 * and keys with lone surrogates; objects with a `toJSON` (returning a string, `undefined`,
 * itself, a function, or throwing); functions; symbols (values, fields, symbol keys); cyclic
 * objects and arrays; huge sparse arrays (`a.length = 2 ** 32 - 1` or `new Array(2 ** 26)`, bare
 * or nested, empty or after a few dense elements: a walk over their indices takes minutes or runs
 * out of memory, so anything that reads them must stop at the first hole); and, rarely (about 1
 * in 50 each), arrays/objects nested up to
 * {@link HOSTILE_MAX_NESTING} levels (built iteratively) and strings of
 * {@link HOSTILE_HUGE_STRING_LENGTH} code units. Every sample is a fresh value (safe to mutate).
 *
 * @returns `FC.Arbitrary<unknown>`; takes no options. Throws a `UsageError` (`fast_check_unavailable`)
 * when the optional peer `fast-check` is not installed.
 */
export function hostileInputArbitrary(): FC.Arbitrary<unknown> {
  const { EXOTIC, PROTO_PAYLOAD, HOSTILE_FIELD, NON_FINITE, LONE_SURROGATE, TO_JSON, FUNCTIONS, SYMBOLS, CYCLES, HUGE_SPARSE, DEEP_NESTING, HUGE_STRING } = parts()
  return fc.oneof(
    { weight: 10, arbitrary: EXOTIC },
    { weight: 6, arbitrary: PROTO_PAYLOAD },
    { weight: 6, arbitrary: HOSTILE_FIELD },
    { weight: 4, arbitrary: NON_FINITE },
    { weight: 4, arbitrary: LONE_SURROGATE },
    { weight: 4, arbitrary: TO_JSON },
    { weight: 4, arbitrary: FUNCTIONS },
    { weight: 4, arbitrary: SYMBOLS },
    { weight: 4, arbitrary: CYCLES },
    { weight: 3, arbitrary: HUGE_SPARSE },
    { weight: 1, arbitrary: DEEP_NESTING },
    { weight: 1, arbitrary: HUGE_STRING },
  )
}
