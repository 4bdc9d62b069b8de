/**
 * Catalog and result sizes (spec 000 "Managed-session MCP clients"): serialized discovery bytes (and o200k tokens) of
 * a synthetic catalog shaped like the spec's (288 tools, 99 viewed; see `synthetic-catalog.ts`),
 * and the average compact versus full result bytes over the example records.
 *
 *     npx tsx bench/catalog-size.ts
 *
 * Sizes, not timings: the figures are exact and the same on every run (the catalog is seeded).
 * `npm run bench` calls {@link catalogSizeBench} with the other benchmarks.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describeTool, type ViewedTool } from 'result-views'
import { measureCatalog } from 'result-views/mcp'
import { sessionFixtures, spawnFixtures } from '../examples/fixtures/sessions.js'
import { sessionSpawnTool, sessionStatusTool } from '../examples/tools/catalog.js'
import { formatTable } from './harness.js'
import { syntheticCatalog } from './synthetic-catalog.js'

/** The spec's measurements, printed for reference only (its catalog is not this one). */
const SPEC_FIGURES = [
  ['MCP full-policy catalog, no output schemas', 347_863],
  ['same, before removing output schemas', 1_088_135],
  ['pre-feature baseline', 744_687],
  ['model-facing projection', 207_320],
] as const

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8')
const int = (n: number): string => Math.round(n).toLocaleString('en-US')
const ratio = (a: number, b: number): string => (a / b).toFixed(2) + '×'

/** Average JSON bytes of the example records in the compact and the full view. */
function resultSizes(): { compact: number; full: number; records: number } {
  const pairs: [ViewedTool, unknown][] = [
    ...Object.values(sessionFixtures).map((record): [ViewedTool, unknown] => [sessionStatusTool, record]),
    ...Object.values(spawnFixtures).map((record): [ViewedTool, unknown] => [sessionSpawnTool, record]),
  ]
  let compact = 0
  let full = 0
  for (const [tool, record] of pairs) {
    compact += bytes(tool.project(record, 'compact'))
    full += bytes(tool.project(record, 'full'))
  }
  return { compact: compact / pairs.length, full: full / pairs.length, records: pairs.length }
}

/**
 * Builds the synthetic catalog, prints a table of its three discovery sizes and their ratios and
 * of the example result sizes, and returns the figures (bytes of UTF-8 JSON):
 * `catalog_discovery_bytes`, `catalog_mcp_bytes`, `catalog_model_bytes`, the same three in tokens,
 * `result_compact_avg_bytes`, `result_full_avg_bytes` (averages rounded to whole bytes).
 */
export async function catalogSizeBench(): Promise<Record<string, number>> {
  const tools = syntheticCatalog()
  const viewed = tools.filter((tool) => tool.kind === 'viewed').length
  const size = measureCatalog(tools)
  const outputViewBytes = tools.map(describeTool).reduce((sum, d) => sum + (d.output_views === undefined ? 0 : bytes(d.output_views)), 0)
  const results = resultSizes()

  const rows: [string, string, string, string][] = [
    ['discovery catalog (descriptors, both views)', int(size.discovery_bytes), int(size.discovery_bytes / tools.length), int(size.discovery_tokens!)],
    ['  of which output_views (per viewed tool)', int(outputViewBytes), int(outputViewBytes / viewed), ''],
    ['MCP tools/list (no output schemas)', int(size.mcp_bytes), int(size.mcp_bytes / tools.length), int(size.mcp_tokens!)],
    ['model-facing (name, description, input)', int(size.model_bytes), int(size.model_bytes / tools.length), int(size.model_tokens!)],
  ]
  const lines = [
    `catalog size: ${tools.length} tools, ${viewed} viewed (synthetic, seeded), bytes of UTF-8 JSON and o200k tokens`,
    table(['surface', 'bytes', 'per tool', 'tokens'], rows),
    `  discovery / MCP = ${ratio(size.discovery_bytes, size.mcp_bytes)}, MCP / model = ${ratio(size.mcp_bytes, size.model_bytes)}, discovery / model = ${ratio(size.discovery_bytes, size.model_bytes)}`,
    '',
    `result size over ${results.records} example records (session and spawn fixtures)`,
    table(
      ['view', 'avg bytes'],
      [
        ['compact', int(results.compact)],
        ['full', int(results.full)],
      ],
    ),
    `  compact / full = ${(results.compact / results.full).toFixed(2)}`,
    '',
    'for reference, spec 000 measured on its own catalog (288 tools, 99 viewed):',
    ...SPEC_FIGURES.map(([label, value]) => `  ${label}: ${int(value)}`),
  ]
  console.log(lines.join('\n'))

  return {
    catalog_discovery_bytes: size.discovery_bytes,
    catalog_mcp_bytes: size.mcp_bytes,
    catalog_model_bytes: size.model_bytes,
    catalog_discovery_tokens: size.discovery_tokens!,
    catalog_mcp_tokens: size.mcp_tokens!,
    catalog_model_tokens: size.model_tokens!,
    result_compact_avg_bytes: Math.round(results.compact),
    result_full_avg_bytes: Math.round(results.full),
  }
}

/** A plain-text table without a title. */
const table = (header: readonly string[], rows: readonly (readonly string[])[]): string => formatTable('', header, rows).slice(1)

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await catalogSizeBench()
}
