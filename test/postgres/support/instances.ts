// Instances of a host as child processes (test/postgres/fixtures/instance.ts, run with tsx from
// the package root), each on its own loopback port. Every instance started here is stopped by its
// PID after the file's tests.
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const script = fileURLToPath(new URL('../fixtures/instance.ts', import.meta.url))

export interface Instance {
  readonly name: string
  readonly process: ChildProcess
  readonly pid: number
  /** `http://127.0.0.1:PORT` */
  readonly origin: string
  /** Resolves once the process has exited. */
  readonly exited: Promise<void>
}

const started: Instance[] = []
afterAll(async () => {
  for (const instance of started) if (instance.process.exitCode === null && instance.process.signalCode === null) process.kill(instance.pid, 'SIGKILL')
  await Promise.all(started.map((instance) => instance.exited))
})

/** Starts instance `name` on `env` (DATABASE_URL, TABLE_PREFIX, SEAL_KEY, STATE_KEY); resolves once it listens. */
export async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env, INSTANCE: name } })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const ready = new Promise<number>((resolve) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port))
  })
  const instance = { name, process: child, pid: child.pid!, origin: '', exited }
  started.push(instance)
  const port = await Promise.race([ready, exited.then(() => Promise.reject(new Error(`instance ${name} exited before it was ready: ${stderr}`)))])
  return { ...instance, origin: `http://127.0.0.1:${port}` }
}
