// `result-views contracts check | release-note` through the command: the wiring of the
// result-views/contracts command functions (their behaviour is tested in test/contracts/).
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonOf, runCli } from './support.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dir = join('temp', `cli-contracts-${process.pid}`)
const CURRENT = 'examples/catalogs/current.ts'
const CARELESS = 'examples/catalogs/careless-release.ts'

beforeAll(() => mkdirSync(join(root, dir), { recursive: true }))
afterAll(() => rmSync(join(root, dir), { recursive: true, force: true }))

describe('result-views contracts', () => {
  it('writes a lock with --update, exits 0 on the same catalog and 1 with a table on a careless release', async () => {
    const lock = join(dir, 'tool-contracts.lock.json')
    const update = await runCli(['contracts', 'check', '--catalog', CURRENT, '--lock', lock, '--update'], { cwd: root })
    expect(update.code).toBe(0)
    expect(update.stdout).toMatch(/^wrote .*tool-contracts\.lock\.json: 7 tool contracts/)
    expect(JSON.parse(readFileSync(join(root, lock), 'utf8')).tools.compozy__session_status.kind).toBe('viewed')

    const same = await runCli(['contracts', 'check', '--catalog', CURRENT, '--lock', lock], { cwd: root })
    expect(same).toMatchObject({ code: 0, stderr: '' })

    const careless = await runCli(['contracts', 'check', '--catalog', CARELESS, '--lock', lock], { cwd: root })
    expect(careless.code).toBe(1)
    expect(careless.stdout).toContain('compozy__session_status')
    expect(careless.stdout).toContain('breaking')

    const json = await runCli(['contracts', 'check', '--catalog', CARELESS, '--lock', lock, '-o', 'json'], { cwd: root })
    expect(json.code).toBe(1)
    expect(jsonOf(json).drifted).toBe(true)
  })

  it('prints the release note of the tools whose default view changed', async () => {
    const lock = join(dir, 'pre-view.lock.json')
    expect((await runCli(['contracts', 'check', '--catalog', 'examples/catalogs/pre-view.ts', '--lock', lock, '--update'], { cwd: root })).code).toBe(0)
    const note = await runCli(['contracts', 'release-note', '--from', lock, '--catalog', CURRENT], { cwd: root })
    expect(note.code).toBe(0)
    expect(note.stdout).toContain('compozy__session_status')
    expect(note.stdout).toContain('session.lineage.permission_policy')
  })

  it('exits 2 for usage errors: a missing --catalog, a bad -o, a bad --budget-tolerance, a catalog that is not one', async () => {
    expect((await runCli(['contracts', 'check'], { cwd: root })).code).toBe(2)
    expect((await runCli(['contracts', 'check', '--catalog', CURRENT, '-o', 'yaml'], { cwd: root })).code).toBe(2)
    const tolerance = await runCli(['contracts', 'check', '--catalog', CURRENT, '--budget-tolerance', 'lots'], { cwd: root })
    expect(tolerance.code).toBe(2)
    expect(tolerance.stderr).toContain('--budget-tolerance must be a non-negative number')
    // Regression (budget tolerance loose parsing): Number() read "" as 0 and "0x10" as 16.
    for (const loose of ['', '0x10', ' 1 ', '1_0', 'Infinity']) {
      const refused = await runCli(['contracts', 'check', '--catalog', CURRENT, '--budget-tolerance', loose], { cwd: root })
      expect([loose, refused.code]).toEqual([loose, 2])
      expect(refused.stderr).toContain('--budget-tolerance must be a non-negative number')
    }
    expect((await runCli(['contracts', 'check', '--catalog', 'package.json', '--lock', join(dir, 'x.json')], { cwd: root })).code).toBe(2)
  })
})
