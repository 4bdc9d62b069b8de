// The types grid of the consumer smoke (scripts/consumer-smoke.mjs, part of `npm test`): a
// TypeScript consumer that imports every entry of the built package type-checks with
// `skipLibCheck: false` under each TypeScript version of the matrix (the root's 5.9, 5.4 and 7 from
// the matrix/ workspaces) and each way a consumer resolves modules: node16 and nodenext, as ESM
// and as CommonJS, and bundler. A CommonJS consumer imports no ESM-only package itself (typebox
// is one): it writes its schemas as plain JSON Schema, as a CommonJS host must.
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { subpathEntries } from './entries.mjs'

/** The TypeScript compilers of the grid: the package that provides each, resolved from its folder. */
export const typescripts = [
  { name: 'typescript 5.4', from: 'matrix/typescript-5.4/' },
  { name: 'typescript 5.9', from: '' },
  { name: 'typescript 7', from: 'matrix/typescript-7/' },
]

/** The module settings of the grid: `type` is the consumer package's `"type"`. */
export const resolutions = [
  { name: 'node16 ESM', module: 'node16', moduleResolution: 'node16', type: 'module' },
  { name: 'node16 CJS', module: 'node16', moduleResolution: 'node16', type: 'commonjs' },
  { name: 'nodenext ESM', module: 'nodenext', moduleResolution: 'nodenext', type: 'module' },
  { name: 'nodenext CJS', module: 'nodenext', moduleResolution: 'nodenext', type: 'commonjs' },
  { name: 'bundler', module: 'esnext', moduleResolution: 'bundler', type: 'module' },
]

const entryName = (entry) => entry.replace(/[^a-z]/g, '_')

const consumer = (esm) => `${esm ? "import Type from 'typebox'\n" : ''}import * as root from 'result-views'
${subpathEntries.map((entry) => `import * as ${entryName(entry)} from 'result-views/${entry}'`).join('\n')}
import type { InvokeOutcome, ViewedTool } from 'result-views'
import type { ToolSet } from 'ai'
import type { AgentsTool } from 'result-views/openai-agents'

const object = (properties: Record<string, { type: 'string' }>) => ({ type: 'object', required: Object.keys(properties), properties, additionalProperties: false }) as const
${
  esm
    ? `const tool: ViewedTool = root.defineTool({
  id: 'demo__read',
  description: 'demo',
  input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
  output: {
    compact: Type.Object({ id: Type.String() }, { additionalProperties: false }),
    full: Type.Object({ id: Type.String(), notes: Type.String() }, { additionalProperties: false }),
  },
  handler: (input) => ({ id: input.id, notes: 'long' }),
})`
    : `const tool = root.defineTool({
  id: 'demo__read',
  description: 'demo',
  input: object({ id: { type: 'string' } }),
  output: { compact: object({ id: { type: 'string' } }), full: object({ id: { type: 'string' }, notes: { type: 'string' } }) },
  handler: () => ({ id: 'a', notes: 'long' }),
})`
}
const dispatcher = root.createDispatcher({ tools: [tool] })
const outcome: Promise<InvokeOutcome> = dispatcher.invoke({ tool_id: 'demo__read', input: { id: 'a' } })
const aiTools: ToolSet = ai.toAiSdkTools(dispatcher, { approvals: 'framework' })
const approval = ai.aiSdkToolApproval(aiTools)
const agentsTools: AgentsTool[] = openai_agents.toAgentsTools(dispatcher, { scope: ({ context }) => ({ workspace_id: String(context) }) })
const stores = sqlite.createSqliteApprovalStores({ filename: ':memory:' })
const pg = postgres.createPostgresApprovalStores({ connectionString: 'postgres://x@127.0.0.1/x' })
testing.assertViewsConsistent(tool, { runs: 1 })
export { outcome, approval, agentsTools, stores, pg, object }
export const entries = [root, ${subpathEntries.map(entryName).join(', ')}]
`

/**
 * Writes one consumer project per module setting under `dir` (each its own package, linked to
 * the package at `root` as `node_modules/result-views`) and type-checks each with each compiler.
 * Returns the rows `{ typescript, resolution, ok, ms, output }`, each also passed to `onRow` as
 * it is done; never throws for a failed check.
 */
export function runTypesGrid(root, dir, onRow = () => {}) {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(`${dir}/node_modules`, { recursive: true })
  symlinkSync(root, `${dir}/node_modules/result-views`, 'dir')
  for (const setting of resolutions) {
    const cell = `${dir}/${setting.name.replace(' ', '-').toLowerCase()}`
    mkdirSync(cell)
    writeFileSync(`${cell}/package.json`, JSON.stringify({ name: 'types-consumer', private: true, type: setting.type }))
    writeFileSync(`${cell}/consumer.ts`, consumer(setting.type === 'module'))
    const compilerOptions = { target: 'ES2022', module: setting.module, moduleResolution: setting.moduleResolution, strict: true, noEmit: true, types: ['node'], skipLibCheck: false }
    writeFileSync(`${cell}/tsconfig.json`, JSON.stringify({ compilerOptions, files: ['consumer.ts'] }))
  }
  const rows = []
  for (const compiler of typescripts) {
    const tsc = createRequire(`${root}${compiler.from}package.json`).resolve('typescript/bin/tsc')
    const version = createRequire(`${root}${compiler.from}package.json`)('typescript/package.json').version
    for (const setting of resolutions) {
      const cell = `${dir}/${setting.name.replace(' ', '-').toLowerCase()}`
      const started = performance.now()
      let ok = true
      let output = ''
      try {
        execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: cell, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      } catch (error) {
        ok = false
        output = `${error.stdout ?? ''}${error.stderr ?? ''}`
      }
      const row = { typescript: version, resolution: setting.name, ok, ms: Math.round(performance.now() - started), output }
      rows.push(row)
      onRow(row)
    }
  }
  return rows
}
