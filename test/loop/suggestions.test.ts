import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import Type from 'typebox'
import { defineTool } from 'result-views'
import { lintLoop, type LoopDefinition, type LoopNode } from 'result-views/loop'
import { sessionStatusTool } from './support/session-status.js'

/** A tool whose full view adds `sla` (closed) to the compact `{ id, state }`. */
const slaTool = defineTool({
  id: 'ops__ticket',
  description: 'Read one ticket.',
  input: Type.Object({ ticket_id: Type.String() }, { additionalProperties: false }),
  output: {
    compact: Type.Object({ id: Type.String(), state: Type.String() }, { additionalProperties: false }),
    full: Type.Object(
      { id: Type.String(), state: Type.String(), sla: Type.Object({ tier: Type.String(), hours: Type.Number() }, { additionalProperties: false }) },
      { additionalProperties: false },
    ),
  },
  handler: () => ({ id: 't', state: 'open', sla: { tier: 'gold', hours: 4 } }),
})
const catalog = [slaTool, sessionStatusTool()]

/** `x` (the ticket tool, with `params`) → `report`, which reads `output.<path>` of `x`. */
const reads = (path: string, params: Record<string, unknown> = {}, source = 'ops__ticket'): LoopDefinition => ({
  graph: {
    nodes: [
      { id: 'x', class: 'action', kind: source, params: { ticket_id: 't', session_id: 's', ...params } as LoopNode['params'] },
      { id: 'report', class: 'action', kind: 'run-agent', params: { prompt: `{{ .nodes.x.output.${path} }}` } },
    ],
    edges: [{ from: 'x', to: 'report' }],
  },
})
const messages = (definition: LoopDefinition) => lintLoop(definition, catalog).map((d) => [d.code, d.message])

describe('unresolvable_path under a parent only the full view has', () => {
  it('says that the parent exists in the full view, that result_view: full on the source node gives it, and suggests the nearest field (the issue case)', () => {
    expect(messages(reads('sla.tierr'))).toEqual([
      [
        'unresolvable_path',
        'node "report" reads nodes.x.output.sla.tierr, which neither view of ops__ticket includes; deepest valid segment: output.sla, which only the full result has (add `result_view: full` to the params of node "x" to read it), where the full result has fields hours, tier; did you mean output.sla.tier?',
      ],
    ])
  })

  it('keeps the spec message, with nothing added, for a field the full view lists', () => {
    expect(messages(reads('sla.tier'))).toEqual([
      ['result_view_field_requires_full', 'node "report" reads nodes.x.output.sla.tier, which the compact result of ops__ticket does not include; fix: add `result_view: full` to the params of node "x"'],
    ])
  })

  it('answers from the full view when it is selected', () => {
    expect(messages(reads('sla.tierr', { result_view: 'full' }))).toEqual([
      [
        'unresolvable_path',
        'node "report" reads nodes.x.output.sla.tierr, which neither view of ops__ticket includes; deepest valid segment: output.sla, where the full result has fields hours, tier; did you mean output.sla.tier?',
      ],
    ])
  })

  it('says the parent is full-only with no suggestion when no field is near', () => {
    expect(messages(reads('sla.zzz'))[0]![1]).toBe(
      'node "report" reads nodes.x.output.sla.zzz, which neither view of ops__ticket includes; deepest valid segment: output.sla, which only the full result has (add `result_view: full` to the params of node "x" to read it), where the full result has fields hours, tier',
    )
  })

  it('does the same for a produces entry of the tool node itself', () => {
    const definition: LoopDefinition = { graph: { nodes: [{ id: 'x', class: 'action', kind: 'ops__ticket', params: { ticket_id: 't' }, produces: ['sla.hourz'] }] } }
    expect(messages(definition)[0]![1]).toBe(
      'node "x" produces sla.hourz, which neither view of ops__ticket includes; deepest valid segment: output.sla, which only the full result has (add `result_view: full` to the params of node "x" to read it), where the full result has fields hours, tier; did you mean output.sla.hours?',
    )
  })
})

describe('the nearest field name, in either view', () => {
  it('suggests a field only the full view has, saying so, when both views stop at the same parent', () => {
    expect(messages(reads('slaa.tier'))[0]![1]).toBe(
      'node "report" reads nodes.x.output.slaa.tier, which neither view of ops__ticket includes; deepest valid segment: output, where the compact result has fields id, state; did you mean output.sla (only the full result has it: add `result_view: full` to the params of node "x")?',
    )
  })

  it('suggests a field of the compact view plainly', () => {
    expect(messages(reads('stat'))[0]![1]).toBe(
      'node "report" reads nodes.x.output.stat, which neither view of ops__ticket includes; deepest valid segment: output, where the compact result has fields id, state; did you mean output.state?',
    )
  })

  it.each([
    ['a transposition of two adjacent letters', 'staet', 'state'],
    ['an added letter', 'sttate', 'state'],
    ['a case difference', 'ID', 'id'],
    ['a case difference of a longer name', 'STATE', 'state'],
    ['a missing letter', 'stte', 'state'],
  ])('counts %s as one edit (%s → %s)', (_, typo, name) => {
    expect(messages(reads(typo))[0]![1]).toContain(`; did you mean output.${name}`)
  })

  it.each([
    ['a short name more than a case away', 'ix'],
    ['a name too far from every field', 'status_code'],
    ['an array index', '0'],
    ['a 100 KB name', 'q'.repeat(100_000)],
  ])('suggests nothing for %s', (_, segment) => {
    const [found] = lintLoop(reads(segment), catalog)
    expect(found!.code).toBe('unresolvable_path')
    expect(found!.message).not.toContain('did you mean')
  })

  it('offers a near compact field as the other fix where the open full view asks for result_view: full', () => {
    expect(messages(reads('session.agent_nme', {}, 'compozy__session_status'))).toEqual([
      [
        'result_view_field_requires_full',
        'node "report" reads nodes.x.output.session.agent_nme, which the compact result of compozy__session_status does not include; fix: add `result_view: full` to the params of node "x"; or did you mean output.session.agent_name, which the compact result has?',
      ],
    ])
    expect(messages(reads('session.supervison', {}, 'compozy__session_status'))[0]![1]).toMatch(/; fix: add `result_view: full` to the params of node "x"; did you mean output\.session\.supervision\?$/)
  })

  it('suggests a listed field where a path goes through an open part (path_unproven)', () => {
    expect(messages(reads('session.agent_nme', { result_view: 'full' }, 'compozy__session_status'))).toEqual([
      [
        'path_unproven',
        'node "report" reads nodes.x.output.session.agent_nme, which goes through an open part of the full result of compozy__session_status at output.session (an object that allows fields it does not list); the path cannot be proven, and a missing field resolves to an empty value at run time; did you mean output.session.agent_name?',
      ],
    ])
  })
})

/** Optimal string alignment distance, the plain way (the oracle). */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}

describe('the nearest field name (property)', () => {
  it('is a nearest listed field, within a third of the name\'s length, whenever one is that near', () => {
    const word = fc.stringMatching(/^[a-z]{1,10}$/)
    /** A field with one edit (substitution, deletion, insertion or adjacent transposition), or any word. */
    const typoOf = (fields: string[]) =>
      fc.oneof(
        word,
        fc.tuple(fc.constantFrom(...fields), fc.nat(), fc.constantFrom('sub', 'del', 'ins', 'swap'), fc.stringMatching(/^[a-z]$/)).map(([field, at, edit, letter]) => {
          const i = at % field.length
          if (edit === 'sub') return field.slice(0, i) + letter + field.slice(i + 1)
          if (edit === 'del') return field.slice(0, i) + field.slice(i + 1)
          if (edit === 'ins') return field.slice(0, i) + letter + field.slice(i)
          return i + 1 < field.length ? field.slice(0, i) + field[i + 1] + field[i] + field.slice(i + 2) : field + letter
        }),
      )
    const cases = fc.uniqueArray(word, { minLength: 1, maxLength: 8 }).chain((fields) => fc.tuple(fc.constant(fields), typoOf(fields)))
    let suggestedCount = 0
    fc.assert(
      fc.property(cases, ([fields, typo]) => {
        fc.pre(typo !== '' && !fields.includes(typo))
        fc.pre(!fields.includes(typo))
        const tool = defineTool({
          id: 'gen__tool',
          description: 'Generated fields.',
          input: Type.Object({}),
          output: Type.Object(Object.fromEntries(fields.map((name) => [name, Type.String()])), { additionalProperties: false }),
          handler: () => Object.fromEntries(fields.map((name) => [name, 'x'])),
        })
        const [found] = lintLoop(reads(typo, {}, 'gen__tool'), [tool])
        const suggested = / did you mean output\.([a-z]+)\?$/.exec(found!.message)?.[1]
        const best = Math.min(...fields.map((name) => osa(typo, name)))
        if (best <= Math.floor(typo.length / 3)) {
          expect(suggested, found!.message).toBeDefined()
          expect(fields).toContain(suggested)
          expect(osa(typo, suggested!)).toBe(best)
          // Ties go to the first listed (the fields are listed sorted).
          expect(suggested).toBe([...fields].sort().find((name) => osa(typo, name) === best))
          suggestedCount++
        } else {
          expect(suggested, found!.message).toBeUndefined()
        }
      }),
      { numRuns: 400 },
    )
    // The generator reaches both outcomes.
    expect(suggestedCount).toBeGreaterThan(50)
  })
})
