/**
 * The realistic catalog (bench/fixtures/realistic-catalog.ts) in a fresh process: 1,000 viewed
 * tools whose schemas are built before the timed region; timed: `defineTool` × 1,000 +
 * `createDispatcher` + `list()`. Then resident memory and heap after a full GC, and the first
 * `invoke` of one tool (validators and projector are compiled lazily, on that call) and the
 * second. With `--ajv-floor`, the same process compiles that tool's input and full schemas with
 * plain ajv instead of invoking it (a fresh instance with ajv-formats, no meta-schema check): the
 * floor of the first invoke, which must compile them too. Prints one JSON line; bench/index.ts
 * runs it as a child process (with `--expose-gc`)
 * so the memory is this catalog's, not the other benchmarks', bundled for plain `node` so that it is
 * not tsx's either, and sends on stdin a valid full record for the first tool's handler
 * (bench/fixtures/catalog-record.ts; generating it here would load fast-check into the measured
 * process). By hand, under tsx (its RSS then includes tsx's):
 *
 *     node --expose-gc --import tsx bench/catalog-1000.ts < record.json
 */
import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
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
const ajvFloor = process.argv.includes('--ajv-floor')
// ajv-formats is CommonJS: its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv
// The two schemas the first invoke compiles, as plain JSON (what defineTool keeps of them).
const floorSchemas = [first.input, (first.output as { full: unknown }).full].map((schema) => JSON.parse(JSON.stringify(schema)) as object)
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

if (ajvFloor) {
  const cpuCompile = process.cpuUsage()
  const c0 = performance.now()
  const ajv = addFormats(new Ajv({ strict: true, allowUnionTypes: true, validateSchema: false }))
  for (const schema of floorSchemas) ajv.compile(schema)
  const c1 = performance.now()
  const cpuCompiled = process.cpuUsage(cpuCompile)
  console.log(JSON.stringify({ first_invoke_ajv_floor_ms: ms(c1 - c0), first_invoke_ajv_floor_cpu_ms: ms(cpuMs(cpuCompiled)) }))
  process.exit(0)
}

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
