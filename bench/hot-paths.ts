/**
 * Hot-path benchmarks on the spec's session record: each figure is a ratio of medians measured in
 * the same run (never absolute times: this machine is shared). Every task runs a batch of
 * `BATCH` operations per sample so timer overhead does not dominate sub-microsecond work.
 */
import { createHash } from 'node:crypto'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { Bench } from 'tinybench'
import Type from 'typebox'
import { Value } from 'typebox/value'
import { compileProjector, createDispatcher, defineTool, inputDigest } from 'result-views'
import { activeSessionFull } from '../examples/fixtures/sessions.js'
import { CompactSessionResult, FullSessionResult } from '../examples/tools/session-record.js'
import { handwrittenSessionProjection } from './handwritten-session.js'

const BATCH = 200
// ajv-formats is CommonJS: under ESM interop its function may sit on `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv

function batch(fn: () => unknown): () => void {
  return () => {
    for (let i = 0; i < BATCH; i++) fn()
  }
}

export async function hotPathsBench(): Promise<Record<string, number>> {
  const compactSchema = JSON.parse(JSON.stringify(CompactSessionResult))
  const project = compileProjector(compactSchema)
  const full = structuredClone(activeSessionFull)

  const Input = Type.Object({ session_id: Type.String() }, { additionalProperties: false })
  const tool = defineTool({
    id: 'bench__session_status',
    description: 'bench',
    input: Input,
    output: { compact: CompactSessionResult, full: FullSessionResult },
    handler: () => full,
  })
  // The same tool with its own preview (the session id, as the spec's examples show): the default
  // preview serializes the whole compact record on every call.
  const withPreview = defineTool({
    id: 'bench__session_status_preview',
    description: 'bench',
    input: Input,
    output: { compact: CompactSessionResult, full: FullSessionResult },
    handler: () => full,
    preview: (record) => record.session.id,
  })
  const dispatcher = createDispatcher({ tools: [tool, withPreview] })
  // The same validation work the dispatcher does: formats included.
  const ajv = addFormats(new Ajv({ strict: false }))
  const validateInput = ajv.compile(JSON.parse(JSON.stringify(Input)))
  const validateFull = ajv.compile(JSON.parse(JSON.stringify(FullSessionResult)))
  const input = { session_id: 'sess-example' }
  const digestInput = { session_id: 'sess-example', agent_name: 'general', options: { depth: 2, tags: ['a', 'b', 'c'] }, result_view: 'full' }
  const sha = (x: unknown): string => createHash('sha256').update(JSON.stringify(x)).digest('hex')

  const bench = new Bench({ name: 'hot paths', time: 400, warmupTime: 100 })
  bench
    .add('projector', batch(() => project(full)))
    .add('handwritten projection', batch(() => handwrittenSessionProjection(full)))
    .add('Value.Clean(compact, Value.Clone(full))', batch(() => Value.Clean(CompactSessionResult, Value.Clone(full))))
    .add('inputDigest', batch(() => inputDigest(digestInput)))
    .add('sha256(JSON.stringify(x))', batch(() => sha(digestInput)))
    .add('invoke (compact, output validated)', async () => {
      for (let i = 0; i < BATCH; i++) await dispatcher.invoke({ tool_id: 'bench__session_status', input })
    })
    .add('invoke (compact, output validated, tool preview)', async () => {
      for (let i = 0; i < BATCH; i++) await dispatcher.invoke({ tool_id: 'bench__session_status_preview', input })
    })
    .add('baseline: ajv input + handler + ajv output + handwritten', async () => {
      for (let i = 0; i < BATCH; i++) {
        if (!validateInput(input)) throw new Error('bench input invalid')
        const record = await (async () => full)()
        if (!validateFull(record)) throw new Error('bench record invalid')
        handwrittenSessionProjection(record)
      }
    })
  await bench.run()
  console.table(bench.table())

  const median = (name: string): number => {
    const task = bench.getTask(name)
    const result = task?.result as { latency?: { p50: number } } | undefined
    if (result?.latency === undefined) throw new Error(`benchmark task "${name}" has no result`)
    return result.latency.p50
  }
  return {
    projector_vs_handwritten: median('projector') / median('handwritten projection'),
    clean_vs_projector: median('Value.Clean(compact, Value.Clone(full))') / median('projector'),
    invoke_vs_baseline: median('invoke (compact, output validated)') / median('baseline: ajv input + handler + ajv output + handwritten'),
    invoke_tool_preview_vs_baseline:
      median('invoke (compact, output validated, tool preview)') / median('baseline: ajv input + handler + ajv output + handwritten'),
    digest_vs_stringify_sha: median('inputDigest') / median('sha256(JSON.stringify(x))'),
    projector_us: (median('projector') * 1000) / BATCH,
    invoke_us: (median('invoke (compact, output validated)') * 1000) / BATCH,
  }
}
