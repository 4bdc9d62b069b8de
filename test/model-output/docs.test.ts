import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { outcomeForModel, ToolError } from 'result-views'

const page = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8')

describe('docs/adapters.md "What the model reads"', () => {
  it('quotes the pending text outcomeForModel writes, in both adapters and MCP docs', () => {
    const text = outcomeForModel({ status: 'approval_pending', tool_call_id: 'c', approval_id: '<id>' }, '<tool_id>').text
    expect(page('adapters.md')).toContain(`| \`${text}\` |`)
    expect(page('mcp.md')).toContain(text.replace('"<tool_id>"', '"<name>"'))
  })

  it('quotes error texts outcomeForModel writes', () => {
    const error = new ToolError({ code: 'tool_invalid_input', reason: 'schema_invalid', message: 'tool "compozy__session_status" input "result_view" must be one of "compact", "full"' })
    expect(page('adapters.md')).toContain(outcomeForModel({ status: 'error', tool_call_id: 'c', error }, 'compozy__session_status').text)
  })
})
