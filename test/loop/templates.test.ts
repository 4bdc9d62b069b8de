import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { formatReference, parseTemplate, type TemplateReference } from 'result-views/loop'

const ref = (node_id: string, ...path: string[]): TemplateReference => ({ root: 'nodes', node_id, path })
const input = (name: string, ...path: string[]): TemplateReference => ({ root: 'inputs', name, path })

describe('parseTemplate', () => {
  it('parses the spec references', () => {
    expect(parseTemplate('{{ .inputs.session_id }}')).toEqual({
      ok: true,
      parts: [{ kind: 'reference', reference: input('session_id'), start: 0, end: 24 }],
      references: [input('session_id')],
    })
    const text = 'Tools allowed: {{ .nodes.inspect.output.session.lineage.permission_policy.tools }}'
    expect(parseTemplate(text)).toEqual({
      ok: true,
      parts: [
        { kind: 'text', text: 'Tools allowed: ' },
        { kind: 'reference', reference: ref('inspect', 'session', 'lineage', 'permission_policy', 'tools'), start: 15, end: text.length },
      ],
      references: [ref('inspect', 'session', 'lineage', 'permission_policy', 'tools')],
    })
  })

  it('finds several references in one string, with any whitespace inside the braces', () => {
    const parsed = parseTemplate('{{.inputs.a}} and {{   .nodes.n-1.output.items.0.name\t}}, {{\n.nodes._x.output }}!')
    expect(parsed.ok && parsed.references).toEqual([input('a'), ref('n-1', 'items', '0', 'name'), ref('_x')])
    expect(parsed.ok && parsed.parts.map((p) => p.kind)).toEqual(['reference', 'text', 'reference', 'text', 'reference', 'text'])
  })

  it('reads inputs with a path', () => {
    expect(parseTemplate('{{ .inputs.cfg.retries }}')).toMatchObject({ ok: true, references: [input('cfg', 'retries')] })
  })

  it('keeps text without templates, and a stray "}}", as literal text', () => {
    expect(parseTemplate('plain }} text')).toEqual({ ok: true, parts: [{ kind: 'text', text: 'plain }} text' }], references: [] })
    expect(parseTemplate('')).toEqual({ ok: true, parts: [], references: [] })
  })

  it.each([
    ['x {{ .inputs.a', 'unclosed "{{" (no matching "}}")', 2],
    ['{{ {{ .inputs.a }}', '"{{" inside a template (templates do not nest; close the first with "}}")', 3],
    ['{{ {{ .inputs.x }} }}', '"{{" inside a template (templates do not nest; close the first with "}}")', 3],
    ['ab {{.inputs.a {{ .inputs.b }}', '"{{" inside a template (templates do not nest; close the first with "}}")', 15],
    ['{{ .inputs.x .inputs.y }}', 'expected one reference per "{{ }}", found ".inputs.x .inputs.y"; write each reference in its own "{{ }}"', 0],
    ['x {{ .inputs.x   .nodes.a.output }}', 'expected one reference per "{{ }}", found ".inputs.x   .nodes.a.output"; write each reference in its own "{{ }}"', 2],
    ['ok {{ .inputs.a }} {{   }}', 'empty template', 19],
    ['{{ inputs.a }}', 'expected one reference such as ".inputs.<name>" or ".nodes.<id>.output.<path>", found "inputs.a"', 0],
    ['{{ .env.HOME }}', 'expected one reference such as ".inputs.<name>" or ".nodes.<id>.output.<path>", found ".env.HOME"', 0],
    ['{{ .inputs }}', '".inputs" needs an input name, found ".inputs"', 0],
    ['{{ .nodes.inspect }}', 'expected ".nodes.<id>.output", found ".nodes.inspect"', 0],
    ['{{ .nodes.inspect.outputs.x }}', 'expected ".nodes.<id>.output", found ".nodes.inspect.outputs.x"', 0],
    ['{{ .nodes.9x.output }}', 'invalid node id "9x" in ".nodes.9x.output"', 0],
    ['{{ .inputs..a }}', 'empty path segment in ".inputs..a"', 0],
    ['{{ .inputs.a. }}', 'empty path segment in ".inputs.a."', 0],
    ['{{ .inputs.a | upper }}', 'invalid path segment "a | upper" in ".inputs.a | upper"', 0],
    ['{{ .inputs.a b }}', 'invalid path segment "a b" in ".inputs.a b"', 0],
  ])('reports %j as malformed', (text, message, offset) => {
    expect(parseTemplate(text)).toEqual({ ok: false, problem: { message, offset } })
  })

  it.each([null, undefined, 42, {}, ['{{ .inputs.a }}']])('returns the malformed result for the non-string %j, never throws', (value) => {
    const parsed = parseTemplate(value as unknown as string)
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.problem.offset).toBe(0)
    expect(!parsed.ok && parsed.problem.message).toMatch(/^template must be a string, found /)
  })

  it('never throws, whatever it is given', () => {
    fc.assert(fc.property(fc.anything(), (value) => typeof parseTemplate(value as string).ok === 'boolean'))
  })

  it('quotes at most 80 characters of a bad expression', () => {
    const parsed = parseTemplate(`{{ ${'x'.repeat(200)} }}`)
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.problem.message).toBe(`expected one reference such as ".inputs.<name>" or ".nodes.<id>.output.<path>", found "${'x'.repeat(80)}…"`)
  })
})

describe('formatReference', () => {
  it('writes references as the spec messages name them', () => {
    expect(formatReference(ref('inspect', 'session', 'id'))).toBe('nodes.inspect.output.session.id')
    expect(formatReference(ref('inspect'))).toBe('nodes.inspect.output')
    expect(formatReference(input('session_id'))).toBe('inputs.session_id')
  })
})

// Property tests: templates built from random references and literal text.
const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/)
const nodeId = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/)
const reference: fc.Arbitrary<TemplateReference> = fc.oneof(
  fc.record({ root: fc.constant('inputs' as const), name: segment, path: fc.array(segment, { maxLength: 4 }) }),
  fc.record({ root: fc.constant('nodes' as const), node_id: nodeId, path: fc.array(segment, { maxLength: 4 }) }),
)
const space = fc.stringMatching(/^[ \t\n]{0,3}$/)
/** Literal text that cannot open a template: no "{{", and no "{" at the end (it would join the next "{{"). */
const literal = fc.string({ maxLength: 12 }).filter((s) => !s.includes('{{') && !s.endsWith('{'))

describe('parseTemplate (properties)', () => {
  it('finds exactly the references a template was built from, in order, with the text between them', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(literal, reference, space, space), { maxLength: 6 }), literal, (pieces, tail) => {
        let text = ''
        for (const [before, r, left, right] of pieces) text += `${before}{{${left}.${formatReference(r)}${right}}}`
        text += tail
        const parsed = parseTemplate(text)
        expect(parsed.ok).toBe(true)
        if (!parsed.ok) return
        expect(parsed.references).toEqual(pieces.map(([, r]) => r))
        const literalText = parsed.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('')
        expect(literalText).toBe(pieces.map(([before]) => before).join('') + tail)
        for (const part of parsed.parts) if (part.kind === 'reference') expect(text.slice(part.start, part.start + 2)).toBe('{{')
      }),
    )
  })

  it('never throws on arbitrary text: it answers ok, or a problem with a message and an offset inside the text', () => {
    const noisy = fc.array(fc.oneof(fc.constantFrom('{{', '}}', '{', '}', '.', '.nodes', '.inputs', '.output', ' ', 'a', '0', '|'), fc.string({ maxLength: 3 })), { maxLength: 12 }).map((parts) => parts.join(''))
    fc.assert(
      fc.property(fc.oneof(noisy, fc.string()), (text) => {
        const parsed = parseTemplate(text)
        if (!parsed.ok) {
          expect(typeof parsed.problem.message).toBe('string')
          expect(parsed.problem.message.length).toBeGreaterThan(0)
          expect(parsed.problem.offset).toBeGreaterThanOrEqual(0)
          expect(parsed.problem.offset).toBeLessThan(text.length)
          expect(text.slice(parsed.problem.offset, parsed.problem.offset + 2)).toBe('{{')
        }
      }),
      { numRuns: 2000 },
    )
  })
})
