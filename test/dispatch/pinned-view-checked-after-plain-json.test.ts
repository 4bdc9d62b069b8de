// The order of the input checks (docs/views.md "Dispatch"): the selector's rows 1–3 of spec 000
// "Errors", then plain JSON, then the pinned view (row 6, a denial), then the schema. The input
// `{ extra: NaN, result_view: 'full' }` on a call pinned to "compact" is `non_json_input`, and the
// docs say so in that order.
import { readFileSync } from 'node:fs'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { errorOf } from '../support/outcomes.js'

const notes = defineTool({
  id: 'notes__read',
  description: 'Read a note.',
  input: Type.Object({ id: Type.Optional(Type.String()) }),
  output: { compact: Type.Object({ id: Type.String() }), full: Type.Object({ id: Type.String(), body: Type.String() }) },
  handler: () => ({ id: 'n1', body: 'b' }),
})
const dispatcher = createDispatcher({ tools: [notes] })
const pinnedCompact = (input: unknown) => dispatcher.invoke({ tool_id: 'notes__read', input, pinned_result_view: 'compact' })

describe('a pinned view is checked after plain JSON, before the schema', () => {
  it('{ extra: NaN, result_view: "full" } pinned to compact → non_json_input', async () => {
    expect(errorOf(await pinnedCompact({ extra: Number.NaN, result_view: 'full' }))).toMatchObject({ code: 'tool_invalid_input', reason: 'non_json_input' })
  })

  it('a plain JSON input selecting another view than the pinned one → result_view_pinned, before its schema errors', async () => {
    expect(errorOf(await pinnedCompact({ id: 7, result_view: 'full' }))).toMatchObject({ code: 'tool_denied', reason: 'result_view_pinned' })
  })

  it('an invalid selector still decides first (row 1), whatever else the input holds', async () => {
    expect(errorOf(await pinnedCompact({ extra: Number.NaN, result_view: 'wide' }))).toMatchObject({ code: 'tool_invalid_input', reason: 'schema_invalid' })
  })

  it('docs/views.md "Dispatch" lists the checks in this order', () => {
    const text = readFileSync(new URL('../../docs/views.md', import.meta.url), 'utf8')
    const dispatch = text.slice(text.indexOf('## Dispatch'))
    const line = dispatch.slice(0, dispatch.indexOf('→ outcome')).replace(/\s+/g, ' ')
    const at = (words: string) => {
      const index = line.indexOf(words)
      expect(index, words).toBeGreaterThan(-1)
      return index
    }
    expect(at('rows 1–3')).toBeLessThan(at('plain-JSON input'))
    expect(at('plain-JSON input')).toBeLessThan(at('pinned view'))
    expect(at('pinned view')).toBeLessThan(at('ajv input validation'))
  })
})
