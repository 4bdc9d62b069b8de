import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import { REDACTED, createDispatcher, isApprovalConfigError } from 'result-views'
import { createSqliteApprovalStores, SQLITE_APPROVAL_SCHEMA_VERSION } from 'result-views/sqlite'
import { describeApprovalStoreConformance } from 'result-views/testing'
import { SCOPE, deploy, vault } from './fixtures/catalog.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'result-views-sqlite-'))
let files = 0
const newFile = () => join(dir, `approvals-${++files}.db`)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describeApprovalStoreConformance('sqlite stores', () => createSqliteApprovalStores({ filename: newFile() }), { describe, it, expect })

/** Starts a child process running a TypeScript fixture with tsx, from the package root (so `result-views` resolves to src). */
function child(script: string, args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', fixture(script), ...args], { cwd: root, stdio: 'pipe', env: { ...process.env, ...env } })
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

describe('sealed pending inputs on SQLite', () => {
  const secret = 'pw-"sqlite"/~seal\\7c1e04aa'
  const rotate = { tool_id: 'ops__rotate', input: { target: 'db', secret }, scope: SCOPE }

  /** Children resolving `approvalId` on `filename` together (each sent "go" once all are ready); their `{ result, runs }`. */
  async function resolveInChildren(filename: string, approvalId: string, envs: Array<Record<string, string>>): Promise<Array<{ result: string; runs: unknown[] }>> {
    const procs = envs.map((env) => child('resolve-sealed.ts', [filename, approvalId], env))
    const results: Array<{ result: string; runs: unknown[] }> = []
    let ready = 0
    await Promise.all(
      procs.map((proc, i) =>
        lines(proc, (line) => {
          if (line === 'ready') {
            if (++ready === procs.length) for (const p of procs) p.stdin.end('go\n')
          } else results[i] = JSON.parse(line)
        }),
      ),
    )
    return results
  }

  it('a sealed sensitive input opened in one process runs in the other: once, on the real input; a keyless process refuses', async () => {
    const filename = newFile()
    const key = randomBytes(32)
    const stores = createSqliteApprovalStores({ filename })
    const dispatcher = createDispatcher({ tools: [vault()], approvals: { ...stores, sealKey: key } })
    const outcome = await dispatcher.invoke(rotate)
    const id = (outcome as { approval_id: string }).approval_id
    expect(outcome.status).toBe('approval_pending')

    const [keyless] = await resolveInChildren(filename, id, [{}])
    expect(keyless).toEqual({ result: 'seal_key_unknown', runs: [] })
    expect((await stores.pending.get(id))?.state).toBe('pending')

    const keyed = { RV_SEAL_KEY: key.toString('base64') }
    const racers = await resolveInChildren(filename, id, [keyed, keyed])
    expect(racers.map((r) => r.result).sort()).toEqual(['approval_resolved', 'completed'])
    expect(racers.flatMap((r) => r.runs)).toEqual([{ target: 'db', secret }])
    const record = await stores.pending.get(id)
    expect(record?.state).toBe('completed')
    expect(record).not.toHaveProperty('sealed_input')
    stores.close()
  })

  it('never writes a sealed secret to the file: neither in clear, in any encoding, nor the key', async () => {
    const filename = newFile()
    const key = randomBytes(32)
    const stores = createSqliteApprovalStores({ filename })
    const dispatcher = createDispatcher({ tools: [vault()], approvals: { ...stores, sealKey: key } })
    const left = (await dispatcher.invoke(rotate)) as { approval_id: string }
    const resolved = (await dispatcher.invoke(rotate)) as { approval_id: string }
    expect((await dispatcher.approvals.resolve(resolved.approval_id, { decision: 'approved', profile_id: SCOPE.profile_id })).execution_status).toBe('completed')
    expect((await stores.pending.get(left.approval_id))?.sealed_input?.alg).toBe('AES-256-GCM')
    stores.close()
    const bytes = [filename, `${filename}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('')
    for (const control of ['ops__rotate', REDACTED, 'AES-256-GCM']) expect(bytes).toContain(control)
    const encodings = [secret, JSON.stringify(secret).slice(1, -1), secret.replace(/~/g, '~0').replace(/\//g, '~1'), secret.slice(0, 10), secret.slice(-10)]
    for (const value of [...encodings, key.toString('hex').slice(0, 16), key.toString('base64').slice(0, 16), key.toString('latin1')]) expect(bytes, value).not.toContain(value)
  })

  it('lists a profile\'s pending approvals for listPending (the console), surviving a reopen', async () => {
    const filename = newFile()
    const stores = createSqliteApprovalStores({ filename })
    const dispatcher = createDispatcher({ tools: [deploy], approvals: stores })
    const mine = await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: SCOPE })
    await dispatcher.invoke({ tool_id: 'ops__deploy', input: { target: 'prod' }, scope: { ...SCOPE, profile_id: 'prof-other' } })
    expect(mine.status).toBe('approval_pending')
    stores.close()
    const again = createSqliteApprovalStores({ filename })
    const reopened = createDispatcher({ tools: [deploy], approvals: again })
    const listed = await reopened.approvals.listPending({ profile_id: SCOPE.profile_id })
    expect(listed.map((view) => [view.approval_id, view.status])).toEqual([[(mine as { approval_id: string }).approval_id, 'pending']])
    expect(await again.pending.list!('nobody')).toEqual([])
    again.close()
  })
})
