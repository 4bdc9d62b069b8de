// A definition key defineTool does not know is refused, naming the key it was likely meant to be.
// Before, a misspelt `sensitive_input_fields: ['creds']` was silently ignored, so `creds` reached
// every hook payload unredacted.
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { defineTool, isToolDefinitionError, type ToolDefinitionError, type UsageProblem } from 'result-views'

const base = {
  id: 'vault__use',
  description: 'd',
  input: Type.Object({ creds: Type.Optional(Type.String()) }),
  output: Type.Object({ ok: Type.Boolean() }),
  handler: () => ({ ok: true }),
}

function problemsOf(extra: Record<string, unknown>): UsageProblem[] {
  try {
    defineTool({ ...base, ...extra } as never)
  } catch (error) {
    expect(isToolDefinitionError(error)).toBe(true)
    return [...(error as ToolDefinitionError).problems]
  }
  throw new Error('expected defineTool to throw')
}

describe('defineTool refuses unknown definition keys', () => {
  it('sensitive_input_fields (snake_case): unknown_option, did you mean "sensitiveInputFields"?', () => {
    expect(problemsOf({ sensitive_input_fields: ['creds'] })).toEqual([
      { path: '/sensitive_input_fields', code: 'unknown_option', message: 'unknown definition key "sensitive_input_fields"; did you mean "sensitiveInputFields"?' },
    ])
    expect(() => defineTool({ ...base, sensitive_input_fields: ['creds'] } as never)).toThrow(/tool "vault__use".*did you mean "sensitiveInputFields"\?/s)
  })

  it('suggests by case, "_"/"-" and edit distance; no suggestion for a key near nothing', () => {
    const cases: Array<[string, string | undefined]> = [
      ['SensitiveInputFields', 'sensitiveInputFields'],
      ['sensitive-input-fields', 'sensitiveInputFields'],
      ['sensitiveInputField', 'sensitiveInputFields'],
      ['read_only', 'readOnly'],
      ['input_error_code', 'inputErrorCode'],
      ['handlr', 'handler'],
      ['descripton', 'description'],
      ['totally_unrelated', undefined],
    ]
    for (const [key, meant] of cases) {
      const suffix = meant === undefined ? '' : `; did you mean "${meant}"?`
      expect(problemsOf({ [key]: 1 })).toEqual([{ path: `/${key}`, code: 'unknown_option', message: `unknown definition key "${key}"${suffix}` }])
    }
  })

  it('escapes the key in its JSON Pointer, quotes at most 64 characters, and counts past 20 keys', () => {
    expect(problemsOf({ 'a/b~c': 1 })).toEqual([{ path: '/a~1b~0c', code: 'unknown_option', message: 'unknown definition key "a/b~c"' }])
    const long = 'x'.repeat(100_000)
    const [problem] = problemsOf({ [long]: 1 })
    expect(problem).toEqual({ path: `/${long}`, code: 'unknown_option', message: `unknown definition key "${'x'.repeat(64)}…"` })
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`extra${i}`, i]))
    const problems = problemsOf(many)
    expect(problems).toHaveLength(21)
    expect(problems[20]).toEqual({ path: '', code: 'unknown_option', message: '5 more unknown definition keys' })
  })

  it('a "__proto__" own key is refused like any other, and the prototype is not read', () => {
    const definition = JSON.parse('{"__proto__": {"sensitiveInputFields": ["creds"]}}') as Record<string, unknown>
    expect(problemsOf(definition)).toEqual([{ path: '/__proto__', code: 'unknown_option', message: 'unknown definition key "__proto__"' }])
  })

  it('property: every key outside the definition keys is refused at its pointer, and the known keys never are', () => {
    const known = ['id', 'description', 'input', 'output', 'handler', 'origin', 'risk', 'approval', 'readOnly', 'toolsets', 'sensitiveInputFields', 'inputErrorCode', 'preview']
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }).filter((key) => !known.includes(key)), (key) => {
        const problems = problemsOf({ [key]: true }).filter((p) => p.code === 'unknown_option')
        expect(problems).toHaveLength(1)
        expect(problems[0]!.path).toBe('/' + key.replaceAll('~', '~0').replaceAll('/', '~1'))
      }),
    )
    expect(() => defineTool({ ...base, origin: 'native', risk: 'read', approval: 'none', readOnly: true, toolsets: [], sensitiveInputFields: ['creds'], inputErrorCode: 'tool_invalid_input', preview: () => 'p' })).not.toThrow()
  })
})
