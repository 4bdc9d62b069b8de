import { describe, expect, it } from 'vitest'
import Type from 'typebox'
import { defineTool } from 'result-views'
import { compareContracts, contractLock, formatComparisonTable, isContractsError, viewReleaseNote } from 'result-views/contracts'

/** Control (but the line feed), C1 and bidirectional characters left raw in a text. */
const unprintable = (text: string): string[] =>
  [...text].filter((c) => /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(c)).map((c) => `U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`)

const names = ['esc\u001b[2Khidden', 'bidi\u202eevil', 'c1\u009bx', 'iso\u2066late']
const full = Type.Object({ keep: Type.String(), ...Object.fromEntries(names.map((n) => [n, Type.String()])) }, { additionalProperties: false })
const input = Type.Object({}, { additionalProperties: false })
const before = defineTool({ id: 'n__a', description: 'd', input, output: full, handler: () => ({ keep: 'k' }) })
const after = defineTool({ id: 'n__a', description: 'd', input, output: { compact: Type.Object({ keep: Type.String() }), full }, handler: () => ({ keep: 'k' }) })

describe('text output escapes control, C1 and bidi characters of schema property names', () => {
  it('cli-text-writes-control-and-bidi-chars: the drift table writes them as \\u{…}', () => {
    const table = formatComparisonTable(compareContracts(contractLock([before]), [after]))
    expect(table).toContain('field_removed')
    expect(unprintable(table)).toEqual([])
    expect(table).toContain('esc\\u{1b}[2Khidden')
    expect(table).toContain('bidi\\u{202e}evil')
    expect(table).toContain('c1\\u{9b}x')
  })

  it('cli-text-writes-control-and-bidi-chars: the release note Markdown writes them as \\u{…}, the data keeps them', () => {
    const note = viewReleaseNote(contractLock([before]), [after])
    expect(unprintable(note.markdown)).toEqual([])
    expect(note.markdown).toContain('["bidi\\u{202e}evil"]')
    expect(note.tools[0]!.moved_to_full).toHaveLength(names.length)
    expect(note.tools[0]!.moved_to_full).toContain('["bidi\u202eevil"]')
  })
})

describe('formatComparisonTable arguments', () => {
  it('refuses what is not a comparison with a ContractsError (regression: formatComparisonTable({}) threw a raw TypeError)', () => {
    for (const value of [{}, null, 7, { tools: [], summary: 3 }, { tools: [{}], summary: {} }, new Proxy({}, { get: () => { throw new Error('trap') } })]) {
      let thrown: unknown
      try {
        formatComparisonTable(value as never)
      } catch (error) {
        thrown = error
      }
      expect(isContractsError(thrown)).toBe(true)
      expect((thrown as { problems: unknown }).problems).toEqual([expect.objectContaining({ path: '', code: 'invalid_comparison' })])
    }
  })
})
