/**
 * The main job, on the spec's own records (spec 000 "Result Views"): build the catalog, show each
 * descriptor with its view digests, call compozy__session_status compact and full with their byte
 * sizes, show the session waiting on a permission prompt, list and search skills (whose compact
 * records keep diagnostics only when one is not clean), and every result_view error row.
 *
 * Run alone: `npx tsx examples/views.ts` (or all examples: `npm run demo`).
 */
import { pathToFileURL } from 'node:url'
import { createDispatcher, type InvokeOutcome } from 'result-views'
import { waitingOnPermissionFull } from './fixtures/sessions.js'
import { exampleTools } from './tools/catalog.js'
import { heading, json, line, utf8Bytes } from './print.js'

export async function views(): Promise<void> {
  const dispatcher = createDispatcher({ tools: exampleTools() })

  heading('Catalog: descriptors and view digests (spec 000 "Discovering both contracts")')
  for (const d of dispatcher.list()) {
    const views = d.output_views
    line(
      views === undefined
        ? `${d.tool_id.padEnd(26)} single result   output_schema_digest ${d.output_schema_digest.slice(0, 12)}…`
        : `${d.tool_id.padEnd(26)} compact ${views.compact.digest.slice(0, 12)}…  full ${views.full.digest.slice(0, 12)}…  (output_schema_digest = compact)`,
    )
  }
  const status = dispatcher.describe('compozy__session_status')!
  line(`result_view input of compozy__session_status: ${json(status.input_schema.properties && (status.input_schema.properties as Record<string, unknown>).result_view)}`)

  heading('compozy__session_status, compact (the default)')
  const compact = await dispatcher.invoke({ tool_id: 'compozy__session_status', input: { session_id: 'sess-example' } })
  showResult(compact)

  heading('compozy__session_status, result_view "full"')
  const full = await dispatcher.invoke({ tool_id: 'compozy__session_status', input: { session_id: 'sess-example', result_view: 'full' } })
  showResult(full, false)
  if (compact.status === 'ok' && full.status === 'ok') {
    const c = utf8Bytes(compact.result.structured)
    const f = utf8Bytes(full.result.structured)
    line(`compact ${c} bytes, full ${f} bytes: compact is ${((100 * c) / f).toFixed(1)}% of full`)
  }

  heading('A session waiting on a permission prompt (compact)')
  const waiting = createDispatcher({ tools: exampleTools({ sessions: [waitingOnPermissionFull] }) })
  showResult(await waiting.invoke({ tool_id: 'compozy__session_status', input: { session_id: 'sess-example' } }))

  heading('Skill list and search: diagnostics omitted by value (spec 000: only when every one is clean)')
  const list = dispatcher.describe('compozy__skill_list')!
  line(`compozy__skill_list descriptor: output_views.compact.omit_when = ${json(list.output_views?.compact.omit_when)}`)
  const listed = await dispatcher.invoke({ tool_id: 'compozy__skill_list', input: {} })
  line('compozy__skill_list, compact (mixed: testing is clean, deploy has a warning, release-notes is unverified):')
  showDiagnostics(listed)
  const listedFull = await dispatcher.invoke({ tool_id: 'compozy__skill_list', input: { result_view: 'full' } })
  line('compozy__skill_list, full (every skill keeps every diagnostic):')
  showDiagnostics(listedFull)
  const searched = await dispatcher.invoke({ tool_id: 'compozy__skill_search', input: { query: 'test' } })
  line('compozy__skill_search "test", compact (all clean: the diagnostics are omitted):')
  showResult(searched)

  heading('The result_view rows of spec 000 "Errors" (the tool never runs)')
  const rows: Array<[string, string, Record<string, unknown>]> = [
    ['Unknown result_view value', 'compozy__session_status', { session_id: 'sess-example', result_view: 'summary' }],
    ['result_view is not a string', 'compozy__session_status', { session_id: 'sess-example', result_view: 1 }],
    ['result_view sent to a single-result tool', 'compozy__skill_view', { skill_id: 'testing', result_view: 'full' }],
  ]
  for (const [condition, tool_id, input] of rows) {
    const outcome = await dispatcher.invoke({ tool_id, input })
    if (outcome.status !== 'error') throw new Error(`expected an error for "${condition}"`)
    const { code, reason, message } = outcome.error
    line(`${condition}\n    ${code} | ${reason} | ${message}\n    cli/http: ${outcome.error.forSurface('cli').message}`)
  }
  const pinned = await dispatcher.invoke({
    tool_id: 'compozy__session_status',
    input: { session_id: 'sess-example', result_view: 'compact' },
    pinned_result_view: 'full',
  })
  if (pinned.status === 'error') line(`A view other than the pinned one\n    ${pinned.error.code} | ${pinned.error.reason} | ${pinned.error.message}`)
}

/** One line per skill of a skill list: how many diagnostics the record carries, or that it omits them. */
function showDiagnostics(outcome: InvokeOutcome): void {
  if (outcome.status !== 'ok') {
    line(`error: ${json(outcome)}`)
    return
  }
  const { skills } = outcome.result.structured as { skills: Array<{ id: string; diagnostics?: Array<{ check: string; warning?: string; verified: boolean }> }> }
  for (const skill of skills) {
    line(`    ${skill.id.padEnd(14)} ${skill.diagnostics === undefined ? 'diagnostics omitted' : `${skill.diagnostics.length} diagnostics: ${skill.diagnostics.map((d) => d.check).join(', ')}`}`)
  }
  line(`    ${utf8Bytes(outcome.result.structured)} bytes`)
}

function showResult(outcome: InvokeOutcome, print = true): void {
  if (outcome.status !== 'ok') {
    line(`error: ${json(outcome)}`)
    return
  }
  line(`result_view: ${outcome.result_view}   preview: ${outcome.result.preview}   ${utf8Bytes(outcome.result.structured)} bytes`)
  if (print) line(json(outcome.result.structured, 2))
  else line(`top-level session keys: ${Object.keys((outcome.result.structured as { session: object }).session).join(', ')}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await views()
