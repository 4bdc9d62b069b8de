// Watchdog of the test PostgreSQL server (started by server.ts, detached, its stdin a pipe from the
// vitest process). When that pipe closes without a word — the vitest process died, even by
// SIGKILL — it stops the server by its PID (SIGQUIT: immediate shutdown, then SIGKILL) and removes
// the temporary directory, so no server outlives the run. SIGTERM (sent by a normal teardown,
// which stops the server itself) ends it without touching anything.
// Usage: node watchdog.mjs <postgres pid> <temporary directory>
import { readFileSync, rmSync } from 'node:fs'

const pid = Number(process.argv[2])
const dir = process.argv[3]
process.on('SIGTERM', () => process.exit(0))
process.on('SIGINT', () => undefined)

function isPostgres() {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('postgres')
  } catch {
    return true // no /proc: trust the PID, which this process has watched since the start
  }
}

function cleanUp() {
  if (isPostgres()) {
    try {
      process.kill(pid, 'SIGQUIT')
    } catch {}
    const deadline = Date.now() + 5_000
    const wait = () => {
      if (isPostgres() && Date.now() < deadline) return void setTimeout(wait, 50)
      if (isPostgres()) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {}
      }
      rmSync(dir, { recursive: true, force: true })
      process.exit(0)
    }
    return wait()
  }
  rmSync(dir, { recursive: true, force: true })
  process.exit(0)
}

process.stdin.on('data', () => undefined)
process.stdin.on('end', cleanUp)
process.stdin.on('error', cleanUp)
