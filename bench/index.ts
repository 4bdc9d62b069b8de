/**
 * `npm run bench`: every benchmark, a readable table each, then as the very last line one JSON
 * object with every figure. Ratios (`x_vs_y`) are medians of x over medians of y from the same
 * run; `_us` figures are microseconds per operation, `_ms` milliseconds, `_mb` MiB.
 *
 *     npm run bench             # about three minutes
 *     npm run bench -- --quick  # a few seconds: checks that everything runs, figures are noise
 */
import { execFileSync } from 'node:child_process'
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { catalogSizeBench } from './catalog-size.js'
import { cpuRatiosBench } from './cpu-ratios.js'
import { firstToolRecord } from './fixtures/catalog-record.js'
import { formatTable } from './harness.js'
import { hotPathsBench } from './hot-paths.js'
import { httpBench } from './http.js'
import { mcpBench } from './mcp.js'
import { postgresBench } from './postgres.js'
import { stagesBench } from './stages.js'
import { telemetryBench } from './telemetry.js'

const quick = process.argv.includes('--quick')

/** Bundles a benchmark script and the sources it imports into node_modules/.cache (where its dependencies resolve); returns the bundle's path. */
async function bundleForNode(entry: string): Promise<string> {
  const outfile = fileURLToPath(new URL('../node_modules/.cache/result-views-bench/catalog-1000.mjs', import.meta.url))
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', logLevel: 'warning' })
  return outfile
}
const figures: Record<string, number> = {}
Object.assign(figures, await hotPathsBench(quick))
Object.assign(figures, await cpuRatiosBench(quick))
Object.assign(figures, await mcpBench(quick))
Object.assign(figures, await httpBench(quick))
Object.assign(figures, await postgresBench(quick))
Object.assign(figures, await stagesBench(quick))
Object.assign(figures, await telemetryBench(quick))

// The catalog runs in fresh plain `node` processes, so that its memory is its own and not tsx's
// (a tsx process holds about 140 MB before it loads anything of ours): bench/catalog-1000.ts and
// the sources it imports are bundled first with esbuild (`result-views` resolved to src/ through
// tsconfig.json paths; dependencies stay imports of node_modules). Its figures are medians of three.
const catalogScript = await bundleForNode(fileURLToPath(new URL('./catalog-1000.ts', import.meta.url)))
// Each run is interleaved with a run of the first invoke's floor (`--ajv-floor`: plain ajv
// compiling the same tool's two schemas in the same process state).
const catalogRuns: Record<string, number>[] = []
const floorRuns: Record<string, number>[] = []
const record = JSON.stringify(firstToolRecord())
const runCatalog = (args: readonly string[]): Record<string, number> => {
  const out = execFileSync(process.execPath, ['--expose-gc', catalogScript, ...args], { encoding: 'utf8', input: record })
  return JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, number>
}
for (let i = 0; i < (quick ? 1 : 3); i++) {
  catalogRuns.push(runCatalog([]))
  floorRuns.push(runCatalog(['--ajv-floor']))
}
const medianOf = (runs: readonly Record<string, number>[], key: string): number => {
  const values = runs.map((run) => run[key]!).sort((a, b) => a - b)
  return values[Math.floor(values.length / 2)]!
}
const catalog: Record<string, number> = {}
for (const key of Object.keys(catalogRuns[0]!)) catalog[key] = medianOf(catalogRuns, key)
for (const key of Object.keys(floorRuns[0]!)) catalog[key] = medianOf(floorRuns, key)
catalog['first_invoke_vs_ajv_floor'] = catalog['first_invoke_ms']! / catalog['first_invoke_ajv_floor_ms']!
console.log(
  '\n' +
    formatTable(
      `catalog of 1,000 realistic viewed tools (fresh process, median of ${catalogRuns.length})`,
      ['figure', 'value'],
      Object.entries(catalog).map(([key, value]) => [key, String(Math.round(value * 100) / 100)]),
    ),
)
Object.assign(figures, catalog)

console.log('')
Object.assign(figures, await catalogSizeBench())

const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 1000) / 1000]))
console.log(JSON.stringify(rounded))
