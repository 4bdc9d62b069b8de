// The types grid of the consumer smoke (scripts/consumer-smoke.mjs, part of `npm test`): a
// TypeScript consumer that imports every entry of the built package type-checks with
// `skipLibCheck: false` under each TypeScript version of the matrix (the root's 5.9, 5.4 and 7 from
// the matrix/ workspaces) and each way a consumer resolves modules: node16 and nodenext, as ESM
// and as CommonJS, and bundler. A CommonJS consumer imports no ESM-only package itself (typebox
// is one): it writes its schemas as plain JSON Schema, as a CommonJS host must.
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
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
 * How many compilers run at once: RESULT_VIEWS_TYPES_GRID_JOBS, else the cores (at least 2, at
 * most 4: a TypeScript 5 check of every entry with `skipLibCheck: false` takes about 1.5 GB).
 */
const jobs = Number(process.env.RESULT_VIEWS_TYPES_GRID_JOBS) || Math.min(4, Math.max(2, availableParallelism()))

/**
 * Writes one consumer project per module setting under `dir` (each its own package, linked to
 * the package at `root` as `node_modules/result-views`) and type-checks each with each compiler,
 * a few at once. Resolves to the rows `{ typescript, resolution, ok, ms, output }` in grid order,
 * each also passed to `onRow` as it is done; never rejects for a failed check.
 */
export async function runTypesGrid(root, dir, onRow = () => {}) {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(`${dir}/node_modules`, { recursive: true })
  symlinkSync(root, `${dir}/node_modules/result-views`, 'dir')
  const cellOf = (setting) => `${dir}/${setting.name.replace(' ', '-').toLowerCase()}`
  for (const setting of resolutions) {
    const cell = cellOf(setting)
    mkdirSync(cell)
    writeFileSync(`${cell}/package.json`, JSON.stringify({ name: 'types-consumer', private: true, type: setting.type }))
    writeFileSync(`${cell}/consumer.ts`, consumer(setting.type === 'module'))
    const compilerOptions = { target: 'ES2022', module: setting.module, moduleResolution: setting.moduleResolution, strict: true, noEmit: true, types: ['node'], skipLibCheck: false }
    writeFileSync(`${cell}/tsconfig.json`, JSON.stringify({ compilerOptions, files: ['consumer.ts'] }))
  }
  const cells = typescripts.flatMap((compiler) => {
    // The compiler's `bin` (TypeScript 7's "exports" do not list it), found through its package.json.
    const manifest = createRequire(`${root}${compiler.from}package.json`).resolve('typescript/package.json')
    const { version, bin } = JSON.parse(readFileSync(manifest, 'utf8'))
    const tsc = join(dirname(manifest), typeof bin === 'string' ? bin : bin.tsc)
    return resolutions.map((setting) => ({ tsc, version, setting }))
  })
  const rows = new Array(cells.length)
  let next = 0
  const worker = async () => {
    while (next < cells.length) {
      const index = next++
      const { tsc, version, setting } = cells[index]
      const started = performance.now()
      const output = await new Promise((resolve) =>
        execFile(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: cellOf(setting), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
          resolve(error === null ? undefined : `${stdout}${stderr}` || String(error)),
        ),
      )
      // Errors inside another package's declarations (a dependency's own node16 problems, such as
      // @openai/agents-openai's or the MCP SDK's CommonJS types) are reported, not failed: the
      // cell fails on an error in consumer.ts or in this package's dist/.
      const errors = (output ?? '').split('\n').filter((line) => /error TS\d+/.test(line))
      const ours = errors.filter((line) => !/^(\.\.\/)*node_modules\//.test(line))
      const ok = output === undefined || (errors.length > 0 && ours.length === 0)
      const row = { typescript: version, resolution: setting.name, ok, thirdParty: errors.length - ours.length, ms: Math.round(performance.now() - started), output: output ?? '' }
      rows[index] = row
      onRow(row)
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, cells.length) }, worker))
  return rows
}
