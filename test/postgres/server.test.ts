// The test server never outlives its run: the global setup's exit handler stops it when vitest is
// interrupted, and the watchdog stops it when the vitest process is killed outright.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { describe, expect, inject, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const script = fileURLToPath(new URL('./fixtures/start-server.ts', import.meta.url))

/** Whether `pid` is a live process (signalable and not a zombie). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'))
  } catch {
    return false
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return true
}

/** Starts a server in a child process, sends the child `signal`, and reports whether the server and its directory went away. */
async function killParent(mode: 'watchdog' | 'exit-handler', signal: NodeJS.Signals): Promise<{ stopped: boolean; removed: boolean }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, mode], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let server: { pid: number; dataDir: string } | undefined
  try {
    server = await new Promise<{ pid: number; dataDir: string }>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)))
      void exited.then(() => reject(new Error('the child exited before its server started')))
    })
    expect(alive(server.pid)).toBe(true)
    child.kill(signal)
    await exited
    const stopped = await until(() => !alive(server!.pid), 10_000)
    const removed = await until(() => !existsSync(dirname(server!.dataDir)), 5_000)
    return { stopped, removed }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    if (server !== undefined && alive(server.pid)) process.kill(server.pid, 'SIGKILL')
    if (server !== undefined) rmSync(dirname(server.dataDir), { recursive: true, force: true })
  }
}

describe('the test PostgreSQL server', () => {
  it('runs unprivileged (never as root), on loopback, with password authentication', async () => {
    const server = inject('postgres')
    expect([server.host, server.version.split('.')[0]]).toEqual(['127.0.0.1', '18'])
    const wrong = new pg.Client({ host: server.host, port: server.port, user: server.user, password: 'wrong', database: 'postgres' })
    wrong.on('error', () => undefined)
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/)
    const client = new pg.Client({ host: server.host, port: server.port, user: server.user, password: server.password, database: 'postgres' })
    await client.connect()
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
      const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${rows[0]!.pid}/status`, 'utf8'))![1])
      expect(uid).not.toBe(0)
      expect(uid).toBe(process.getuid!() === 0 ? Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })) : process.getuid!())
    } finally {
      await client.end()
    }
  })

  it('is stopped by its PID when the process that started it exits on SIGINT (the exit handler)', async () => {
    expect(await killParent('exit-handler', 'SIGINT')).toEqual({ stopped: true, removed: true })
  })

  it('is stopped by its PID when the process that started it is killed with SIGKILL (the watchdog)', async () => {
    expect(await killParent('watchdog', 'SIGKILL')).toEqual({ stopped: true, removed: true })
  })
})
