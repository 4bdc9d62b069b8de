import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LoopDiagnosticCodes, type LoopErrorCode } from 'result-views/loop'

const doc = readFileSync(new URL('../../docs/loops.md', import.meta.url), 'utf8')
const part = (heading: string): string => doc.split(`\n## ${heading}\n`)[1]?.split('\n## ')[0] ?? ''
const codesIn = (text: string): string[] => [...text.matchAll(/^### `([a-z_]+)`$/gm)].map((m) => m[1]!)
const section = (text: string, code: string): string => text.split(`### \`${code}\``)[1]?.split('\n### ')[0] ?? ''

// `satisfies` makes this list fail to compile when a LoopErrorCode is added or removed.
const loopErrorCodes = Object.keys({
  loop_definition_invalid: true,
  loop_lint_failed: true,
  loop_snapshot_invalid: true,
  loop_options_invalid: true,
} satisfies Record<LoopErrorCode, true>)

describe('docs/loops.md', () => {
  it('documents every diagnostic code with its severity, and nothing else, under "Diagnostics"', () => {
    const diagnostics = part('Diagnostics')
    expect(codesIn(diagnostics).sort()).toEqual(Object.keys(LoopDiagnosticCodes).sort())
    for (const [code, severity] of Object.entries(LoopDiagnosticCodes)) {
      const text = section(diagnostics, code)
      expect(text, code).toContain(`Severity: ${severity}.`)
      expect(text, code).toContain('Example')
    }
  })

  it('documents every LoopError code under "Errors thrown"', () => {
    expect(codesIn(part('Errors thrown')).sort()).toEqual([...loopErrorCodes].sort())
  })

  it('quotes the spec messages exactly', () => {
    expect(doc).toContain('`node "inspect" params.result_view must be a literal "compact" or "full"`')
    expect(doc).toContain(
      '``node "report" reads nodes.inspect.output.session.lineage.permission_policy.tools, which the compact result of compozy__session_status does not include; fix: add `result_view: full` to the params of node "inspect"``',
    )
  })

  it('says what parsing and running really do: optional edges, unquoted templates, undefined action outputs', () => {
    expect(doc).toContain('`graph.edges` is optional')
    expect(doc).toContain('`graph must be an object with "nodes" (and optionally "edges")`')
    expect(doc).toContain('quote every string that starts with a template')
    expect(doc).toContain('`undefined`, or anything else that is not JSON, fails the node with\n   `loop_node_failed` / `action_output_invalid`')
    expect(doc).toContain('a version-2 pin without\n`result_view`')
  })
})
