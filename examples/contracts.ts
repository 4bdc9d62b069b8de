/**
 * Tool contracts in CI (`result-views/contracts`, docs/contracts.md) on the example catalog: lock
 * it, check a careless release of `compozy__session_status` against the lock (runtime.generation
 * moved to the full view; `state` gained a value) and print the failing check's table and the
 * release note; then feed the superseded digest table to a Loop run pinned before the tools had
 * views; last, the compact and full token figures of the spec's session records.
 *
 * The checks run the functions behind `npx result-views contracts check|release-note`, on the
 * `--catalog` modules in examples/catalogs/. Run alone: `npx tsx examples/contracts.ts` (or all
 * examples: `npm run demo`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createDispatcher, type ViewedTool } from 'result-views'
import { contractLock, measureViews, runContractsCheck, runReleaseNote, supersededDigestTable, viewReleaseNote } from 'result-views/contracts'
import { parseLoopYaml, runLoop } from 'result-views/loop'
import { measureCatalog } from 'result-views/mcp'
import { tools as preViewTools } from './catalogs/pre-view.js'
import { sessionFixtures } from './fixtures/sessions.js'
import { specLoop } from './loop.js'
import { heading, json, line } from './print.js'
import { exampleTools } from './tools/catalog.js'

const root = fileURLToPath(new URL('..', import.meta.url))

export async function contracts(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'result-views-contracts-'))
  try {
    await checks(join(dir, 'tool-contracts.lock.json'))
    await supersededDigests()
    tokenFigures()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function checks(lockPath: string): Promise<void> {
  heading('Lock the example catalog: contracts check --catalog examples/catalogs/current.ts --update')
  const update = await runContractsCheck({ catalog: 'examples/catalogs/current.ts', lockPath, update: true, cwd: root })
  line(`exit ${update.exitCode}: ${update.stdout.trim()}`)
  const lock = readFileSync(lockPath, 'utf8')
  const status = JSON.parse(lock).tools.compozy__session_status
  line(`compozy__session_status in the lock: kind ${status.kind}, origin ${status.origin}, compact ${status.views.compact.digest.slice(0, 12)}…, full ${status.views.full.digest.slice(0, 12)}…`)
  line(`its compact budget on ${status.budget.records} spec records: ${json(status.budget)}`)

  heading('The same catalog against its lock: exit 0')
  const clean = await runContractsCheck({ catalog: 'examples/catalogs/current.ts', lockPath, cwd: root })
  line(`exit ${clean.exitCode}: ${clean.stdout.trim()}`)

  heading('A careless release (runtime.generation moved to full; state gained "paused"): exit 1')
  const careless = await runContractsCheck({ catalog: 'examples/catalogs/careless-release.ts', lockPath, cwd: root })
  line(`exit ${careless.exitCode}`)
  line(careless.stdout.trimEnd())

  heading('Its release note: contracts release-note --from <lock> --catalog examples/catalogs/careless-release.ts')
  const note = await runReleaseNote({ from: lockPath, catalog: 'examples/catalogs/careless-release.ts', cwd: root })
  line(note.stdout.trimEnd())
}

async function supersededDigests(): Promise<void> {
  heading('Before result views → now: the release note of the default-view change')
  const before = contractLock(preViewTools)
  const tools = exampleTools()
  for (const tool of viewReleaseNote(before, tools).tools) line(`${tool.tool_id} (${tool.change}): moved to full ${tool.moved_to_full.join(', ')}`)

  heading('The superseded digest table (spec 000 "Migration"): old single-output digest → full view digest')
  const table = supersededDigestTable(before, tools)
  for (const [from, to] of Object.entries(table)) line(`${from.slice(0, 16)}… → ${to.slice(0, 16)}…`)

  heading('A Loop run pinned before result views (node "inspect" reads a full-only field)')
  const dispatcher = createDispatcher({ tools })
  const loop = parseLoopYaml(specLoop.replace('        result_view: full\n', ''))
  // A stored pre-view snapshot: no result_view recorded, the digest of the old single output.
  const preView = before.tools.compozy__session_status!
  const pinned = { pins: { inspect: { tool_id: 'compozy__session_status', schema_digest: preView.kind === 'single' ? preView.views.output.digest : '' } } }
  const actions = { 'run-agent': (params: { readonly [key: string]: unknown }) => ({ summary: String(params.prompt) }) }
  const stale = await runLoop(loop, { dispatcher, inputs: { session_id: 'sess-example' }, actions, snapshot: pinned })
  const inspectStale = stale.nodes.inspect!
  line(`without the table: ${inspectStale.status === 'error' ? `${inspectStale.error.code}: ${inspectStale.error.message}` : inspectStale.status}`)
  const resumed = await runLoop(loop, { dispatcher, inputs: { session_id: 'sess-example' }, actions, snapshot: pinned, supersededDigests: table })
  line(`with supersededDigests: run ${resumed.status}; pin ${json(resumed.snapshot.pins.inspect)}`)
  const report = resumed.nodes.report!
  if (report.status === 'ok') line(`report: ${json(report.output)}`)
}

function tokenFigures(): void {
  heading('Token figures of the spec\'s session records (o200k, canonical JSON): measureViews')
  const status = exampleTools()[0] as ViewedTool
  const names = Object.keys(sessionFixtures)
  const measured = measureViews(status, Object.values(sessionFixtures))
  line(`${'record'.padEnd(26)} ${'compact B'.padStart(10)} ${'tokens'.padStart(7)} ${'full B'.padStart(8)} ${'tokens'.padStart(7)}  saved`)
  for (const r of measured.records) {
    line(`${names[r.index]!.padEnd(26)} ${String(r.compact_bytes).padStart(10)} ${String(r.compact_tokens).padStart(7)} ${String(r.full_bytes).padStart(8)} ${String(r.full_tokens).padStart(7)}  ${(r.savings_ratio * 100).toFixed(0)} %`)
  }
  const t = measured.total
  line(`${'total'.padEnd(26)} ${String(t.compact_bytes).padStart(10)} ${String(t.compact_tokens).padStart(7)} ${String(t.full_bytes).padStart(8)} ${String(t.full_tokens).padStart(7)}  ${(t.savings_ratio * 100).toFixed(0)} %`)
  line(`catalog surfaces (measureCatalog): ${json(measureCatalog(exampleTools()))}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await contracts()
