import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ToolError, ToolErrorCodes, UsageError, UsageErrorCodes, isToolError, isUsageError } from 'result-views'

const page = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
const [doc = '', misuseDoc = ''] = page.split(/^## Misuse errors$/m)
const documented = [...doc.matchAll(/^### `([a-z_]+)`$/gm)].map((m) => m[1])
const documentedMisuse = [...misuseDoc.matchAll(/^#### `([a-z_]+)`$/gm)].map((m) => m[1])

/** The section of one tool error code: from its level-3 heading to the next heading. */
function sectionOf(code: string): string {
  return doc.split(`### \`${code}\``)[1]?.split(/\n##/)[0] ?? ''
}

/** The reasons a code's table lists: the first column of each row, sorted. */
function documentedReasons(code: string): string[] {
  return [...sectionOf(code).matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!).sort()
}

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
      expect(sectionOf(code), code).toContain(`Kind: ${kind}.`)
    }
  })

  it("documents every registered reason in its code's table, and registers every documented one", () => {
    for (const [code, { reasons }] of Object.entries(ToolErrorCodes)) {
      expect(reasons.length, code).toBeGreaterThan(0)
      expect(documentedReasons(code), code).toEqual([...reasons].sort())
    }
  })

  it('registers each reason once per code', () => {
    for (const [code, { reasons }] of Object.entries(ToolErrorCodes)) expect(new Set(reasons).size, code).toBe(reasons.length)
  })
})

describe('misuse registry', () => {
  it('has a misuse section after the tool error codes', () => {
    expect(misuseDoc.length).toBeGreaterThan(0)
  })

  it('documents every registered misuse code in docs/errors.md, and registers every documented one', () => {
    expect(documentedMisuse.sort()).toEqual(Object.keys(UsageErrorCodes).sort())
  })

  it('names the class that throws each misuse code in its section', () => {
    for (const [code, { thrownBy }] of Object.entries(UsageErrorCodes)) {
      const section = misuseDoc.split(`#### \`${code}\``)[1]?.split('\n#### ')[0] ?? ''
      expect(section, code).toContain(`\`${thrownBy}\``)
    }
  })
})

describe('UsageError', () => {
  const error = new UsageError({
    code: 'tool_definition_invalid',
    subject: 'tool "x"',
    problems: [{ path: '/id', code: 'invalid_id', message: 'must be a non-empty string' }],
  })

  it('lists its problems in the message under the subject', () => {
    expect(error.message).toBe('tool "x" is invalid (1 problem):\n  - /id: must be a non-empty string')
    expect(error.code).toBe('tool_definition_invalid')
    expect(error.problems).toEqual([{ path: '/id', code: 'invalid_id', message: 'must be a non-empty string' }])
    expect(Object.isFrozen(error.problems)).toBe(true)
  })

  it('is recognised by its brand across copies, not by instanceof', () => {
    expect(isUsageError(error)).toBe(true)
    expect(isUsageError(new Error('x'))).toBe(false)
    expect(isUsageError({ code: 'tool_definition_invalid', problems: [] })).toBe(false)
    expect(isUsageError(Object.defineProperty({}, Symbol.for('result-views.UsageError'), { value: true }))).toBe(true)
    expect(isToolError(error)).toBe(false)
  })

  it('keeps a cause without making it enumerable', () => {
    const cause = new Error('inner')
    const withCause = new UsageError({ code: 'non_json_value', subject: 'value', problems: [{ path: '', code: 'cycle', message: 'a cycle' }], cause })
    expect(withCause.cause).toBe(cause)
    expect(Object.keys(withCause)).not.toContain('cause')
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
