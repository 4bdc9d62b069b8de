/**
 * The realistic catalog (bench/fixtures/realistic-catalog.ts) in a fresh process: 1,000 viewed
 * tools whose schemas are built before the timed region; timed: `defineTool` × 1,000 +
 * `createDispatcher` + `list()`. Then resident memory and heap after a full GC, and the first
 * `invoke` of one tool (validators and projector are compiled lazily, on that call) and the
 * second. Prints one JSON line; bench/index.ts runs it as a child process (with `--expose-gc`)
 * so the memory is this catalog's, not the other benchmarks', bundled for plain `node` so that it is
 * not tsx's either, and sends on stdin a valid full record for the first tool's handler
 * (bench/fixtures/catalog-record.ts; generating it here would load fast-check into the measured
 * process). By hand, under tsx (its RSS then includes tsx's):
 *
 *     node --expose-gc --import tsx bench/catalog-1000.ts < record.json
 */
import { readFileSync } from 'node:fs'
import { createDispatcher, defineTool, type Tool } from 'result-views'
import { realisticCatalog } from './fixtures/realistic-catalog.js'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with node --expose-gc')
const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10
const ms = (value: number): number => Math.round(value * 100) / 100
/** CPU time of this process (user + system, V8's helper threads included) in milliseconds. */
const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000

// Built before the timed region: the schemas, and a valid full record for the first tool's handler.
const definitions = realisticCatalog()
const first = definitions[0]!
const record: unknown = JSON.parse(readFileSync(0, 'utf8'))
definitions[0] = { ...first, handler: () => record } as typeof first
const input = { [Object.keys((first.input as { properties: object }).properties)[0]!]: 'id-1' }
gc()
const before = process.memoryUsage()

const cpuStart = process.cpuUsage()
const start = performance.now()
const tools: Tool[] = []
for (const definition of definitions) tools.push(defineTool(definition))
const defined = performance.now()
const dispatcher = createDispatcher({ tools })
const created = performance.now()
const descriptors = dispatcher.list()
const listed = performance.now()
const cpuListed = process.cpuUsage(cpuStart)
if (descriptors.length !== 1000) throw new Error('catalog benchmark built the wrong number of descriptors')

gc()
const after = process.memoryUsage()

const cpuInvoke = process.cpuUsage()
const t0 = performance.now()
const firstOutcome = await dispatcher.invoke({ tool_id: first.id, input })
const t1 = performance.now()
const cpuInvoked = process.cpuUsage(cpuInvoke)
const secondOutcome = await dispatcher.invoke({ tool_id: first.id, input })
const t2 = performance.now()
if (firstOutcome.status !== 'ok' || secondOutcome.status !== 'ok') throw new Error(`catalog benchmark invoke failed: ${JSON.stringify(firstOutcome)}`)

console.log(
  JSON.stringify({
    catalog_1000_ms: ms(listed - start),
    catalog_1000_cpu_ms: ms(cpuMs(cpuListed)),
    catalog_1000_define_ms: ms(defined - start),
    catalog_1000_dispatcher_ms: ms(created - defined),
    catalog_1000_list_ms: ms(listed - created),
    catalog_1000_rss_mb: mb(after.rss),
    catalog_1000_heap_mb: mb(after.heapUsed),
    catalog_1000_baseline_rss_mb: mb(before.rss),
    catalog_1000_rss_growth_mb: mb(after.rss - before.rss),
    catalog_1000_heap_growth_mb: mb(after.heapUsed - before.heapUsed),
    first_invoke_ms: ms(t1 - t0),
    first_invoke_cpu_ms: ms(cpuMs(cpuInvoked)),
    second_invoke_ms: ms(t2 - t1),
  }),
)
