/**
 * `npm run bench`: every benchmark, a readable table each, then as the very last line one JSON
 * object with every figure. Ratios (`x_vs_y`) are medians of x over medians of y from the same run.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { catalogSizeBench } from './catalog-size.js'
import { hotPathsBench } from './hot-paths.js'

const figures: Record<string, number> = {}
Object.assign(figures, await hotPathsBench())

const catalogScript = fileURLToPath(new URL('./catalog-1000.ts', import.meta.url))
const catalog = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', catalogScript], { encoding: 'utf8' }).trim().split('\n').at(-1)!)
console.log(`\ncatalog of 1,000 viewed tools defined and described: ${catalog.catalog_1000_ms} ms, ${catalog.catalog_1000_rss_mb} MB resident (process baseline ${catalog.baseline_rss_mb} MB)`)
Object.assign(figures, catalog)

Object.assign(figures, await catalogSizeBench())

const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 1000) / 1000]))
console.log(JSON.stringify(rounded))
