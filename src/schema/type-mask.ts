/**
 * JSON types as a bit mask, so that "every type full allows, compact allows too" is one `&`.
 * Numbers are split in two atoms: `integer` is {@link INTEGER}, `number` is
 * `INTEGER | FRACTION`, which makes `integer ⊂ number` fall out of the bit arithmetic.
 */

export const NULL = 1
export const BOOLEAN = 2
/** Numbers `n` with `n % 1 === 0` (what ajv calls an integer). */
export const INTEGER = 4
/** Finite numbers that are not integers. */
export const FRACTION = 8
export const STRING = 16
export const ARRAY = 32
export const OBJECT = 64
export const ALL_TYPES = NULL | BOOLEAN | INTEGER | FRACTION | STRING | ARRAY | OBJECT
/** Types whose values projection copies as they are. */
export const SCALAR_TYPES = NULL | BOOLEAN | INTEGER | FRACTION | STRING

const BY_NAME: Readonly<Record<string, number>> = {
  null: NULL,
  boolean: BOOLEAN,
  integer: INTEGER,
  number: INTEGER | FRACTION,
  string: STRING,
  array: ARRAY,
  object: OBJECT,
}

/**
 * Reads a `type` keyword value: `undefined` (absent) is every type; an unknown name or a
 * malformed value gives `undefined` so the caller can report it.
 */
export function typeMaskOf(type: unknown): number | undefined {
  if (type === undefined) return ALL_TYPES
  const names = Array.isArray(type) ? type : [type]
  let mask = 0
  for (const name of names) {
    const bit = typeof name === 'string' && Object.hasOwn(BY_NAME, name) ? BY_NAME[name] : undefined
    if (bit === undefined) return undefined
    mask |= bit
  }
  return mask
}

/** The atom of a JSON value, or 0 for a value that is not JSON (undefined, NaN, a function). */
export function atomOf(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return STRING
    case 'boolean':
      return BOOLEAN
    case 'number':
      if (!Number.isFinite(value)) return 0
      return value % 1 === 0 ? INTEGER : FRACTION
    case 'object':
      if (value === null) return NULL
      return Array.isArray(value) ? ARRAY : OBJECT
    default:
      return 0
  }
}

/** Human names of the atoms in `mask`: `non-integer number` for {@link FRACTION} alone. */
export function describeTypes(mask: number): string {
  const names: string[] = []
  if (mask & NULL) names.push('null')
  if (mask & BOOLEAN) names.push('boolean')
  if ((mask & (INTEGER | FRACTION)) === (INTEGER | FRACTION)) names.push('number')
  else if (mask & INTEGER) names.push('integer')
  else if (mask & FRACTION) names.push('non-integer number')
  if (mask & STRING) names.push('string')
  if (mask & ARRAY) names.push('array')
  if (mask & OBJECT) names.push('object')
  return names.length === 0 ? 'nothing' : names.join(', ')
}
