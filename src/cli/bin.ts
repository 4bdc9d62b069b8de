#!/usr/bin/env node
// The `result-views` command (package `bin`): `main` on this process's streams, environment and
// directory; the exit code is set once stdout has drained.
import { main } from './main.js'

const code = await main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() })
process.exitCode = code
process.stdout.write('', () => process.exit(code))
