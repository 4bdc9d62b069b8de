import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCatalogModule, loadCatalogModule, runContractsCheck, runReleaseNote, parseContractLock, isContractsError } from 'result-views/contracts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dir = join(root, 'temp', `contracts-commands-${process.pid}`)
const perCharacter = (text: string): number => text.length
const CURRENT = 'examples/catalogs/current.ts'
const CARELESS = 'examples/catalogs/careless-release.ts'

beforeAll(() => mkdirSync(dir, { recursive: true }))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Writes a module into the test's temporary folder; returns its path relative to the repository. */
function module(name: string, source: string): string {
  writeFileSync(join(dir, name), source)
  return join('temp', `contracts-commands-${process.pid}`, name)
}

const lockIn = (name: string): string => join('temp', `contracts-commands-${process.pid}`, name)

describe('runContractsCheck (result-views contracts check)', () => {
  it('writes the lock with --update, then exits 0 on the same catalog', async () => {
    const lockPath = lockIn('current.lock.json')
    const update = await runContractsCheck({ catalog: CURRENT, lockPath, update: true, cwd: root, countTokens: perCharacter, tokenizer: 'per-character' })
    expect(update).toEqual({ exitCode: 0, stdout: `wrote ${lockPath}: 7 tool contracts, 1 with a compact budget\n`, stderr: '' })
    const lock = parseContractLock(readFileSync(join(root, lockPath), 'utf8'))
    expect(lock.tools.compozy__session_status!.budget).toMatchObject({ tokenizer: 'per-character', records: 6 })
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
    const check = await runContractsCheck({ catalog: CURRENT, lockPath, cwd: root, countTokens: perCharacter, tokenizer: 'per-character' })
    expect(check).toEqual({ exitCode: 0, stdout: 'No contract drifted.\n', stderr: '' })
  })

  it('writes identical bytes on two --update runs', async () => {
    const a = lockIn('a.lock.json')
    const b = lockIn('b.lock.json')
    await runContractsCheck({ catalog: CURRENT, lockPath: a, update: true, cwd: root, countTokens: perCharacter, tokenizer: 'per-character' })
    await runContractsCheck({ catalog: CURRENT, lockPath: b, update: true, cwd: root, countTokens: perCharacter, tokenizer: 'per-character' })
    expect(readFileSync(join(root, b))).toEqual(readFileSync(join(root, a)))
  })

  it('exits 1 with the drift table on the careless release, or the comparison with -o json', async () => {
    const lockPath = lockIn('careless.lock.json')
    await runContractsCheck({ catalog: CURRENT, lockPath, update: true, cwd: root, countTokens: perCharacter, tokenizer: 'per-character' })
    const table = await runContractsCheck({ catalog: CARELESS, lockPath, cwd: root, countTokens: perCharacter, tokenizer: 'per-character' })
    expect(table.exitCode).toBe(1)
    expect(table.stdout).toMatch(/compozy__session_status\s+compact\s+breaking\s+session\.runtime\.generation\s+field_removed/)
    expect(table.stdout).toMatch(/compozy__session_status\s+full\s+breaking\s+session\.state\s+enum_grown/)
    expect(table.stdout).toContain('Breaking: compozy__session_status')
    const json = await runContractsCheck({ catalog: CARELESS, lockPath, cwd: root, format: 'json', countTokens: perCharacter, tokenizer: 'per-character' })
    expect(json.exitCode).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({ drifted: true, breaking: true, summary: { changed: 1 } })
  })

  it('exits 2 with the reason on stderr for a missing or damaged lock, a bad module and bad flags', async () => {
    const missing = await runContractsCheck({ catalog: CURRENT, lockPath: lockIn('nope.lock.json'), cwd: root })
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toMatch(/no lock file at .*nope\.lock\.json: create it with `result-views contracts check --catalog examples\/catalogs\/current\.ts --lock .* --update`/)
    writeFileSync(join(dir, 'damaged.lock.json'), '{"format":"result-views/tool-contracts","version":1,"tools":{"x":{}}}')
    const damaged = await runContractsCheck({ catalog: CURRENT, lockPath: lockIn('damaged.lock.json'), cwd: root })
    expect(damaged).toMatchObject({ exitCode: 2, stdout: '' })
    expect(damaged.stderr).toContain('/tools/x/input: must be { schema, digest }')
    const badModule = await runContractsCheck({ catalog: 'examples/catalogs/none.ts', cwd: root })
    expect(badModule.exitCode).toBe(2)
    expect(badModule.stderr).toMatch(/catalog module "examples\/catalogs\/none\.ts" is invalid .*could not be imported/s)
    expect(await runContractsCheck({ catalog: CURRENT, cwd: root, format: 'xml' as never })).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('-o must be') })
    expect(await runContractsCheck(undefined as never)).toMatchObject({ exitCode: 2 })
  })

  it('refuses to rewrite a version-2 lock as version 1 with --update (regression: it was rewritten silently)', async () => {
    const lockPath = lockIn('v2.lock.json')
    const text = `${JSON.stringify({ format: 'result-views/tool-contracts', version: 2, tools: {} })}\n`
    writeFileSync(join(root, lockPath), text)
    const result = await runContractsCheck({ catalog: CURRENT, lockPath, update: true, cwd: root, countTokens: perCharacter, tokenizer: 'per-character' })
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(`${lockPath} is a version 2 lock, newer than the version 1 this result-views writes`)
    expect(readFileSync(join(root, lockPath), 'utf8')).toBe(text)
  })

  it('leaves the old lock whole when --update fails (nothing half-written)', async () => {
    const lockPath = lockIn('kept.lock.json')
    await runContractsCheck({ catalog: CURRENT, lockPath, update: true, cwd: root, countTokens: perCharacter, tokenizer: 'per-character' })
    const before = readFileSync(join(root, lockPath), 'utf8')
    const failing = await runContractsCheck({ catalog: CURRENT, lockPath, update: true, cwd: root, countTokens: () => -1 })
    expect(failing.exitCode).toBe(2)
    expect(readFileSync(join(root, lockPath), 'utf8')).toBe(before)
  })
})

describe('runReleaseNote (result-views contracts release-note)', () => {
  it('prints the Markdown note of the catalog against the old lock, or its data with -o json', async () => {
    const from = lockIn('release.lock.json')
    await runContractsCheck({ catalog: CURRENT, lockPath: from, update: true, cwd: root, countTokens: perCharacter, tokenizer: 'per-character' })
    const note = await runReleaseNote({ from, catalog: CARELESS, cwd: root })
    expect(note.exitCode).toBe(0)
    expect(note.stdout).toContain('- `session.runtime.generation`')
    const json = await runReleaseNote({ from, catalog: CARELESS, cwd: root, format: 'json' })
    expect(JSON.parse(json.stdout).tools).toEqual([{ tool_id: 'compozy__session_status', change: 'compact_narrowed', moved_to_full: ['session.runtime.generation'], removed: [] }])
    expect(await runReleaseNote({ from: lockIn('missing.json'), catalog: CARELESS, cwd: root })).toMatchObject({ exitCode: 2 })
  })

  it('release-note-missing-from-gives-wrong-advice: a missing --from asks for the last release\'s lock, not a lock of the current catalog', async () => {
    const from = lockIn('release-0.4.lock.json')
    const result = await runReleaseNote({ from, catalog: CARELESS, cwd: root })
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(`no lock file at ${from}: --from must be the lock of the last release`)
    expect(result.stderr).toContain(`git show <last release tag>:tool-contracts.lock.json > ${from}`)
    expect(result.stderr).not.toContain('--update')
  })

  it('prints -o json on one line, as every -o json of the command does', async () => {
    const from = lockIn('one-line.lock.json')
    await runContractsCheck({ catalog: CURRENT, lockPath: from, update: true, cwd: root, countTokens: perCharacter, tokenizer: 'per-character' })
    for (const result of [
      await runReleaseNote({ from, catalog: CARELESS, cwd: root, format: 'json' }),
      await runContractsCheck({ catalog: CARELESS, lockPath: from, cwd: root, format: 'json', countTokens: perCharacter, tokenizer: 'per-character' }),
    ]) {
      expect(result.stdout.endsWith('\n')).toBe(true)
      expect(result.stdout.slice(0, -1)).not.toContain('\n')
      expect(JSON.parse(result.stdout)).toEqual(expect.any(Object))
    }
  })
})

describe('importCatalogModule (the one import behind every --catalog)', () => {
  it('imports a module against cwd and hands over every export, choosing none', async () => {
    const imported = await importCatalogModule(module('plain.mjs', 'export const answer = 42\nexport default { name: "x" }'), { cwd: root })
    expect(imported.path).toBe(join(dir, 'plain.mjs'))
    expect({ ...imported.exports }).toEqual({ answer: 42, default: { name: 'x' } })
  })

  it('refuses an empty path and a module that throws while it loads, the import error as the cause', async () => {
    await expect(importCatalogModule('', { cwd: root })).rejects.toMatchObject({ code: 'contracts_invalid', problems: [{ path: '', code: 'invalid_path' }] })
    const thrown = await importCatalogModule(module('boom.mjs', 'throw new RangeError("boom-canary")'), { cwd: root }).catch((error: unknown) => error)
    expect(isContractsError(thrown)).toBe(true)
    expect(thrown).toMatchObject({ problems: [{ path: '', code: 'import_failed', message: 'could not be imported: boom-canary' }] })
    expect((thrown as { cause?: unknown }).cause).toBeInstanceOf(RangeError)
  })
})

describe('loadCatalogModule (--catalog)', () => {
  const descriptor = (id: string) => `{ tool_id: ${JSON.stringify(id)}, description: 'd', input_schema: { type: 'object' }, output_schema: { type: 'object' }, output_schema_digest: 'a2c799262a3ce3c19ef5cdd983bf3d12b43ab3c426227091b909dcb7054738c0' }`

  it('takes a tools export, a default export, or the one named export that is a catalog', async () => {
    expect(await loadCatalogModule(CURRENT, { cwd: root })).toMatchObject({ exportName: 'tools', fixtures: { compozy__session_status: expect.any(Array) } })
    const byDefault = await loadCatalogModule(module('default.mjs', `export default [${descriptor('a__b')}]`), { cwd: root })
    expect(byDefault.exportName).toBe('default')
    const named = await loadCatalogModule(module('named.mjs', `export const version = 3\nexport const catalog = [${descriptor('a__b')}]`), { cwd: root })
    expect(named.exportName).toBe('catalog')
    const dispatcher = await loadCatalogModule(module('dispatcher.mjs', `export const dispatcher = { invoke() {}, list() { return [${descriptor('a__b')}] } }`), { cwd: root })
    expect(dispatcher.exportName).toBe('dispatcher')
  })

  it('refuses a module with no catalog, several, unreadable exports or bad fixtures, naming the fix', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['empty.mjs', 'export const x = 1', /exports no catalog/],
      ['two.mjs', `export const a = [${descriptor('a__b')}]\nexport const b = [${descriptor('c__d')}]`, /exports several catalogs \(a, b\); export the one to check as "tools"/],
      ['fixtures.mjs', `export const tools = [${descriptor('a__b')}]\nexport const fixtures = []`, /"fixtures" export must be an object/],
      ['throws.mjs', 'throw new Error("module-canary")', /could not be imported: module-canary/],
      ['sparse.mjs', 'const a = []; a.length = 2 ** 32 - 1; export const tools = a', /\/tools: a sparse array/],
      ['tools-string.mjs', `export const tools = 'a__b'\nexport default [${descriptor('a__b')}]`, /\/tools: not a catalog/],
    ]
    for (const [name, source, message] of cases) {
      let thrown: unknown
      try {
        await loadCatalogModule(module(name, source), { cwd: root })
      } catch (error) {
        thrown = error
      }
      expect(isContractsError(thrown), name).toBe(true)
      expect((thrown as Error).message, name).toMatch(message)
    }
    expect(existsSync(dir)).toBe(true)
  })

  const badTools = `export const tools = [${descriptor('a__b')}, ${descriptor('c__d')}, { id: 'files__write', description: 'forgot defineTool' }]`

  it('catalog-loader-hides-bad-tools-export: a tools export with a bad entry names it (/tools/2), as tool list does', async () => {
    const thrown = await loadCatalogModule(module('bad-entry.mjs', badTools), { cwd: root }).catch((error: unknown) => error)
    expect(isContractsError(thrown)).toBe(true)
    expect((thrown as { problems: unknown }).problems).toEqual([{ path: '/tools/2', code: 'invalid_catalog', message: 'not a tool returned by defineTool (nor a tool descriptor)' }])
    const check = await runContractsCheck({ catalog: module('bad-entry.mjs', badTools), lockPath: lockIn('bad-entry.lock.json'), update: true, cwd: root })
    expect(check.exitCode).toBe(2)
    expect(check.stderr).toContain('/tools/2: not a tool returned by defineTool')
    expect(existsSync(join(root, lockIn('bad-entry.lock.json')))).toBe(false)
  })

  it('catalog-loader-hides-bad-tools-export: a bad tools export is not skipped for the default export', async () => {
    const path = module('bad-entry-plus-default.mjs', `${badTools}\nexport default [${descriptor('a__b')}]`)
    const check = await runContractsCheck({ catalog: path, lockPath: lockIn('picked-default.lock.json'), update: true, cwd: root })
    expect([check.exitCode, check.stderr]).toEqual([2, expect.stringContaining('/tools/2')])
    const good = await loadCatalogModule(module('tools-before-default.mjs', `export const tools = [${descriptor('c__d')}]\nexport default [${descriptor('a__b')}]`), { cwd: root })
    expect(good.exportName).toBe('tools')
  })

  it('catalog-loader-hides-bad-tools-export: export const tools = [] is an empty catalog, as tool list accepts it', async () => {
    const path = module('empty-tools.mjs', 'export const tools = []')
    expect(await loadCatalogModule(path, { cwd: root })).toMatchObject({ exportName: 'tools', catalog: [] })
    const lockPath = lockIn('empty-tools.lock.json')
    expect(await runContractsCheck({ catalog: path, lockPath, update: true, cwd: root })).toEqual({ exitCode: 0, stdout: `wrote ${lockPath}: 0 tool contracts\n`, stderr: '' })
    expect(await runContractsCheck({ catalog: path, lockPath, cwd: root })).toEqual({ exitCode: 0, stdout: 'No contract drifted.\n', stderr: '' })
  })
})
