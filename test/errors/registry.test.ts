import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ToolError, ToolErrorCodes, isToolError } from 'result-views'

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
const documented = [...doc.matchAll(/^### `([a-z_]+)`$/gm)].map((m) => m[1])

describe('error registry', () => {
  it('documents every registered code in docs/errors.md', () => {
    for (const code of Object.keys(ToolErrorCodes)) expect(documented).toContain(code)
  })

  it('registers every code docs/errors.md documents', () => {
    expect(documented.length).toBeGreaterThan(0)
    for (const code of documented) expect(Object.keys(ToolErrorCodes)).toContain(code)
  })

  it('documents each code with its kind', () => {
    for (const [code, { kind }] of Object.entries(ToolErrorCodes)) {
      const section = doc.split(`### \`${code}\``)[1]?.split('\n### ')[0] ?? ''
      expect(section, code).toContain(`Kind: ${kind}.`)
    }
  })
})

describe('ToolError', () => {
  const input = new ToolError({ code: 'tool_invalid_input', reason: 'schema_invalid', message: 'tool "x" input is bad', details: { issues: [] } })
  const denied = new ToolError({ code: 'tool_denied', reason: 'result_view_pinned', message: 'tool "x" result view is pinned to "full" by the caller' })
  const failed = new ToolError({ code: 'tool_execution_failed', reason: 'handler_failed', message: 'tool "x" failed: db down' })

  it('keeps the dispatch message on the dispatch surface', () => {
    expect(input.forSurface('dispatch')).toEqual({ code: 'tool_invalid_input', reason: 'schema_invalid', message: 'tool "x" input is bad', details: { issues: [] } })
  })

  it('redacts the message on cli and http surfaces, keeping code and reason (spec 000 "Errors")', () => {
    for (const surface of ['cli', 'http'] as const) {
      expect(input.forSurface(surface)).toEqual({ code: 'tool_invalid_input', reason: 'schema_invalid', message: 'invalid tool request' })
      expect(denied.forSurface(surface)).toEqual({ code: 'tool_denied', reason: 'result_view_pinned', message: 'tool invocation denied' })
      expect(failed.forSurface(surface)).toEqual({ code: 'tool_execution_failed', reason: 'handler_failed', message: 'tool invocation failed' })
    }
  })

  it('is recognised by its brand, not by instanceof', () => {
    expect(isToolError(input)).toBe(true)
    expect(isToolError(new Error('x'))).toBe(false)
    expect(isToolError({ code: 'tool_denied', reason: 'x', message: 'y' })).toBe(false)
    expect(isToolError(null)).toBe(false)
    const foreign = Object.defineProperty({ code: 'tool_denied' }, Symbol.for('result-views.ToolError'), { value: true })
    expect(isToolError(foreign)).toBe(true)
  })

  it('serializes to its dispatch payload', () => {
    expect(JSON.parse(JSON.stringify(denied))).toEqual({ code: 'tool_denied', reason: 'result_view_pinned', message: denied.message })
  })
})
