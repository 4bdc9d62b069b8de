/**
 * Where an invoke's time goes, stage by stage, from a CPU profile: a warmed loop of calls taken
 * under V8's sampling profiler (`node:inspector`, in this process), each sample's self time
 * charged to the stage of the source file its function lives in (the table below), so the next
 * change aims at the largest. Shares of one profile, not timings: they add up to 100 % of the
 * loop, the bench's own loop and the runtime (garbage collection, promise jobs) included.
 *
 * Run on three calls: a compact call with a scope (no policy, no hooks, the default stores), the
 * same call selecting the full view, and the host configuration of bench/hot-paths.ts (pattern
 * policy, memory stores, a pre-call hook, a sensitive field, a scope).
 */
import { Session } from 'node:inspector/promises'
import { fileURLToPath } from 'node:url'
import { createDispatcher, createMemoryApprovalStores, createPatternPolicy, defineTool, type Dispatcher, type InvokeRequest } from 'result-views'
import { realisticSessionFull, realisticSessionInput } from './fixtures/realistic-session.js'
import { RealisticCompactResult, RealisticFullResult, RealisticSessionInput, withoutFormats } from './fixtures/realistic-session-schema.js'
import { formatTable } from './harness.js'
import Type from 'typebox'

/** The stages, each with the source files (relative to src/) whose functions it is charged with; first match wins. */
const STAGES: ReadonlyArray<readonly [stage: string, files: RegExp]> = [
  ['read request + scope', /^(dispatch\/request|call\/scope|call\/call)\.ts$/],
  ['input rules (selector, plain JSON)', /^(dispatch\/prepare|dispatch\/select-view|views\/view|json\/guards|json\/plain)\.ts$/],
  ['hooks + events', /^(hooks\/|dispatch\/pre-call|dispatch\/events|dispatch\/hook-tool)/],
  ['redaction', /^redact\//],
  ['policy', /^policy\//],
  ['approvals (token, grants, pending)', /^approval\//],
  ['input digest', /^(digest\/|json\/canonical)/],
  ['host-call guards (deadlines, signals)', /^async\//],
  ['copies (input, full record)', /^(views\/record-copy|json\/own-copy|json\/clone)\.ts$/],
  ['handler context + handler', /^dispatch\/execute\.ts$/],
  ['output check + validators', /^dispatch\/(output|validators)\.ts$/],
  ['projection', /^views\//],
  ['preview', /^tool\/preview\.ts$/],
  ['envelope + lifecycle', /^(dispatch\/|tool\/|errors\/|log\/|json\/)/],
]

const srcRoot = fileURLToPath(new URL('../src/', import.meta.url))

/** The stage of a frame with a source file, or `undefined` for a builtin (charged to its caller). */
function stageOfFile(url: string, functionName: string): string | undefined {
  // ajv's generated validators have no file: they are input and full-record validation; the
  // generated record copy has none either.
  if (url === '') return /^validate\d+$/.test(functionName) ? 'ajv validators (input + full record)' : functionName === 'copyRecord' ? 'copies (input, full record)' : undefined
  if (url.startsWith('node:')) return undefined
  const path = url.startsWith('file://') ? fileURLToPath(url) : url
  if (path.includes('/node_modules/ajv')) return 'ajv validators (input + full record)'
  if (path.includes('/node_modules/')) return 'dependencies'
  if (!path.startsWith(srcRoot)) return 'bench loop and fixture handler'
  const file = path.slice(srcRoot.length)
  for (const [stage, files] of STAGES) if (files.test(file)) return stage
  return `other: ${file}`
}

/**
 * The stage a sample is charged with: its own frame's, or for a builtin (a hash, a UUID, a promise
 * job, a generated projector) the nearest caller's with a source file; the runtime's own entries
 * (garbage collection, the program) are stages of their own.
 */
function stageOf(node: ProfileNode, parents: ReadonlyMap<number, ProfileNode>): string {
  const own = node.callFrame.functionName
  if (own === '(garbage collector)') return 'runtime: garbage collection'
  if (own === '(program)' || own === '(idle)') return 'runtime: program'
  for (let at: ProfileNode | undefined = node; at !== undefined; at = parents.get(at.id)) {
    const stage = stageOfFile(at.callFrame.url, at.callFrame.functionName)
    if (stage !== undefined) return stage
  }
  return 'runtime: promise jobs and builtins'
}

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string }
  readonly children?: readonly number[]
}

async function profileLoop(label: string, dispatcher: Dispatcher, request: InvokeRequest, quick: boolean): Promise<Map<string, number>> {
  const once = async (): Promise<void> => {
    const outcome = await dispatcher.invoke(request)
    if (outcome.status !== 'ok') throw new Error(`bench ${label} invoke failed: ${JSON.stringify(outcome)}`)
  }
  const warm = performance.now() + (quick ? 100 : 1500)
  while (performance.now() < warm) for (let i = 0; i < 100; i++) await once()
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 50 })
  await session.post('Profiler.start')
  const end = performance.now() + (quick ? 200 : 3000)
  while (performance.now() < end) for (let i = 0; i < 100; i++) await once()
  const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } }
  session.disconnect()
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const parents = new Map<number, ProfileNode>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node)
  // The samples taken while the profiler itself stops (inspector frames) belong to no call.
  const inspector = (node: ProfileNode): boolean => {
    for (let at: ProfileNode | undefined = node; at !== undefined; at = parents.get(at.id)) if (at.callFrame.url === 'node:inspector') return true
    return false
  }
  const shares = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, index) => {
    const node = nodes.get(id)!
    if (inspector(node)) return
    const delta = profile.timeDeltas[index] ?? 0
    const stage = stageOf(node, parents)
    shares.set(stage, (shares.get(stage) ?? 0) + delta)
    total += delta
  })
  for (const [stage, time] of shares) shares.set(stage, time / total)
  return shares
}

/** Profiles the three calls, prints one table of stage shares, returns them as `stage_<call>_<stage>` figures (fractions). */
export async function stagesBench(quick = false): Promise<Record<string, number>> {
  const full = structuredClone(realisticSessionFull)
  const compact = withoutFormats(RealisticCompactResult)
  const fullSchema = withoutFormats(RealisticFullResult)
  const scope = { workspace_id: 'ws_storage', session_id: 'sess-coordinator-01', agent_name: 'general', profile_id: 'prof_backend' }
  const plain = createDispatcher({
    tools: [defineTool({ id: 'compozy__session_status', description: 'bench', input: RealisticSessionInput, output: { compact, full: fullSchema }, handler: () => full } as never)],
  })
  const hostInput = Type.Object({ session_id: Type.String({ minLength: 1 }), credential_ref: Type.Optional(Type.String()) }, { additionalProperties: false })
  const host = createDispatcher({
    tools: [defineTool({ id: 'compozy__session_status', description: 'bench', input: hostInput, output: { compact, full: fullSchema }, risk: 'read', handler: () => full } as never)],
    policy: createPatternPolicy({ owner: 'agent:general', tools: ['compozy__session_*'], approval: 'non_read_only' }),
    approvals: createMemoryApprovalStores(),
  })
  host.hook('tool.pre_call', () => undefined)
  const calls = {
    scoped: await profileLoop('scoped', plain, { tool_id: 'compozy__session_status', input: realisticSessionInput, scope }, quick),
    full: await profileLoop('full', plain, { tool_id: 'compozy__session_status', input: { ...realisticSessionInput, result_view: 'full' }, scope }, quick),
    host: await profileLoop('host', host, { tool_id: 'compozy__session_status', input: { ...realisticSessionInput, credential_ref: 'vault://provider/token' }, scope, sensitive_input_fields: ['credential_ref'] }, quick),
  }
  const stages = [...new Set([...calls.scoped.keys(), ...calls.full.keys(), ...calls.host.keys()])].sort((a, b) => (calls.host.get(b) ?? 0) - (calls.host.get(a) ?? 0))
  const pct = (value: number | undefined): string => `${((value ?? 0) * 100).toFixed(1)} %`
  console.log(
    '\n' +
      formatTable(
        'where an invoke spends its time (self time per stage, share of a CPU profile of a warmed loop)',
        ['stage', 'compact call with a scope', 'full view', 'host configuration'],
        stages.map((stage) => [stage, pct(calls.scoped.get(stage)), pct(calls.full.get(stage)), pct(calls.host.get(stage))]),
      ),
  )
  const key = (stage: string): string => stage.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '').toLowerCase()
  const figures: Record<string, number> = {}
  for (const stage of stages) {
    figures[`stage_scoped_${key(stage)}`] = calls.scoped.get(stage) ?? 0
    figures[`stage_full_${key(stage)}`] = calls.full.get(stage) ?? 0
    figures[`stage_host_${key(stage)}`] = calls.host.get(stage) ?? 0
  }
  return figures
}
