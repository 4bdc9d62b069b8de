/**
 * `npm run demo`: runs every example in turn, each in its own process, and stops at the first that
 * fails. Each example also runs alone: `npx tsx examples/<name>.ts`.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const EXAMPLES = ['views', 'hooks', 'approvals', 'loop', 'contracts', 'http-cli', 'ai-sdk'] as const

for (const name of EXAMPLES) {
  const file = fileURLToPath(new URL(`./${name}.ts`, import.meta.url))
  if (!existsSync(file)) throw new Error(`examples/${name}.ts is missing`)
  console.log(`\n#### examples/${name}.ts ${'#'.repeat(80 - name.length)}`)
  execFileSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' })
}
