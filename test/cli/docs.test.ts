// docs/cli.md: every `$ result-views …` line of its ```sh blocks is run, in order, against the
// example server (RESULT_VIEWS_URL), in process. The output shown after it (through the `jq`
// filter the line pipes into, when it does) and the `# exit` code must match what the command
// does. "…" matches any value or text; {approval_id}, {grant_id} and $APPROVAL_TOKEN stand for
// the values of the steps before.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXAMPLE_SCOPE, exampleHttpDispatcher, startExampleServers, type ExampleServers } from '../../examples/http-server.js'
import { documentMatches } from '../support/doc-match.js'
import { ExitCode } from '../../src/cli/io.js'
import { runCli } from './support.js'

const page = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8')

interface Example {
  readonly line: string
  readonly expected: string
  readonly exit: number
}

/** The examples of every ```sh block: a `$ ` line, the lines it prints, and its `# exit N` (default 0). */
function examplesOf(text: string): Example[] {
  const examples: Example[] = []
  for (const [, block = ''] of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    let current: { line: string; output: string[]; exit: number } | undefined
    const flush = () => current && examples.push({ line: current.line, expected: current.output.join('\n'), exit: current.exit })
    for (const line of block.trimEnd().split('\n')) {
      if (line.startsWith('$ ')) {
        flush()
        current = { line: line.slice(2), output: [], exit: 0 }
      } else if (line.startsWith('# exit ')) current!.exit = Number(line.slice(7))
      else current!.output.push(line)
    }
    flush()
  }
  return examples
}

/** Splits a shell line into words: single quotes kept literally, double quotes and bare text with $NAME expanded. */
function words(line: string, vars: Record<string, string>): string[] {
  const expand = (text: string) => text.replace(/\$([A-Z_]+)/g, (_, name: string) => vars[name] ?? '')
  return [...line.matchAll(/(?:'[^']*'|"[^"]*"|[^\s'"]+)+/g)].map(([word]) =>
    [...word.matchAll(/'([^']*)'|"([^"]*)"|([^'"]+)/g)].map(([, single, double, bare]) => single ?? expand(double ?? bare!)).join(''),
  )
}

/** The value a `jq` filter of the form `.a.b`, `.a | keys` selects. */
function jq(value: any, filter: string): unknown {
  const [path = '.', keys] = filter.split('|').map((part) => part.trim())
  const selected = path === '.' ? value : path.slice(1).split('.').reduce((at, key) => at?.[key], value)
  return keys === 'keys' ? Object.keys(selected).sort() : selected
}

const dispatcher = exampleHttpDispatcher()
let servers: ExampleServers
const cwd = mkdtempSync(join(tmpdir(), 'rv-cli-docs-'))
beforeAll(async () => {
  servers = await startExampleServers(dispatcher)
  writeFileSync(join(cwd, 'input.json'), '{"tool_id":"compozy__skill_view"}\n')
})
afterAll(async () => {
  await servers.close()
  rmSync(cwd, { recursive: true, force: true })
})

describe('docs/cli.md', () => {
  it('documents exactly the exit codes the command uses', () => {
    const table = page.split('## Exit codes')[1]!.split('\n## ')[0]!
    const documented = [...table.matchAll(/^\| (\d) \|/gm)].map((match) => Number(match[1]))
    expect(documented).toEqual(Object.values(ExitCode).sort())
  })
})

describe('docs/cli.md examples', () => {
  const examples = examplesOf(page)

  it('shows the spec\'s CLI lines', () => {
    expect(examples.length).toBeGreaterThanOrEqual(28)
    const lines = examples.map((example) => example.line)
    expect(lines).toContain(`result-views tool invoke compozy__session_status --input '{"session_id":"sess-example"}' -o json | jq '.result.structured'`)
    expect(lines).toContain(`result-views tool info compozy__session_status -o json | jq '.tool.descriptor.output_views | keys'`)
  })

  it('runs every example line with the output and exit code shown', async () => {
    const values: Record<string, string> = {}
    const fill = (text: string) => text.replace(/\{(approval_id|grant_id)\}/g, (whole, name: string) => values[name] ?? whole)
    for (const example of examples) {
      let line = fill(example.line)
      let stdin: string | undefined
      const piped = /^echo '([^']*)' \| (.*)$/.exec(line)
      if (piped !== null) [, stdin, line] = piped as unknown as [string, string, string]
      const [command = '', filter] = line.split(/ \| jq '([^']*)'$/)
      if (command.includes('$APPROVAL_TOKEN') && values.APPROVAL_TOKEN === undefined) {
        values.APPROVAL_TOKEN = (await dispatcher.approvals.mintApprovalToken({ tool_id: 'compozy__session_archive', scope: EXAMPLE_SCOPE, input: { session_id: 'sess-example' } })).token
      }
      const all = words(command, values)
      const env: Record<string, string> = { RESULT_VIEWS_URL: servers.url }
      while (/^[A-Z_]+=/.test(all[0] ?? '')) {
        const [name = '', ...rest] = all.shift()!.split('=')
        env[name] = rest.join('=')
      }
      expect(all.shift(), example.line).toBe('result-views')
      const run = await runCli(all, { env, cwd, ...(stdin === undefined ? {} : { stdin }) })
      expect(run.code, `${example.line}\n${run.stdout}${run.stderr}`).toBe(example.exit)

      const parsed = run.stdout.startsWith('{') ? JSON.parse(run.stdout) : undefined
      // The values this run shows stand for {approval_id} and {grant_id} in its output and the lines after it.
      const approvalId = parsed?.approval_id ?? parsed?.approval?.approval_id ?? /^approval pending: (\S+)/.exec(run.stdout)?.[1]
      if (typeof approvalId === 'string') values.approval_id = approvalId
      if (typeof parsed?.grant?.grant_id === 'string') values.grant_id = parsed.grant.grant_id
      const expected = fill(example.expected)
      if (expected.startsWith('{') || expected.startsWith('[') || expected.startsWith('"')) {
        const actual = filter === undefined ? parsed : jq(parsed, filter)
        expect(documentMatches(actual, JSON.parse(expected)), `${example.line}\n${JSON.stringify(actual)}`).toBe(true)
      } else {
        const pattern = new RegExp(`^${expected.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?')}$`)
        expect((run.stdout + run.stderr).trimEnd(), example.line).toMatch(pattern)
      }
    }
  })
})
