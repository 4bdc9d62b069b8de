// `contracts check` exited 1 on compatible drift, with no way to fail only on breaking drift:
// `--fail-on breaking|drift` (default drift), exit 1 for a breaking change and 4 for compatible drift.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runContractsCheck } from 'result-views/contracts'
import { runCli } from './support.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dir = join('temp', `cli-fail-on-${process.pid}`)
const lock = join(dir, 'tool-contracts.lock.json')

const descriptor = (id: string): string =>
  `{ tool_id: ${JSON.stringify(id)}, description: 'd', input_schema: { type: 'object' }, output_schema: { type: 'object' }, output_schema_digest: 'a2c799262a3ce3c19ef5cdd983bf3d12b43ab3c426227091b909dcb7054738c0' }`
const catalog = (name: string, ids: string[]): string => {
  writeFileSync(join(root, dir, name), `export const tools = [${ids.map(descriptor).join(', ')}]\n`)
  return join(dir, name)
}

let base = ''
let grown = ''
let shrunk = ''
beforeAll(async () => {
  mkdirSync(join(root, dir), { recursive: true })
  base = catalog('base.mjs', ['a__read', 'b__read'])
  grown = catalog('grown.mjs', ['a__read', 'b__read', 'c__read']) // a tool added: compatible drift
  shrunk = catalog('shrunk.mjs', ['a__read']) // a tool removed: breaking
  expect((await runCli(['contracts', 'check', '--catalog', base, '--lock', lock, '--update'], { cwd: root })).code).toBe(0)
})
afterAll(() => rmSync(join(root, dir), { recursive: true, force: true }))

describe('contracts check --fail-on', () => {
  it('fails compatible drift by default with exit 4, and a breaking change with exit 1', async () => {
    const drift = await runCli(['contracts', 'check', '--catalog', grown, '--lock', lock], { cwd: root })
    expect(drift.code).toBe(4)
    expect(drift.stdout).toContain('c__read')
    expect((await runCli(['contracts', 'check', '--catalog', grown, '--lock', lock, '--fail-on', 'drift'], { cwd: root })).code).toBe(4)
    expect((await runCli(['contracts', 'check', '--catalog', shrunk, '--lock', lock], { cwd: root })).code).toBe(1)
  })

  it('passes compatible drift with --fail-on breaking (the table still printed), and still fails a breaking change', async () => {
    const drift = await runCli(['contracts', 'check', '--catalog', grown, '--lock', lock, '--fail-on', 'breaking'], { cwd: root })
    expect(drift.code).toBe(0)
    expect(drift.stdout).toContain('c__read')
    expect((await runCli(['contracts', 'check', '--catalog', shrunk, '--lock', lock, '--fail-on', 'breaking', '-o', 'json'], { cwd: root })).code).toBe(1)
    expect((await runCli(['contracts', 'check', '--catalog', base, '--lock', lock, '--fail-on', 'breaking'], { cwd: root })).code).toBe(0)
  })

  it('refuses another value as a usage error (exit 2)', async () => {
    const bad = await runCli(['contracts', 'check', '--catalog', grown, '--lock', lock, '--fail-on', 'never'], { cwd: root })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('breaking, drift')
    expect(await runContractsCheck({ catalog: grown, lockPath: lock, cwd: root, failOn: 'never' as never })).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('--fail-on must be') })
  })

  it('is the same in runContractsCheck: failOn breaking → 0, drift (default) → 4', async () => {
    expect((await runContractsCheck({ catalog: grown, lockPath: lock, cwd: root })).exitCode).toBe(4)
    expect((await runContractsCheck({ catalog: grown, lockPath: lock, cwd: root, failOn: 'breaking' })).exitCode).toBe(0)
  })
})
