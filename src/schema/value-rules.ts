import type { NumberRules, StringRules, ValueShape } from './compact-shape.js'
import type { Bound, FullBranch } from './full-facts.js'
import { includesJson } from './json-equal.js'
import { atomOf, describeTypes, FRACTION, INTEGER, NULL, STRING } from './type-mask.js'

/** Why a value or a branch does not fit a compact shape: a violation code and a message. */
export interface Misfit {
  readonly code: 'type_wider' | 'nullable_wider' | 'enum_wider' | 'const_mismatch' | 'constraint_not_implied'
  readonly message: string
}

/** Length of a string as JSON Schema (and ajv) count it: in code points. */
export function codePointLength(text: string): number {
  let length = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
    length++
  }
  return length
}

/** `multipleOf` exactly as ajv evaluates it (float division, then an integer check). */
export function isMultipleOf(value: number, divisor: number): boolean {
  const ratio = value / divisor
  return ratio === parseInt(String(ratio), 10)
}

/**
 * Checks one scalar value the full branch may hold against a compact shape's scalar keywords.
 * A `format` is trusted only when the full branch asserts the same format (the value then
 * satisfies it); formats are not evaluated here.
 */
export function scalarMisfit(shape: ValueShape, value: unknown, full: FullBranch): Misfit | undefined {
  const atom = atomOf(value)
  if (shape.values !== undefined && !includesJson(shape.values, value)) {
    if (atom === NULL) return { code: 'nullable_wider', message: 'the full view allows null; the compact view does not' }
    return shape.valuesKeyword === 'const'
      ? { code: 'const_mismatch', message: `the full view allows ${JSON.stringify(value)}; the compact view requires ${JSON.stringify(shape.values[0])}` }
      : { code: 'enum_wider', message: `the full view allows ${JSON.stringify(value)}, which the compact "enum" does not list` }
  }
  if ((atom & shape.types) === 0) {
    if (atom === NULL) return { code: 'nullable_wider', message: 'the full view allows null; the compact view does not' }
    return { code: 'type_wider', message: `the full view allows ${JSON.stringify(value)} (${describeTypes(atom)}); the compact view allows ${describeTypes(shape.types)}` }
  }
  const broken: string[] = []
  if (typeof value === 'string') {
    const { minLength, maxLength, regex, pattern, format } = shape.string
    const length = minLength !== undefined || maxLength !== undefined ? codePointLength(value) : 0
    if (minLength !== undefined && length < minLength) broken.push(`"minLength" ${minLength}`)
    if (maxLength !== undefined && length > maxLength) broken.push(`"maxLength" ${maxLength}`)
    if (regex !== undefined && !regex.test(value)) broken.push(`"pattern" ${JSON.stringify(pattern)}`)
    if (format !== undefined && !full.formats.has(format)) broken.push(`"format" ${JSON.stringify(format)} (the full view does not assert it)`)
  } else if (typeof value === 'number') {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, format } = shape.number
    if (format !== undefined && !full.formats.has(format)) broken.push(`"format" ${JSON.stringify(format)} (the full view does not assert it)`)
    if (minimum !== undefined && !(value >= minimum)) broken.push(`"minimum" ${minimum}`)
    if (maximum !== undefined && !(value <= maximum)) broken.push(`"maximum" ${maximum}`)
    if (exclusiveMinimum !== undefined && !(value > exclusiveMinimum)) broken.push(`"exclusiveMinimum" ${exclusiveMinimum}`)
    if (exclusiveMaximum !== undefined && !(value < exclusiveMaximum)) broken.push(`"exclusiveMaximum" ${exclusiveMaximum}`)
    if (multipleOf !== undefined && !isMultipleOf(value, multipleOf)) broken.push(`"multipleOf" ${multipleOf}`)
  }
  if (broken.length === 0) return undefined
  return { code: 'constraint_not_implied', message: `the full view allows ${JSON.stringify(value)}, which fails the compact ${broken.join(', ')}` }
}

/** The compact string keywords that the full branch's own keywords do not imply. */
export function stringRulesNotImplied(rules: StringRules, full: FullBranch): string[] {
  const out: string[] = []
  if (rules.minLength !== undefined && rules.minLength > full.minLength) {
    out.push(`"minLength" ${rules.minLength} (full guarantees ${full.minLength})`)
  }
  if (rules.maxLength !== undefined && (full.maxLength === undefined || full.maxLength > rules.maxLength)) {
    out.push(`"maxLength" ${rules.maxLength} (full guarantees ${full.maxLength ?? 'no maximum'})`)
  }
  if (rules.pattern !== undefined && !full.patterns.has(rules.pattern)) {
    out.push(`"pattern" ${JSON.stringify(rules.pattern)} (the full view does not assert the same pattern)`)
  }
  if (rules.format !== undefined && !full.formats.has(rules.format)) {
    out.push(`"format" ${JSON.stringify(rules.format)} (the full view does not assert the same format)`)
  }
  return out
}

/**
 * The compact number keywords that the full branch's own keywords do not imply. `integerOnly`
 * says the full numbers are integers, so an exclusive bound can be rounded to an inclusive one.
 * `multipleOf` is implied only by the same `multipleOf`, since ajv checks it with a float
 * division whose rounding does not compose.
 */
export function numberRulesNotImplied(rules: NumberRules, full: FullBranch, integerOnly: boolean): string[] {
  const out: string[] = []
  const lower = integerOnly && full.lower !== undefined ? integerLower(full.lower) : full.lower
  const upper = integerOnly && full.upper !== undefined ? integerUpper(full.upper) : full.upper
  if (rules.minimum !== undefined && !(lower !== undefined && lower.value >= rules.minimum)) {
    out.push(`"minimum" ${rules.minimum} (full lower bound: ${showLower(lower)})`)
  }
  if (rules.exclusiveMinimum !== undefined &&
    !(lower !== undefined && (lower.value > rules.exclusiveMinimum || (lower.value === rules.exclusiveMinimum && lower.exclusive)))) {
    out.push(`"exclusiveMinimum" ${rules.exclusiveMinimum} (full lower bound: ${showLower(lower)})`)
  }
  if (rules.maximum !== undefined && !(upper !== undefined && upper.value <= rules.maximum)) {
    out.push(`"maximum" ${rules.maximum} (full upper bound: ${showUpper(upper)})`)
  }
  if (rules.exclusiveMaximum !== undefined &&
    !(upper !== undefined && (upper.value < rules.exclusiveMaximum || (upper.value === rules.exclusiveMaximum && upper.exclusive)))) {
    out.push(`"exclusiveMaximum" ${rules.exclusiveMaximum} (full upper bound: ${showUpper(upper)})`)
  }
  if (rules.format !== undefined && !full.formats.has(rules.format)) {
    out.push(`"format" ${JSON.stringify(rules.format)} (the full view does not assert the same format)`)
  }
  if (rules.multipleOf !== undefined && !full.multiples.includes(rules.multipleOf)) {
    out.push(`"multipleOf" ${rules.multipleOf} (the full view does not assert the same "multipleOf")`)
  }
  return out
}

function showLower(b: Bound | undefined): string {
  return b === undefined ? 'none' : `${b.exclusive ? '>' : '≥'} ${b.value}`
}

function showUpper(b: Bound | undefined): string {
  return b === undefined ? 'none' : `${b.exclusive ? '<' : '≤'} ${b.value}`
}

function integerLower(bound: Bound): Bound {
  return { value: bound.exclusive ? Math.floor(bound.value) + 1 : Math.ceil(bound.value), exclusive: false }
}

function integerUpper(bound: Bound): Bound {
  return { value: bound.exclusive ? Math.ceil(bound.value) - 1 : Math.floor(bound.value), exclusive: false }
}

/**
 * Why the non-literal values of a full branch with a JSON type in `atoms` (a subset of STRING,
 * INTEGER, FRACTION that the compact shape accepts) may fail the compact `enum`/`const` or value
 * keywords; `undefined` if they cannot.
 */
export function scalarAtomsMisfit(shape: ValueShape, full: FullBranch, atoms: number): Misfit | undefined {
  if (shape.values !== undefined) {
    return shape.valuesKeyword === 'const'
      ? { code: 'const_mismatch', message: `the full view allows any ${describeTypes(atoms)}; the compact view requires ${JSON.stringify(shape.values[0])}` }
      : { code: 'enum_wider', message: `the full view allows any ${describeTypes(atoms)}; the compact "enum" lists ${shape.values.length} value(s)` }
  }
  const broken: string[] = []
  if (atoms & STRING) broken.push(...stringRulesNotImplied(shape.string, full))
  if (atoms & (INTEGER | FRACTION)) broken.push(...numberRulesNotImplied(shape.number, full, (atoms & FRACTION) === 0))
  if (broken.length === 0) return undefined
  return { code: 'constraint_not_implied', message: `the full view does not imply the compact ${broken.join(', ')}` }
}

const NO_MISFITS: readonly Misfit[] = []

/** Why the full branch's types in `atoms` are not all accepted by `types`; `undefined` if they are. */
export function typeMisfits(types: number, full: FullBranch, atoms: number): readonly Misfit[] {
  const missing = atoms & full.types & ~types
  if (missing === 0) return NO_MISFITS
  const out: Misfit[] = []
  if (missing & NULL) out.push({ code: 'nullable_wider', message: 'the full view allows null; the compact view does not' })
  const other = missing & ~NULL
  if (other === FRACTION && (types & INTEGER) !== 0) {
    out.push({ code: 'type_wider', message: 'the full view allows any number; the compact view requires an integer' })
  } else if (other !== 0) {
    out.push({ code: 'type_wider', message: `the full view allows ${describeTypes(other)}; the compact view allows ${describeTypes(types)}` })
  }
  return out
}
