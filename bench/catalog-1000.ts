/**
 * Defines and describes a catalog of 1,000 viewed tools in a fresh process and prints one JSON
 * line: `{ "catalog_1000_ms": …, "catalog_1000_rss_mb": …, "baseline_rss_mb": … }`. Validators are
 * compiled lazily (on first call), so none are built here. Run by bench/index.ts as a child
 * process so the resident memory is this catalog's, not the other benchmarks'.
 */
import Type from 'typebox'
import { createDispatcher, defineTool, type Tool } from 'result-views'

const baselineRss = process.memoryUsage().rss
const start = performance.now()
const tools: Tool[] = []
for (let i = 0; i < 1000; i++) {
  const compact = Type.Object(
    { id: Type.String(), state: Type.Union([Type.Literal('active'), Type.Literal('stopped')]), count: Type.Optional(Type.Integer()) },
    { additionalProperties: false },
  )
  const full = Type.Object({
    id: Type.String(),
    state: Type.Union([Type.Literal('active'), Type.Literal('stopped')]),
    count: Type.Optional(Type.Integer()),
    details: Type.Object({ owner: Type.String(), tags: Type.Array(Type.String()), notes: Type.Optional(Type.Union([Type.String(), Type.Null()])) }),
    history: Type.Array(Type.Object({ at: Type.String(), event: Type.String() })),
  })
  tools.push(
    defineTool({
      id: `bench__tool_${i}`,
      description: `Synthetic viewed tool ${i}.`,
      input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
      output: { compact, full },
      handler: (input) => ({ id: input.id, state: 'active' as const, details: { owner: 'o', tags: [] }, history: [] }),
    }),
  )
}
const dispatcher = createDispatcher({ tools })
const descriptors = dispatcher.list()
const ms = performance.now() - start
if (descriptors.length !== 1000) throw new Error('catalog benchmark built the wrong number of descriptors')
const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10
console.log(JSON.stringify({ catalog_1000_ms: Math.round(ms * 10) / 10, catalog_1000_rss_mb: mb(process.memoryUsage().rss), baseline_rss_mb: mb(baselineRss) }))
