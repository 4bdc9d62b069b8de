// Child processes standing for instances of a host (test/postgres/fixtures/worker.ts, run with
// tsx from the package root so that 'result-views' resolves to the sources), and the commands the
// tests send them. Every worker started here is stopped by its PID after the file's tests.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const script = fileURLToPath(new URL('../fixtures/worker.ts', import.meta.url))

export interface Worker {
  readonly process: ChildProcessWithoutNullStreams
  /** Sends a command and resolves with its result (rejects with the worker's error). */
  send<T = unknown>(op: string, args?: Record<string, unknown>): Promise<T>
  /** Sends a command whose answers stream (`onLine` gets each line but the last) until the worker dies. */
  stream(op: string, args: Record<string, unknown>, onLine: (line: Record<string, unknown>) => void): void
  /** Resolves once the process has exited. */
  readonly exited: Promise<void>
}

const started: Worker[] = []
afterAll(async () => {
  for (const worker of started) if (worker.process.exitCode === null && worker.process.signalCode === null) process.kill(worker.process.pid!, 'SIGKILL')
  await Promise.all(started.map((worker) => worker.exited))
})

/** Starts a worker on `url` and the tables of `tablePrefix`; resolves once it is ready. */
export async function startWorker(url: string, tablePrefix: string): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, url, tablePrefix], { cwd: root, stdio: 'pipe' })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; onLine?: (line: Record<string, unknown>) => void }>()
  let ready: () => void
  const isReady = new Promise<void>((resolve) => (ready = resolve))
  createInterface({ input: child.stdout }).on('line', (text) => {
    const line = JSON.parse(text) as { ready?: true; id?: number; result?: unknown; error?: string }
    if (line.ready) return ready()
    const entry = waiting.get(line.id!)
    if (entry === undefined) return
    if ('committed' in line) return entry.onLine?.(line)
    waiting.delete(line.id!)
    if (line.error !== undefined) entry.reject(new Error(line.error))
    else entry.resolve(line.result)
  })
  void exited.then(() => {
    for (const entry of waiting.values()) entry.reject(new Error(`worker exited (${child.exitCode ?? child.signalCode}): ${stderr}`))
    waiting.clear()
  })
  let ids = 0
  const worker: Worker = {
    process: child,
    exited,
    send<T>(op: string, args: Record<string, unknown> = {}): Promise<T> {
      const id = ++ids
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject })
        child.stdin.write(JSON.stringify({ id, op, ...args }) + '\n')
      })
    },
    stream(op, args, onLine) {
      const id = ++ids
      waiting.set(id, { resolve: () => undefined, reject: () => undefined, onLine })
      child.stdin.write(JSON.stringify({ id, op, ...args }) + '\n')
    },
  }
  started.push(worker)
  await Promise.race([isReady, exited.then(() => Promise.reject(new Error(`worker exited before it was ready: ${stderr}`)))])
  return worker
}
