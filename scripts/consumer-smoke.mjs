// Consumer smoke test: imports the built package (dist/) by its name, as ESM and as CJS, the way
// a host would, runs one viewed tool end to end in each, and type-checks a TypeScript consumer
// against the published .d.ts files. Files go to temp/consumer/ (inside the package, so the name
// `result-views` resolves through the package's own "exports").
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const dir = `${root}temp/consumer`
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })

const body = (load) => `
${load}
const assert = (ok, what) => { if (!ok) { console.error('consumer smoke failed: ' + what); process.exit(1) } }
const input = { type: 'object', required: ['id'], properties: { id: { type: 'string' } }, additionalProperties: false }
const compact = { type: 'object', required: ['id'], properties: { id: { type: 'string' } }, additionalProperties: false }
const full = { type: 'object', required: ['id', 'notes'], properties: { id: { type: 'string' }, notes: { type: 'string' } }, additionalProperties: false }
const tool = rv.defineTool({ id: 'demo__read', description: 'demo', input, output: { compact, full }, handler: ({ id }) => ({ id, notes: 'long' }) })
const dispatcher = rv.createDispatcher({ tools: [tool] })
run().catch((error) => { console.error(error); process.exit(1) })
async function run() {
  const c = await dispatcher.invoke({ tool_id: 'demo__read', input: { id: 'a' } })
  assert(c.status === 'ok' && JSON.stringify(c.result.structured) === '{"id":"a"}' && c.result_view === 'compact', 'compact call')
  const f = await dispatcher.invoke({ tool_id: 'demo__read', input: { id: 'a', result_view: 'full' } })
  assert(f.status === 'ok' && f.result.structured.notes === 'long', 'full call')
  const e = await dispatcher.invoke({ tool_id: 'demo__read', input: { id: 'a', result_view: 'huge' } })
  assert(e.status === 'error' && rv.isToolError(e.error) && e.error.code === 'tool_invalid_input', 'error row')
  assert(rv.schemaDigest({ type: 'object' }) === 'a2c799262a3ce3c19ef5cdd983bf3d12b43ab3c426227091b909dcb7054738c0', 'digest vector')
  assert(typeof testing.assertViewsConsistent === 'function', 'testing entry')
  console.log('consumer smoke (' + KIND + '): ok')
}
`
writeFileSync(`${dir}/esm.mjs`, body(`import * as rv from 'result-views'\nimport * as testing from 'result-views/testing'\nconst KIND = 'esm'`))
writeFileSync(`${dir}/cjs.cjs`, body(`const rv = require('result-views')\nconst testing = require('result-views/testing')\nconst KIND = 'cjs'`))
writeFileSync(
  `${dir}/consumer.ts`,
  `import Type from 'typebox'
import { createDispatcher, defineTool, type InvokeOutcome, type ViewedTool } from 'result-views'
import { assertViewsConsistent } from 'result-views/testing'
const tool: ViewedTool = defineTool({
  id: 'demo__read',
  description: 'demo',
  input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
  output: {
    compact: Type.Object({ id: Type.String() }, { additionalProperties: false }),
    full: Type.Object({ id: Type.String(), notes: Type.String() }, { additionalProperties: false }),
  },
  handler: (input) => ({ id: input.id, notes: 'long' }),
})
const outcome: Promise<InvokeOutcome> = createDispatcher({ tools: [tool] }).invoke({ tool_id: 'demo__read', input: { id: 'a' } })
void outcome
assertViewsConsistent(tool, { runs: 1 })
`,
)
writeFileSync(
  `${dir}/tsconfig.json`,
  JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'], skipLibCheck: false },
    files: ['consumer.ts'],
  }),
)

const run = (cmd, args) => execFileSync(cmd, args, { cwd: dir, stdio: 'inherit' })
run(process.execPath, ['esm.mjs'])
run(process.execPath, ['cjs.cjs'])
run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.json'])
console.log('consumer smoke (types): ok')
