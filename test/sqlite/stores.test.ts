import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { createDispatcher, isApprovalConfigError } from 'result-views'
import { createSqliteApprovalStores, SQLITE_APPROVAL_SCHEMA_VERSION } from 'result-views/sqlite'
import { describeApprovalStoreConformance } from 'result-views/testing'
import { SCOPE, deploy } from './fixtures/catalog.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'result-views-sqlite-'))
let files = 0
const newFile = () => join(dir, `approvals-${++files}.db`)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describeApprovalStoreConformance('sqlite stores', () => createSqliteApprovalStores({ filename: newFile() }), { describe, it, expect })

/** Starts a child process running a TypeScript fixture with tsx, from the package root (so `result-views` resolves to src). */
function child(script: string, args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', fixture(script), ...args], { cwd: root, stdio: 'pipe' })
}

/** Calls `onLine` for each stdout line; settles when the child exits (rejects on a non-zero exit other than our SIGKILL). */
function lines(proc: ChildProcessWithoutNullStreams, onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      let at
      while ((at = out.indexOf('\n')) >= 0) {
        onLine(out.slice(0, at))
        out = out.slice(at + 1)
      }
    })
    proc.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString('utf8')))
    proc.on('exit', (code, signal) => (code === 0 || signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code ?? signal}: ${err}`))))
  })
}

function firstLine(proc: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let got: string | undefined
    lines(proc, (line) => {
      if (got === undefined) resolve((got = line))
    }).then(() => got === undefined && reject(new Error('child printed nothing')), reject)
  })
}

describe('createSqliteApprovalStores', () => {
  it('keeps everything in one file in WAL mode, with the schema version', () => {
    const filename = newFile()
    const stores = createSqliteApprovalStores({ filename })
    expect(stores.database.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(stores.database.pragma('user_version', { simple: true })).toBe(SQLITE_APPROVAL_SCHEMA_VERSION)
    stores.close()
    const again = createSqliteApprovalStores({ filename })
    expect(again.database.pragma('journal_mode', { simple: true })).toBe('wal')
    again.close()
  })

  it('refuses bad options and a file written by a newer schema', () => {
    for (const options of [{}, { filename: '' }, { filename: newFile(), busyTimeoutMs: -1 }]) {
      let thrown: unknown
      try {
        createSqliteApprovalStores(options as never)
      } catch (error) {
        thrown = error
      }
      expect(isApprovalConfigError(thrown), JSON.stringify(options)).toBe(true)
    }
    const filename = newFile()
    const db = new Database(filename)
    db.pragma(`user_version = ${SQLITE_APPROVAL_SCHEMA_VERSION + 1}`)
    db.close()
    expect(() => createSqliteApprovalStores({ filename })).toThrow(/schema version/)
  })

  it('fails closed once closed', async () => {
    const stores = createSqliteApprovalStores({ filename: newFile() })
    const dispatcher = createDispatcher({ tools: [deploy], approvals: stores })
    stores.close()
    const outcome = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })
    expect(outcome.status === 'error' && [outcome.error.code, outcome.error.reason]).toEqual(['approval_unavailable', 'store_failed'])
  })

  it('never writes a token to the file, only its hash', async () => {
    const filename = newFile()
    const stores = createSqliteApprovalStores({ filename })
    const dispatcher = createDispatcher({ tools: [deploy], approvals: stores })
    const { token } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' } })
    await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: token })
    await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE, approval_token: token })
    await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })
    const bytes = [filename, `${filename}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('')
    expect(bytes).toContain('ops__deploy')
    expect(bytes).not.toContain(token)
    stores.close()
  })
})

describe('SQLite stores across processes', () => {
  it('survive a restart: a child writes and is killed with SIGKILL, a new process reads and uses it all', async () => {
    const filename = newFile()
    const writer = child('write-then-wait.ts', [filename])
    const exited = new Promise((resolve) => writer.once('exit', resolve))
    let written: { used_status: string; remembered: string; pending: { status: string } }
    try {
      written = JSON.parse(await firstLine(writer))
    } finally {
      writer.kill('SIGKILL')
      await exited
    }
    expect(writer.signalCode).toBe('SIGKILL')
    expect([written.used_status, written.remembered, written.pending.status]).toEqual(['ok', 'ok', 'approval_pending'])

    const reader = child('read-after-restart.ts', [filename, JSON.stringify(written)])
    const report = JSON.parse(await firstLine(reader))
    expect(report).toMatchObject({
      journal_mode: 'wal',
      used_again: 'token_replayed',
      token_first: 'ok',
      token_replay: 'token_replayed',
      grants: [
        ['agent', 'reject', 'management'],
        ['exact', 'allow', 'prompt'],
      ],
      builder: 'approval_rejected',
      remembered: 'ok',
      pending_before: 'pending',
      resolved: {
        status: 'approved',
        execution_status: 'completed',
        input: { target: 'later', result_view: 'full' },
        outcome: { status: 'ok', result: { structured: { target: 'later', log: 'deployed later' } }, result_view: 'full' },
      },
    })
  })

  it('keep a token single-use between two processes racing on the same file', async () => {
    const filename = newFile()
    const stores = createSqliteApprovalStores({ filename })
    const dispatcher = createDispatcher({ tools: [deploy], approvals: stores })
    const tokens: string[] = []
    for (let i = 0; i < 40; i++) tokens.push((await dispatcher.approvals.mintApprovalToken({ tool_id: 'ops__deploy', scope: SCOPE, input: { target: 'prod' }, ttlMs: 600_000 })).token)
    stores.close()
    const tokensFile = join(dir, `tokens-${files}.json`)
    writeFileSync(tokensFile, JSON.stringify(tokens))

    const racers = [child('race.ts', [filename, tokensFile]), child('race.ts', [filename, tokensFile])]
    const results: string[][] = [[], []]
    let ready = 0
    const done = racers.map((proc, i) =>
      lines(proc, (line) => {
        if (line === 'ready') {
          if (++ready === racers.length) for (const p of racers) p.stdin.end('go\n')
        } else {
          results[i] = JSON.parse(line) as string[]
        }
      }),
    )
    await Promise.all(done)
    for (let t = 0; t < tokens.length; t++) {
      expect([results[0]![t], results[1]![t]].sort(), `token ${t}`).toEqual(['ok', 'token_replayed'])
    }
  })
})
