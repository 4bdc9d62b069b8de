import { describe, expect, it } from 'vitest'
import { isContractsError, compareSchemas, type ContractReasonCode, type SchemaRole } from 'result-views/contracts'

type Schema = Record<string, unknown>

const obj = (properties: Record<string, Schema>, extra: Schema = {}): Schema => ({ type: 'object', properties, ...extra })
const closed = (properties: Record<string, Schema>, extra: Schema = {}): Schema => obj(properties, { additionalProperties: false, ...extra })
const str: Schema = { type: 'string' }
const int: Schema = { type: 'integer' }

/** The verdict and the reason codes of one comparison. */
function verdict(before: unknown, after: unknown, role: SchemaRole): [string, ContractReasonCode[]] {
  const result = compareSchemas(before, after, role)
  return [result.verdict, result.reasons.map((r) => r.code)]
}

describe('compareSchemas: outputs (every value the new schema accepts, the old one accepts as its readers see it)', () => {
  it('calls the issue\'s breaking changes breaking: a field removed or made optional, a type widened, an enum grown, a nullable added', () => {
    const old = obj({ id: str, state: { enum: ['active', 'stopped'] }, n: int }, { required: ['id', 'state', 'n'] })
    expect(verdict(old, obj({ id: str, state: { enum: ['active', 'stopped'] } }, { required: ['id', 'state'] }), 'output')).toEqual(['breaking', ['field_removed']])
    expect(verdict(old, obj({ id: str, state: { enum: ['active', 'stopped'] }, n: int }, { required: ['id', 'state'] }), 'output')).toEqual(['breaking', ['field_made_optional']])
    expect(verdict(old, obj({ id: str, state: { enum: ['active', 'stopped'] }, n: { type: 'number' } }, { required: ['id', 'state', 'n'] }), 'output')).toEqual(['breaking', ['type_widened']])
    expect(verdict(old, obj({ id: str, state: { enum: ['active', 'stopped', 'paused'] }, n: int }, { required: ['id', 'state', 'n'] }), 'output')).toEqual(['breaking', ['enum_grown']])
    expect(verdict(old, obj({ id: { type: ['string', 'null'] }, state: { enum: ['active', 'stopped'] }, n: int }, { required: ['id', 'state', 'n'] }), 'output')).toEqual(['breaking', ['nullable_added']])
  })

  it('calls narrowing and adding fields compatible: an enum shrunk, a type narrowed, an optional field made required, a field added to a closed object', () => {
    const old = closed({ id: str, state: { enum: ['a', 'b'] }, n: { type: 'number' } }, { required: ['id'] })
    expect(verdict(old, closed({ id: str, state: { enum: ['a'] }, n: int }, { required: ['id', 'n'] }), 'output')).toEqual(['compatible', []])
    // Readers ignore fields they do not know: the old "additionalProperties: false" promised nothing to them.
    expect(verdict(old, closed({ id: str, state: { enum: ['a'] }, n: int, extra: { type: 'object' } }, { required: ['id'] }), 'output')).toEqual(['compatible', []])
  })

  it('reads an old additionalProperties schema: readers of a map read every entry (regression: projection drops undeclared keys)', () => {
    const oldMap = { type: 'object', additionalProperties: str }
    expect(verdict(oldMap, { type: 'object', additionalProperties: int }, 'output')).toEqual(['breaking', ['type_widened']])
    expect(verdict(oldMap, { type: 'object', additionalProperties: { type: 'string', maxLength: 3 } }, 'output')[0]).toBe('compatible')
    // A new declared field must fit the old map's value schema too.
    expect(verdict(oldMap, { type: 'object', properties: { n: int }, additionalProperties: str }, 'output')).toEqual(['breaking', ['type_widened']])
  })

  it('tells a tagged variant added (breaking) from a variant removed (compatible)', () => {
    const variant = (kind: string): Schema => obj({ kind: { const: kind }, id: str }, { required: ['kind', 'id'] })
    const old = { anyOf: [variant('a'), variant('b')] }
    expect(verdict(old, { anyOf: [variant('a'), variant('b'), variant('c')] }, 'output')).toEqual(['breaking', ['variant_added']])
    expect(verdict(old, { anyOf: [variant('a')] }, 'output')).toEqual(['compatible', []])
  })

  it('proves untagged unions of objects by trying each old branch (containment projects nothing)', () => {
    const old = { anyOf: [closed({ a: str }, { required: ['a'] }), closed({ b: int }, { required: ['b'] })] }
    expect(verdict(old, closed({ b: int }, { required: ['b'] }), 'output')[0]).toBe('compatible')
    // Two object branches: their closedness may be what tells them apart, so a new field is not ignored.
    expect(verdict(old, closed({ b: int, c: str }, { required: ['b'] }), 'output')).toEqual(['unproven', ['union_ambiguous']])
    // No branch takes it alone; the proof does not split values across branches, so it cannot call it breaking.
    expect(verdict(old, closed({ c: str }, { required: ['c'] }), 'output')).toEqual(['unproven', ['union_ambiguous']])
  })

  it('says unproven, not breaking, when only several untagged branches together could accept the new values', () => {
    // Each new object fits one old branch or the other, but no single branch takes them all.
    const old = { anyOf: [closed({ k: { const: 0 }, a: str }, { required: ['k'] }), closed({ k: { const: 1 }, a: str, b: int }, { required: ['k', 'b'] })] }
    expect(verdict(old, closed({ k: { enum: [0, 1] }, a: str }, { required: ['k'] }), 'output')).toEqual(['unproven', ['union_ambiguous']])
  })

  it('stops trying branches of nested untagged unions past its budget and says unproven (regression: 3 ** 14 trials)', () => {
    const defs: Record<string, Schema> = { L0: str }
    const now: Record<string, Schema> = { L0: str }
    for (let level = 1; level <= 14; level++) {
      const v = { $ref: `#/$defs/L${level - 1}` }
      // Overlapping enums: no tag tells the branches apart, so each one is tried in turn.
      defs[`L${level}`] = { anyOf: [0, 1, 2].map((i) => obj({ v, k: { enum: [i, 9] } }, { required: ['v', 'k'] })) }
      now[`L${level}`] = obj({ v, k: { const: 2 } }, { required: ['v', 'k'] })
    }
    const result = compareSchemas({ $defs: defs, $ref: '#/$defs/L14' }, { $defs: now, $ref: '#/$defs/L14' }, 'output')
    expect(result.verdict).toBe('unproven')
    expect(result.reasons.map((r) => r.message)).toContainEqual(expect.stringMatching(/combine into more than 100000 positions to try/))
  })

  it('says unproven, with the reason, where the proof cannot decide: a changed pattern, a keyword it does not read', () => {
    const [kind, codes] = verdict(obj({ id: { type: 'string', pattern: '^[a-z]+$' } }), obj({ id: { type: 'string', pattern: '^[a-z]{1,5}$' } }), 'output')
    expect([kind, codes]).toEqual(['unproven', ['constraint_loosened']])
    const result = compareSchemas(obj({ id: { type: 'string', pattern: '^a' } }), obj({ id: { type: 'string', pattern: '^b' } }), 'output')
    expect(result.reasons[0]!.message).toMatch(/compared as written/)
    expect(verdict({ allOf: [obj({ id: str })] }, obj({ id: str }), 'output')).toEqual(['unproven', ['unsupported_keyword']])
    expect(verdict(obj({ id: { $ref: '#/$defs/Missing' } }), obj({ id: str }), 'output')).toEqual(['unproven', ['unresolved_ref']])
  })

  it('calls a loosened bound breaking (decided: bounds compare as numbers)', () => {
    expect(verdict({ type: 'string', maxLength: 10 }, { type: 'string', maxLength: 20 }, 'output')).toEqual(['breaking', ['constraint_loosened']])
    expect(verdict({ type: 'string', maxLength: 20 }, { type: 'string', maxLength: 10 }, 'output')).toEqual(['compatible', []])
  })

  it('words reasons in old and new, locates them at JSON Pointers into both schemas, and names the field', () => {
    const old = obj({ session: obj({ runtime: obj({ generation: int, status: str }) }) })
    const now = obj({ session: obj({ runtime: obj({ status: str }) }) })
    const { reasons } = compareSchemas(old, now, 'output')
    expect(reasons).toEqual([{
      kind: 'breaking', code: 'field_removed',
      message: 'property "generation" is in the old schema but not in the new schema',
      old_path: '/properties/session/properties/runtime/properties/generation',
      new_path: '/properties/session/properties/runtime/properties/generation',
      field: 'session.runtime.generation',
    }])
  })

  it('keeps quoted property names as they are when it words a reason (regression: a key named "full" or "compact")', () => {
    const { reasons } = compareSchemas(obj({ full: int, compact: int }, { required: ['full'] }), obj({ full: int, compact: int }), 'output')
    expect(reasons[0]!.message).toBe('property "full" is required in the old schema but optional in the new schema')
  })

  it('names array elements and odd keys in field paths', () => {
    const old = obj({ items: { type: 'array', items: obj({ 'a.b': int, id: str }) } })
    const now = obj({ items: { type: 'array', items: obj({ id: str }) } })
    expect(compareSchemas(old, now, 'output').reasons[0]!.field).toBe('items[]["a.b"]')
  })
})

describe('compareSchemas: inputs (every input the old schema accepts, the new one accepts)', () => {
  const old = closed({ session_id: str, limit: int }, { required: ['session_id'] })

  it('calls a new optional field compatible on a closed input, and widening compatible', () => {
    expect(verdict(old, closed({ session_id: str, limit: { type: 'number' }, verbose: { type: 'boolean' } }, { required: ['session_id'] }), 'input')).toEqual(['compatible', []])
    expect(verdict(old, obj({ session_id: str }, { required: ['session_id'] }), 'input')).toEqual(['compatible', []])
  })

  it('calls a new required field, a dropped field of a closed object, a narrowed type breaking', () => {
    expect(verdict(old, closed({ session_id: str, limit: int, mode: str }, { required: ['session_id', 'mode'] }), 'input')).toEqual(['breaking', ['field_made_required']])
    expect(verdict(old, closed({ session_id: str }, { required: ['session_id'] }), 'input')).toEqual(['breaking', ['field_rejected']])
    expect(verdict(old, closed({ session_id: str, limit: { type: 'integer', minimum: 1 } }, { required: ['session_id'] }), 'input')).toEqual(['breaking', ['constraint_tightened']])
    expect(verdict(old, closed({ session_id: { type: 'integer' }, limit: int }, { required: ['session_id'] }), 'input')).toEqual(['breaking', ['type_narrowed']])
  })

  it('reads an open old input as accepting any extra field: a new field of an open input must accept anything (closing it is breaking)', () => {
    const open = obj({ session_id: str }, { required: ['session_id'] })
    // The old input accepted any "limit": null, strings, ... Each refused type is a reason.
    expect(verdict(open, obj({ session_id: str, limit: int }, { required: ['session_id'] }), 'input')).toEqual(['breaking', expect.arrayContaining(['type_narrowed', 'null_refused'])])
    expect(verdict(open, closed({ session_id: str }, { required: ['session_id'] }), 'input')).toEqual(['breaking', ['field_rejected']])
  })

  it('calls an enum value removed breaking and one added compatible', () => {
    expect(verdict(obj({ view: { enum: ['a', 'b'] } }), obj({ view: { enum: ['a'] } }), 'input')).toEqual(['breaking', ['enum_shrunk']])
    expect(verdict(obj({ view: { enum: ['a'] } }), obj({ view: { enum: ['a', 'b'] } }), 'input')).toEqual(['compatible', []])
  })

  it('treats patternProperties beside a closed object as ajv does: keys matching the pattern are accepted', () => {
    const before = closed({}, { patternProperties: { '^x-': str } })
    expect(verdict(before, closed({}, { patternProperties: { '^x-': str } }), 'input')[0]).toBe('compatible')
    expect(verdict(before, closed({}), 'input')).toEqual(['breaking', ['field_rejected']])
    expect(verdict(before, closed({}, { patternProperties: { '^x-': int } }), 'input')).toEqual(['breaking', ['type_narrowed']])
  })
})

describe('compareSchemas arguments', () => {
  it('refuses a schema that is not one and an unknown role (ContractsError)', () => {
    for (const run of [() => compareSchemas(42, {}, 'output'), () => compareSchemas({}, {}, 'both' as SchemaRole)]) {
      let thrown: unknown
      try {
        run()
      } catch (error) {
        thrown = error
      }
      expect(isContractsError(thrown)).toBe(true)
    }
  })

  it('answers a 5,000-deep schema with a typed error, not a stack overflow', () => {
    let deep: Schema = str
    for (let i = 0; i < 5_000; i++) deep = obj({ a: deep })
    let thrown: unknown
    let result: unknown
    try {
      result = compareSchemas(deep, deep, 'output')
    } catch (error) {
      thrown = error
    }
    if (thrown !== undefined) expect(isContractsError(thrown)).toBe(true)
    else expect(result).toMatchObject({ verdict: 'compatible' })
  })
})

describe('compareSchemas: closed objects inside unions', () => {
  const oldOut = {
    anyOf: [
      closed({ status: str }, { required: ['status'] }),
      closed({ status: str, retry_after: { type: 'number' } }, { required: ['status', 'retry_after'] }),
    ],
  }

  it('closed union branch: a field type change is breaking (regression: the closed first branch was read as open and took the new value)', () => {
    const after = closed({ status: str, retry_after: str }, { required: ['status', 'retry_after'] })
    // ajv refuses { status, retry_after: "soon" } under the old schema; the proof cannot split values across branches, so it says unproven.
    expect(verdict(oldOut, after, 'output')).toEqual(['unproven', ['union_ambiguous']])
  })

  it('closed union branch: the same value shape with the old field type is still compatible', () => {
    const after = closed({ status: str, retry_after: int }, { required: ['status', 'retry_after'] })
    expect(verdict(oldOut, after, 'output')).toEqual(['compatible', []])
  })

  it('nullable closed object: a field added is still compatible (one object branch: closedness decides nothing)', () => {
    const old = { anyOf: [closed({ id: str }, { required: ['id'] }), { type: 'null' }] }
    expect(verdict(old, { anyOf: [closed({ id: str, extra: int }, { required: ['id'] }), { type: 'null' }] }, 'output')).toEqual(['compatible', []])
  })
})
