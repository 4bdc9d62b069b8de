import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { isLoopError, lintLoop, parseLoopDefinition, parseLoopYaml, runLoop, type LoopDefinition, type LoopDiagnostic } from 'result-views/loop'
import { createDispatcher } from 'result-views'
import { sessionStatusTool, skillViewTool, specLoopYamlCompact } from './support/session-status.js'

const catalog = [sessionStatusTool(), skillViewTool()]

/** The text from `line`/`column` to the end of that line (a leading byte order mark is not counted). */
function textAt(yaml: string, line: number, column: number): string {
  const text = yaml.charCodeAt(0) === 0xfeff ? yaml.slice(1) : yaml
  return text.split('\n')[line - 1]!.slice(column - 1)
}

/** Each diagnostic as `[code, text at its position]`. */
function located(yaml: string, diagnostics: readonly LoopDiagnostic[]): Array<[string, string]> {
  return diagnostics.map((d) => {
    expect(d.line, `${d.code} at ${d.path} has a line`).toBeTypeOf('number')
    return [d.code, textAt(yaml, d.line!, d.column!)]
  })
}

/** A Loop: `inspect` (the session tool) → `report` (a host action) whose params are `params` (YAML lines at 8 spaces). */
const reportLoop = (params: string[], more = ''): string =>
  [
    'graph:',
    '  nodes:',
    '    - id: inspect',
    '      class: action',
    '      kind: compozy__session_status',
    '      params: { session_id: s }',
    '    - id: report',
    '      class: action',
    '      kind: run-agent',
    '      params:',
    ...params.map((p) => `        ${p}`),
    more,
    '  edges:',
    '    - from: inspect',
    '      to: report',
    '',
  ].join('\n')

/** A reference to a field neither view has (`unresolvable_path`). */
const BAD = '{{ .nodes.inspect.output.session_idd }}'

/** Lints `yaml`: its diagnostics are at `expected` (`[path, line, column]`), and the text at each is {@link BAD}. */
function expectBadAt(yaml: string, expected: Array<[string, number, number]>): void {
  const diagnostics = lintLoop(parseLoopYaml(yaml), catalog)
  expect(diagnostics.map((d) => [d.path, d.line, d.column])).toEqual(expected)
  expect(located(yaml, diagnostics).map(([, text]) => text.slice(0, BAD.length))).toEqual(expected.map(() => BAD))
}

describe('lint positions: templates in every scalar style', () => {
  it('points at the "{{" of the template, not at the start of the string', () => {
    expectBadAt(reportLoop([`plain: see ${BAD} now`, `single: 'it''s ${BAD}'`, `double: "say \\"hi\\" \\t \\u00e9 \\\\ ${BAD}"`]), [
      ['/graph/nodes/1/params/plain', 11, 20],
      ['/graph/nodes/1/params/single', 12, 24],
      ['/graph/nodes/1/params/double', 13, 42],
    ])
  })

  it('counts escapes that write a "{" (\\x7b, \\u007B, \\U0000007b) as the brace they make', () => {
    const yaml = reportLoop([`p: "\\x7b \\u007B \\U0000007b { ${BAD}"`])
    expect(located(yaml, lintLoop(parseLoopYaml(yaml), catalog))).toEqual([['unresolvable_path', `${BAD}"`]])
    // A template whose own braces are escapes is located at the escape that makes its "{".
    const escaped = reportLoop([`p: "\\x7b{ .nodes.inspect.output.session_idd }}"`])
    expect(located(escaped, lintLoop(parseLoopYaml(escaped), catalog))).toEqual([['unresolvable_path', '\\x7b{ .nodes.inspect.output.session_idd }}"']])
  })

  it('locates each of several templates in one string on its own', () => {
    const yaml = reportLoop([`p: "${BAD} and {{ .nodes.inspect.output.sesion }} and {{ .nodes.ghost.output.x }}"`])
    const diagnostics = lintLoop(parseLoopYaml(yaml), catalog)
    expect(diagnostics.map((d) => d.column)).toEqual([13, 57, 96])
    expect(located(yaml, diagnostics).map(([code, text]) => [code, text.slice(0, text.indexOf('}}') + 2)])).toEqual([
      ['unresolvable_path', BAD],
      ['unresolvable_path', '{{ .nodes.inspect.output.sesion }}'],
      ['unknown_node', '{{ .nodes.ghost.output.x }}'],
    ])
  })

  it('locates templates in multi-line quoted strings and in literal and folded block scalars (whose header comment is skipped)', () => {
    const yaml = reportLoop([`quoted: "first line`, `  then ${BAD}"`, `literal: |  # {{ not a template }}`, `  one`, `  two ${BAD}`, `folded: >-`, `  folded text`, `  ${BAD} end`])
    expectBadAt(yaml, [
      ['/graph/nodes/1/params/quoted', 12, 16],
      ['/graph/nodes/1/params/literal', 15, 15],
      ['/graph/nodes/1/params/folded', 18, 11],
    ])
  })

  it('locates templates in multi-line plain scalars and in block scalars with indentation and chomping indicators', () => {
    expectBadAt(reportLoop([`plain: first line`, `  then ${BAD}`, `kept: |2+`, `     indented ${BAD}`, '', `strip: >-1`, `  x  ${BAD}`]), [
      ['/graph/nodes/1/params/plain', 12, 16],
      ['/graph/nodes/1/params/kept', 14, 23],
      ['/graph/nodes/1/params/strip', 17, 14],
    ])
  })

  it('locates templates in flow mappings and lists, and under numeric keys', () => {
    expectBadAt(reportLoop([`flow: { a: "x ${BAD}", list: [ok, '${BAD}'] }`, `1: "${BAD}"`]), [
      // An integer-like key comes first in a JavaScript object, so in the definition too.
      ['/graph/nodes/1/params/1', 12, 13],
      ['/graph/nodes/1/params/flow/a', 11, 23],
      ['/graph/nodes/1/params/flow/list/1', 11, 77],
    ])
  })

  it('locates a template written once under an anchor and used through an alias where it is written', () => {
    expectBadAt(reportLoop([`a: &shared "${BAD}"`, `b: *shared`]), [
      ['/graph/nodes/1/params/a', 11, 21],
      ['/graph/nodes/1/params/b', 11, 21],
    ])
  })

  it('locates each of 20,000 templates in one long string (the string is read once, not once per template)', () => {
    const yaml = reportLoop([`p: "${Array(20_000).fill(BAD).join(' ')}"`])
    const diagnostics = lintLoop(parseLoopYaml(yaml), catalog)
    expect(diagnostics.length).toBe(20_000)
    expect(diagnostics.every((d, i) => d.line === 11 && d.column === 13 + i * (BAD.length + 1))).toBe(true)
  })

  it('locates templates under __proto__ and constructor keys', () => {
    expectBadAt(reportLoop([`__proto__: "${BAD}"`, `constructor: { x: "${BAD}" }`]), [
      ['/graph/nodes/1/params/__proto__', 11, 21],
      ['/graph/nodes/1/params/constructor/x', 12, 28],
    ])
  })

  it('locates a malformed template at the "{{" its problem names', () => {
    const yaml = reportLoop([`open: "text {{ .nodes.inspect.output.session.id"`, `nested: "{{ {{ .inputs.x }} }}"`])
    expect(located(yaml, lintLoop(parseLoopYaml(yaml), catalog))).toEqual([
      ['template_malformed', '{{ .nodes.inspect.output.session.id"'],
      ['template_malformed', '{{ .inputs.x }} }}"'],
    ])
  })
})

describe('lint positions: values, keys and edges', () => {
  it('points at the value a diagnostic names: a kind, an id, a result_view, a produces entry, an edge end, the edge closing a cycle', () => {
    const yaml = [
      'graph:',
      '  nodes:',
      '    - id: inspect',
      '      class: action',
      '      kind: compozy__session_status',
      '      params: { session_id: s, result_view: "{{ .inputs.view }}" }',
      '    - { id: a, class: action, kind: mystery }',
      '    - id: a',
      '      class: action',
      '      kind: run-agent',
      '    - id: skill',
      '      class: action',
      '      kind: compozy__skill_view',
      '      produces: [skill.id, skill.titel]',
      '  edges:',
      '    - { from: a, to: ghost }',
      '    - from: skill',
      '      to: skill',
      '',
    ].join('\n')
    const diagnostics = lintLoop(parseLoopYaml(yaml), catalog, { actions: ['run-agent'] })
    expect(diagnostics.map((d) => [d.code, d.path, d.line, d.column])).toEqual([
      ['duplicate_node_id', '/graph/nodes/2/id', 8, 11],
      ['unknown_node', '/graph/edges/0/to', 16, 22],
      ['graph_cycle', '/graph/edges/1', 17, 7],
      ['result_view_not_literal', '/graph/nodes/0/params/result_view', 6, 45],
      ['unknown_kind', '/graph/nodes/1/kind', 7, 37],
      ['unresolvable_path', '/graph/nodes/3/produces/1', 14, 28],
    ])
    expect(located(yaml, diagnostics).map(([, text]) => text)).toEqual(['a', 'ghost }', 'from: skill', '"{{ .inputs.view }}" }', 'mystery }', 'skill.titel]'])
  })

  it('locates a value written with no text (kind:) at its key, and a missing key at its node', () => {
    const yaml = 'graph:\n  nodes:\n    - id: a\n      class: action\n      kind:\n    - id: b\n      kind: k\n'
    try {
      parseLoopYaml(yaml)
      expect.unreachable()
    } catch (error) {
      if (!isLoopError(error)) throw error
      expect(error.problems).toEqual([
        { path: '/graph/nodes/0/kind', code: 'invalid_node', message: 'node kind must be a non-empty string', line: 5, column: 7 },
        { path: '/graph/nodes/1/class', code: 'invalid_node', message: expect.stringContaining('node class must be'), line: 6, column: 7 },
      ])
    }
  })
})

describe('lint positions: documents', () => {
  const body = reportLoop([`p: "${BAD}"`])

  it.each([
    ['a %YAML directive, a start marker, comments and an end marker', `%YAML 1.2\n# leading\n---\n${body}...\n# trailing\n`, 3],
    ['a start marker only', `---\n${body}`, 1],
    ['a byte order mark (not counted as a column)', `\ufeff${body}`, 0],
  ])('keeps positions right with %s', (_, yaml, shift) => {
    const [diagnostic] = lintLoop(parseLoopYaml(yaml), catalog)
    expect([diagnostic!.line, diagnostic!.column]).toEqual([11 + shift, 13])
    expect(textAt(yaml, diagnostic!.line!, diagnostic!.column!)).toBe(`${BAD}"`)
  })

  it('keeps positions right with CRLF line endings, in block scalars too', () => {
    expectBadAt(reportLoop([`p: "${BAD}"`, 'q: |', `  x ${BAD}`]).replace(/\n/g, '\r\n'), [
      ['/graph/nodes/1/params/p', 11, 13],
      ['/graph/nodes/1/params/q', 13, 13],
    ])
  })

  it('refuses a second document at the line where it starts', () => {
    try {
      parseLoopYaml(`${body}---\n${body}`)
      expect.unreachable()
    } catch (error) {
      if (!isLoopError(error)) throw error
      expect(error.problems[0]).toMatchObject({ line: 16, column: 1 })
    }
  })
})

describe('lint positions: where a definition came from', () => {
  it('gives no position for a definition given as an object, or one that went through JSON', () => {
    const parsed = parseLoopYaml(specLoopYamlCompact)
    const [fromYaml] = lintLoop(parsed, catalog)
    expect(fromYaml).toMatchObject({ line: 13, column: 33 })
    const [fromJson] = lintLoop(JSON.parse(JSON.stringify(parsed)) as LoopDefinition, catalog)
    expect(fromJson).not.toHaveProperty('line')
    expect(fromJson).not.toHaveProperty('column')
    expect({ ...fromJson, line: 13, column: 33 }).toEqual(fromYaml)
  })

  it('keeps positions through parseLoopDefinition copies and in the diagnostics runLoop throws', async () => {
    const copy = parseLoopDefinition(parseLoopDefinition(parseLoopYaml(specLoopYamlCompact)))
    expect(lintLoop(copy, catalog)[0]).toMatchObject({ line: 13, column: 33 })
    const dispatcher = createDispatcher({ tools: catalog })
    const error = await runLoop(copy, { dispatcher, actions: { 'run-agent': () => null } }).then(
      () => undefined,
      (e: unknown) => e,
    )
    if (!isLoopError(error)) throw new TypeError('expected a LoopError')
    expect(error.diagnostics).toEqual([expect.objectContaining({ code: 'result_view_field_requires_full', line: 13, column: 33 })])
    expect(error.message).toContain('result_view_field_requires_full at line 13, column 33: node "report" reads')
  })
})

// ---------------------------------------------------------------------------------------------
// Property: for generated Loop YAML, in every style, each position points at what it refers to.

type Piece = { readonly template: true; readonly text: string } | { readonly template: false; readonly text: string }
type Style = 'plain' | 'single' | 'double' | 'double-multiline' | 'literal' | 'folded'

const references = [
  '.nodes.inspect.output.session.id',
  '.nodes.inspect.output.session.idd',
  '.nodes.inspect.output.session.lineage.permission_policy.tools',
  '.nodes.inspect.output.session.lineage.permision_policy',
  '.nodes.inspect.output.sesion',
  '.nodes.inspect.output.session.supervision.owner',
  '.nodes.ghost.output.x',
  '.nodes.skill.output.skill.titel',
  '.inputs.session_id',
]
const template: fc.Arbitrary<Piece> = fc.oneof(
  fc.tuple(fc.constantFrom(...references), fc.constantFrom(' ', '', '  ')).map(([ref, pad]) => ({ template: true as const, text: `{{${pad}${ref}${pad}}}` })),
  fc.constantFrom('{{ }}', '{{ .nodes.inspect.output.session.id .inputs.x }}').map((text) => ({ template: true as const, text })),
)
const word: fc.Arbitrary<Piece> = fc.oneof(
  fc.stringMatching(/^[a-z]{1,5}$/).map((text) => ({ template: false as const, text })),
  fc.constantFrom("'", '"', '\\', '{', 'é', '}}', '#x').map((text) => ({ template: false as const, text })),
)
const pieces = fc.array(fc.oneof(template, word), { minLength: 1, maxLength: 6 })

/** Writes one params string as YAML in `style`, after `key: ` at `indent` spaces; `null` when the style cannot hold it. */
function writeString(key: string, parts: readonly Piece[], style: Style, indent: number): string[] | null {
  const pad = ' '.repeat(indent)
  const simple = parts.every((p) => p.template || /^[a-z]+$/.test(p.text))
  const joined = parts.map((p) => p.text).join(' ')
  if (style === 'plain') return simple && !parts[0]!.template ? [`${pad}${key}: ${joined}`] : null
  if (style === 'single') return [`${pad}${key}: '${joined.replace(/'/g, "''")}'`]
  const escape = (p: Piece, index: number): string =>
    p.template ? p.text : p.text === '{' ? ['{', '\\x7b', '\\u007B'][index % 3]! : p.text === 'é' && index % 2 === 0 ? '\\u00e9' : p.text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')
  if (style === 'double') return [`${pad}${key}: "${parts.map(escape).join(' ')}"`]
  if (style === 'double-multiline') {
    // One piece per line: the line breaks fold to spaces.
    const written = parts.map(escape)
    if (written.length === 1) return [`${pad}${key}: "${written[0]}"`]
    return [`${pad}${key}: "${written[0]}`, ...written.slice(1, -1).map((l) => `${pad}  ${l}`), `${pad}  ${written[written.length - 1]}"`]
  }
  // Block scalars: one piece per line, the header with a comment that looks like a template.
  return [`${pad}${key}: ${style === 'literal' ? '|' : '>-'}  # {{ .nodes.not.output.here }}`, ...parts.map((p) => `${pad}  ${p.text}`)]
}

const styles: fc.Arbitrary<Style> = fc.constantFrom('plain', 'single', 'double', 'double-multiline', 'literal', 'folded')
const param = fc.record({ parts: pieces, style: styles })
const readerNode = fc.record({ params: fc.array(param, { minLength: 1, maxLength: 3 }), flow: fc.boolean() })
const loopYaml = fc
  .record({
    readers: fc.array(readerNode, { minLength: 1, maxLength: 3 }),
    full: fc.boolean(),
    prefix: fc.constantFrom('', '---\n', '%YAML 1.2\n---\n', '# a comment\n', '\ufeff'),
    suffix: fc.constantFrom('', '...\n'),
    crlf: fc.boolean(),
    ghostEdge: fc.boolean(),
  })
  .map(({ readers, full, prefix, suffix, crlf, ghostEdge }) => {
    const lines = ['graph:', '  nodes:', '    - id: inspect', '      class: action', '      kind: compozy__session_status', '      params:', '        session_id: s']
    if (full) lines.push('        result_view: full')
    lines.push('    - { id: skill, class: action, kind: compozy__skill_view, params: { skill_id: t } }')
    readers.forEach((reader, r) => {
      lines.push(`    - id: r${r}`, '      class: action', '      kind: run-agent')
      const quotedOnly = reader.params.every((p) => p.style === 'single' || p.style === 'double')
      if (reader.flow && quotedOnly) {
        const written = reader.params.map((p, i) => writeString(`p${i}`, p.parts, p.style, 0)![0])
        lines.push(`      params: { ${written.join(', ')} }`)
      } else {
        lines.push('      params:')
        reader.params.forEach((p, i) => lines.push(...(writeString(`p${i}`, p.parts, p.style, 8) ?? writeString(`p${i}`, p.parts, 'double', 8)!)))
      }
    })
    lines.push('  edges:')
    readers.forEach((_, r) => lines.push('    - from: inspect', `      to: r${r}`, `    - { from: skill, to: r${r} }`))
    if (ghostEdge) lines.push('    - from: r0', '      to: ghost')
    const text = prefix + lines.join('\n') + '\n' + suffix
    return crlf ? text.replace(/\n/g, '\r\n') : text
  })

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('lint positions (property)', () => {
  it('every position of generated Loop YAML points at the template or value the diagnostic refers to', () => {
    fc.assert(
      fc.property(loopYaml, (yaml) => {
        const definition = parseLoopYaml(yaml)
        const diagnostics = lintLoop(definition, catalog, { actions: ['run-agent'] })
        for (const d of diagnostics) {
          expect(d.line, d.message).toBeTypeOf('number')
          const text = textAt(yaml, d.line!, d.column!)
          const reference = /reads (nodes\.[A-Za-z0-9_-]+\.output(?:\.[A-Za-z0-9_-]+)*)/.exec(d.message)?.[1]
          if (reference !== undefined) {
            expect(text, d.message).toMatch(new RegExp(`^\\{\\{\\s*\\.${escapeRegExp(reference)}\\s*\\}\\}`))
          } else if (d.code === 'template_malformed') {
            expect(text, d.message).toMatch(/^\{\{/)
          } else {
            expect(d.code).toBe('unknown_node')
            expect(text, d.message).toMatch(/^ghost/)
          }
        }
      }),
      { numRuns: 300 },
    )
  })
})
