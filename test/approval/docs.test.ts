import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const approvals = readFileSync(new URL('../../docs/approvals.md', import.meta.url), 'utf8')
const errors = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')

function section(text: string, heading: string): string {
  const start = text.indexOf(heading)
  expect(start, `missing ${heading}`).toBeGreaterThanOrEqual(0)
  const next = text.indexOf('\n#', start + heading.length)
  return text.slice(start, next === -1 ? undefined : next)
}

describe('docs/approvals.md matches the behaviour', () => {
  it('lists tool_not_found for mintApprovalToken, here and in docs/errors.md', () => {
    const mintRow = approvals.split('\n').find((line) => line.startsWith('| `mintApprovalToken('))
    expect(mintRow).toContain('`tool_not_found` / `unknown_tool`')
    expect(section(errors, '### `tool_not_found`')).toContain('mintApprovalToken')
  })

  it('documents every checkOwner answer and what it maps to', () => {
    const contract = section(approvals, '### The `checkOwner` contract')
    expect(contract).toContain("| `'ok'` | proceeds |")
    expect(contract).toContain("| `'profile_unavailable'` | rejects `approval_forbidden` / `profile_unavailable` |")
    expect(contract).toContain("| `'session_unbound'` | rejects `approval_forbidden` / `session_unbound` |")
    for (const other of ['`true`', '`undefined`', '`null`']) expect(contract).toContain(other)
    expect(contract.match(/`approval_unavailable` \/ `owner_check_failed`/g)).toHaveLength(3)
  })

  it('names outcome_recorded in the view shape and in Known limits', () => {
    expect(approvals).toContain('outcome_recorded?: false')
    expect(section(approvals, '## Known limits')).toContain('`outcome_recorded: false`')
  })
})

/** Every test file under test/, concatenated. */
function testSources(): string {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? walk(path) : path.endsWith('.test.ts') ? [path] : []
    })
  return walk(fileURLToPath(new URL('..', import.meta.url))).map((file) => readFileSync(file, 'utf8')).join('\n')
}

describe('docs/approvals.md "Running on several machines"', () => {
  it('cites, as proof of each store guarantee, only tests that exist', () => {
    const table = section(approvals, '### What each store guarantees')
    const cited = [...table.matchAll(/"([^"|]+)"/g)].map((m) => m[1]!)
    expect(cited.length).toBeGreaterThan(10)
    const sources = testSources()
    for (const title of cited) expect(sources, title).toContain(title)
  })
})
