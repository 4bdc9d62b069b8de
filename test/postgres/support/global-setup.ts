// vitest globalSetup of the `postgres` project (vitest.config.ts): one PostgreSQL server for the
// whole run, handed to the test files with `inject('postgres')`, stopped by its PID in teardown —
// after failing tests too — and on any exit of the vitest process (an interrupted run: SIGINT and
// SIGTERM make vitest exit, which runs the 'exit' handler; a SIGKILL leaves it to the watchdog).
import type { TestProject } from 'vitest/node'
import { startTestServer, type TestServerInfo } from './server.js'

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: TestServerInfo
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestServer()
  const onExit = () => server.stopSync()
  process.once('exit', onExit)
  project.provide('postgres', server.info)
  const { version, initdbMs, startMs, port } = server.info
  process.stdout.write(`test PostgreSQL ${version} on 127.0.0.1:${port} (pid ${server.pid}): initdb ${initdbMs} ms, start ${startMs} ms\n`)
  return async () => {
    process.off('exit', onExit)
    await server.stop()
  }
}
