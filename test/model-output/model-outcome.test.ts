import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { outcomeForModel, ToolError, type InvokeOutcome } from 'result-views'

const inputError = new ToolError({
  code: 'tool_invalid_input',
  reason: 'schema_invalid',
  message: 'tool "compozy__session_status" input "result_view" must be one of "compact", "full"',
  details: { issues: [] },
})

describe('outcomeForModel', () => {
  it('gives an ok outcome the selected view record and its JSON text', () => {
    const record = { session: { id: 's1', state: 'active' } }
    const outcome: InvokeOutcome = { status: 'ok', tool_call_id: 'c1', result_view: 'compact', result: { structured: record, preview: 's1' } }
    const model = outcomeForModel(outcome, 'compozy__session_status')
    expect(model).toEqual({ status: 'ok', tool_call_id: 'c1', result_view: 'compact', record, text: '{"session":{"id":"s1","state":"active"}}' })
    expect(model.status === 'ok' && model.record).toBe(record)
    expect(Object.isFrozen(model)).toBe(true)
  })

  it('leaves result_view out for single-result tools', () => {
    const model = outcomeForModel({ status: 'ok', tool_call_id: 'c1', result: { structured: [1, 2], preview: '' } }, 'skills__view')
    expect(model).toEqual({ status: 'ok', tool_call_id: 'c1', record: [1, 2], text: '[1,2]' })
    expect('result_view' in model).toBe(false)
  })

  it('writes a typed error as "<code> (<reason>): <dispatch message>" and keeps details out of the text', () => {
    const model = outcomeForModel({ status: 'error', tool_call_id: 'c2', error: inputError }, 'compozy__session_status')
    expect(model).toEqual({
      status: 'error',
      tool_call_id: 'c2',
      code: 'tool_invalid_input',
      reason: 'schema_invalid',
      details: { issues: [] },
      text: 'tool_invalid_input (schema_invalid): tool "compozy__session_status" input "result_view" must be one of "compact", "full"',
    })
  })

  it('omits details when the error has none', () => {
    const error = new ToolError({ code: 'tool_not_found', reason: 'unknown_tool', message: 'tool "x" is not registered' })
    const model = outcomeForModel({ status: 'error', tool_call_id: 'c3', error }, 'x')
    expect(model).toEqual({ status: 'error', tool_call_id: 'c3', code: 'tool_not_found', reason: 'unknown_tool', text: 'tool_not_found (unknown_tool): tool "x" is not registered' })
    expect('details' in model).toBe(false)
  })

  it('tells the model a pending call runs once approved and must not be retried, naming the approval', () => {
    const model = outcomeForModel({ status: 'approval_pending', tool_call_id: 'c4', approval_id: 'apr-1' }, 'files__delete')
    expect(model).toEqual({
      status: 'approval_pending',
      tool_call_id: 'c4',
      approval_id: 'apr-1',
      text:
        'approval_pending: approval_id=apr-1: tool "files__delete" did not run; it is waiting on approval apr-1 and will run once ' +
        'when the host approves it, and its result is recorded with the approval. Do not call it again to make it run: a new call opens a new approval',
    })
  })

  it('JSON-escapes the tool ID in the pending text', () => {
    const model = outcomeForModel({ status: 'approval_pending', tool_call_id: 'c5', approval_id: 'a' }, 'a"b')
    expect(model.text).toContain('tool "a\\"b" did not run')
  })

  it('gives every plain JSON record a text that parses back to it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (record) => {
        const model = outcomeForModel({ status: 'ok', tool_call_id: 'c', result: { structured: record, preview: '' } }, 't')
        expect(JSON.parse(model.text)).toEqual(JSON.parse(JSON.stringify(record)))
      }),
    )
  })
})
