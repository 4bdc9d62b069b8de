#!/usr/bin/env node
// The `result-views` command (package `bin`): `main` on this process's streams, environment and
// directory. The process exits once stdout has drained; a reader that closes the pipe early
// (`result-views … | head -1`) ends it quietly instead of with an EPIPE trace.
import { main } from './main.js'

for (const stream of [process.stdout, process.stderr]) stream.on('error', () => process.exit(process.exitCode ?? 1))
const code = await main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() })
process.exitCode = code
process.stdout.write('', () => process.exit(code))
