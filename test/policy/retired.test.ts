import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, createPatternPolicy, createRetiredIdFilter, defineTool, intersectPolicies, isPolicyDefinitionError, isToolDefinitionError, RETIRED_IDS_IGNORED, type Logger } from 'result-views'
import { SCOPE, codeOf, statusTool, writeTool } from '../approval/fixtures.js'

const RETIRED = { tools: ['compozy__memory_read', 'compozy__memory_write'], toolsets: ['memory', 'memory-admin'] }

function capture() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = []
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message })
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
  return { logger, lines }
}

describe('retired tool IDs (spec 001 "Retired tool IDs")', () => {
  it('drops exact retired entries from tools, toolsets and deny_tools, never as an error, and applies the rest', () => {
    const filter = createRetiredIdFilter(RETIRED)
    const policy = createPatternPolicy({
      owner: 'agent:reviewer',
      tools: ['compozy__memory_read', 'notes__write'],
      toolsets: ['memory', 'ops'],
      deny_tools: ['compozy__memory_write', 'ops__status'],
      retired: filter,
    })
    expect([policy.tools, policy.toolsets, policy.deny_tools]).toEqual([['notes__write'], ['ops'], ['ops__status']])
    expect(policy.dropped_ids).toEqual(['compozy__memory_read', 'memory', 'compozy__memory_write'])
    const ask = (id: string, toolsets: string[]) => policy.decide({ tool: { id, origin: 'native', risk: undefined, toolsets, approval: 'none', read_only: true }, scope: {}, input: {} })
    expect(ask('notes__write', []).decision).toBe('allow')
    expect(ask('ops__deploy', ['ops']).decision).toBe('allow')
    expect(ask('ops__status', ['ops'])).toMatchObject({ decision: 'deny', reason: 'deny_listed' })
  })

  it('logs one tools.retired_ids_ignored warning per owner, naming the owner and the dropped IDs', () => {
    const { logger, lines } = capture()
    const filter = createRetiredIdFilter({ ...RETIRED, logger })
    for (let i = 0; i < 3; i++) createPatternPolicy({ owner: 'agent:one-warning', tools: ['compozy__memory_read', 'notes__write'], retired: filter })
    createPatternPolicy({ owner: 'agent:one-warning', toolsets: ['memory-admin'], retired: filter })
    createPatternPolicy({ owner: 'session:one-warning-1', deny_tools: ['compozy__memory_write'], retired: filter })
    createPatternPolicy({ owner: 'session:one-warning-2', tools: ['notes__write'], retired: filter })
    expect(lines).toEqual([
      { level: 'warn', fields: { event: RETIRED_IDS_IGNORED, owner: 'agent:one-warning', dropped_ids: ['compozy__memory_read'] }, message: 'tools.retired_ids_ignored' },
      { level: 'warn', fields: { event: RETIRED_IDS_IGNORED, owner: 'session:one-warning-1', dropped_ids: ['compozy__memory_write'] }, message: 'tools.retired_ids_ignored' },
    ])
    expect(RETIRED_IDS_IGNORED).toBe('tools.retired_ids_ignored')
  })

  it('keeps wildcard entries: they are not retired entries and match no retired tool', () => {
    const { logger, lines } = capture()
    const policy = createPatternPolicy({ owner: 'agent:a', tools: ['compozy__memory_*', 'memory*'], deny_tools: ['compozy__memory*'], retired: createRetiredIdFilter({ ...RETIRED, logger }) })
    expect(policy.tools).toEqual(['compozy__memory_*', 'memory*'])
    expect(policy.deny_tools).toEqual(['compozy__memory*'])
    expect(lines).toEqual([])
  })

  it('keeps an allow-list that held only retired entries enforced: it grants no tools, never becomes unrestricted', async () => {
    const calls: unknown[] = []
    const retired = createRetiredIdFilter(RETIRED)
    for (const lists of [{ tools: ['compozy__memory_read'] }, { toolsets: ['memory'] }, { tools: ['compozy__memory_write'], toolsets: ['memory-admin'] }]) {
      const policy = createPatternPolicy({ owner: 'session:sess-1', ...lists, retired })
      const dispatcher = createDispatcher({ tools: [statusTool(calls), writeTool(calls)], policy })
      expect(codeOf(await dispatcher.invoke({ tool_id: 'ops__status', input: { target: 'x' }, scope: SCOPE }))).toEqual(['tool_denied', 'policy_denied'])
      expect(codeOf(await dispatcher.invoke({ tool_id: 'notes__write', input: { text: 'x' }, scope: SCOPE }))).toEqual(['tool_denied', 'policy_denied'])
    }
    expect(calls).toEqual([])
  })

  it('keeps unknown IDs (they fail later, as unknown tools)', () => {
    const policy = createPatternPolicy({ owner: 'agent:a', tools: ['gone__tool', 'compozy__memory_read'], retired: createRetiredIdFilter(RETIRED) })
    expect(policy.tools).toEqual(['gone__tool'])
  })

  it('refuses retired ID lists that are not exact IDs', () => {
    for (const bad of [{ tools: 'x' }, { tools: ['memory_*'] }, { toolsets: [''] }, { toolsets: [3] }]) {
      let thrown: unknown
      try {
        createRetiredIdFilter(bad as never)
      } catch (error) {
        thrown = error
      }
      expect(isPolicyDefinitionError(thrown), JSON.stringify(bad)).toBe(true)
    }
  })

  it('survives a logger that throws', () => {
    const filter = createRetiredIdFilter({ ...RETIRED, logger: { debug() {}, info() {}, error() {}, warn() { throw new Error('log sink down') } } })
    expect(createPatternPolicy({ owner: 'agent:a', tools: ['compozy__memory_read'], retired: filter }).tools).toEqual([])
  })

  it('logs a logger-less filter\'s warning through the dispatcher\'s logger, once per owner, also through intersections', () => {
    const { logger, lines } = capture()
    const filter = createRetiredIdFilter(RETIRED)
    const agent = createPatternPolicy({ owner: 'agent:held', tools: ['compozy__memory_read', 'notes__write'], retired: filter })
    const again = createPatternPolicy({ owner: 'agent:held', toolsets: ['memory'], retired: filter })
    const session = createPatternPolicy({ owner: 'session:held-1', deny_tools: ['compozy__memory_write'], retired: filter })
    const clean = createPatternPolicy({ owner: 'session:held-2', tools: ['notes__write'], retired: filter })
    expect(lines).toEqual([])
    createDispatcher({ tools: [writeTool([])], policy: intersectPolicies([clean, intersectPolicies([agent, again]), session]), logger })
    const warning = (owner: string, dropped_ids: string[]) => ({ level: 'warn', fields: { event: RETIRED_IDS_IGNORED, owner, dropped_ids }, message: RETIRED_IDS_IGNORED })
    expect(lines).toEqual([warning('agent:held', ['compozy__memory_read']), warning('session:held-1', ['compozy__memory_write'])])
    createDispatcher({ tools: [writeTool([])], policy: agent, logger })
    createDispatcher({ tools: [writeTool([])], policy: session, logger: capture().logger })
    expect(lines).toHaveLength(2)
  })

  it('stays silent without any logger, and a dispatcher without a logger does not use up the warning', () => {
    const { logger, lines } = capture()
    const filter = createRetiredIdFilter(RETIRED)
    const policy = createPatternPolicy({ owner: 'agent:quiet', tools: ['compozy__memory_read'], retired: filter })
    createDispatcher({ tools: [writeTool([])], policy })
    createDispatcher({ tools: [writeTool([])], policy: { decide: (request) => policy.decide(request) }, logger })
    expect(lines).toEqual([])
    createDispatcher({ tools: [writeTool([])], policy, logger })
    expect(lines).toEqual([{ level: 'warn', fields: { event: RETIRED_IDS_IGNORED, owner: 'agent:quiet', dropped_ids: ['compozy__memory_read'] }, message: RETIRED_IDS_IGNORED }])
  })

  it('keeps a filter\'s own logger: the dispatcher\'s logger never repeats its warning', () => {
    const own = capture()
    const dispatcherLog = capture()
    const filter = createRetiredIdFilter({ ...RETIRED, logger: own.logger })
    const policy = createPatternPolicy({ owner: 'agent:loud', tools: ['compozy__memory_read'], retired: filter })
    createDispatcher({ tools: [writeTool([])], policy, logger: dispatcherLog.logger })
    expect(own.lines).toHaveLength(1)
    expect(dispatcherLog.lines).toEqual([])
  })

  it('logs tools.retired_ids_ignored once per owner for the life of the process, not once per filter object (regression)', () => {
    const { logger, lines } = capture()
    const owner = 'agent:process-wide'
    for (let i = 0; i < 3; i++) createPatternPolicy({ owner, tools: ['compozy__memory_read'], retired: createRetiredIdFilter({ ...RETIRED, logger }) })
    // A logger-less filter's held-back warning for the same owner is not logged again by a dispatcher either.
    const held = createPatternPolicy({ owner, deny_tools: ['compozy__memory_write'], retired: createRetiredIdFilter(RETIRED) })
    createDispatcher({ tools: [writeTool([])], policy: held, logger })
    expect(lines).toEqual([{ level: 'warn', fields: { event: RETIRED_IDS_IGNORED, owner, dropped_ids: ['compozy__memory_read'] }, message: RETIRED_IDS_IGNORED }])
    // Another owner is still warned, through a fresh filter.
    createPatternPolicy({ owner: 'session:process-wide', tools: ['compozy__memory_read'], retired: createRetiredIdFilter({ ...RETIRED, logger }) })
    expect(lines.map((line) => line.fields.owner)).toEqual([owner, 'session:process-wide'])
  })

  it('shares the warned owners between library copies through a Symbol.for key on globalThis', () => {
    const warned = (globalThis as Record<symbol, unknown>)[Symbol.for('result-views.retired_ids_ignored.owners')]
    expect(warned).toBeInstanceOf(Set)
    const { logger, lines } = capture()
    ;(warned as Set<string>).add('agent:warned-by-another-copy')
    createPatternPolicy({ owner: 'agent:warned-by-another-copy', tools: ['compozy__memory_read'], retired: createRetiredIdFilter({ ...RETIRED, logger }) })
    expect(lines).toEqual([])
  })
})

describe('retired IDs are never reused (spec 001 "Retired tool IDs")', () => {
  const problemsOf = (run: () => unknown): Array<{ path: string; code: string; message: string }> => {
    try {
      run()
    } catch (error) {
      expect(isToolDefinitionError(error)).toBe(true)
      expect(error).toMatchObject({ code: 'tool_definition_invalid' })
      return [...(error as { problems: Array<{ path: string; code: string; message: string }> }).problems]
    }
    throw new Error('expected createDispatcher to throw')
  }
  const reused = (id: string, toolsets: string[] = []) =>
    defineTool({ id, description: 'reuses a retired ID', toolsets, input: Type.Object({}), output: Type.Object({}), handler: () => ({}) })

  it('refuses a catalog that registers a tool under a retired ID, naming it (regression: the filter would drop a deny_tools entry naming it)', () => {
    const retired = createRetiredIdFilter(RETIRED)
    const policy = createPatternPolicy({ owner: 'agent:reuse', deny_tools: ['compozy__memory_read'], retired })
    // Without the refusal the deny entry is dropped, so the reused tool would run where it was meant to be denied.
    expect(policy.deny_tools).toEqual([])
    expect(problemsOf(() => createDispatcher({ tools: [writeTool([]), reused('compozy__memory_read')], policy }))).toEqual([
      { path: '/tools/1/id', code: 'retired_tool_id', message: 'tool ID "compozy__memory_read" is retired (reserved by the policy\'s retired-ID filter) and is never reused' },
    ])
  })

  it('refuses a tool in a retired toolset, and lists every reuse, through intersections at any depth', () => {
    const retired = createRetiredIdFilter({ ...RETIRED, logger: capture().logger })
    const member = createPatternPolicy({ owner: 'session:reuse', tools: ['*'], retired })
    const policy = intersectPolicies([createPatternPolicy({ owner: 'agent:plain' }), intersectPolicies([member])])
    expect(problemsOf(() => createDispatcher({ tools: [reused('compozy__memory_write', ['ops', 'memory-admin']), statusTool([]), reused('notes__memory', ['memory'])], policy }))).toEqual([
      { path: '/tools/0/id', code: 'retired_tool_id', message: 'tool ID "compozy__memory_write" is retired (reserved by the policy\'s retired-ID filter) and is never reused' },
      { path: '/tools/0/toolsets/1', code: 'retired_toolset', message: 'toolset "memory-admin" of tool "compozy__memory_write" is retired (reserved by the policy\'s retired-ID filter) and is never reused' },
      { path: '/tools/2/toolsets/0', code: 'retired_toolset', message: 'toolset "memory" of tool "notes__memory" is retired (reserved by the policy\'s retired-ID filter) and is never reused' },
    ])
  })

  it('accepts the catalog without a retired-ID filter, and behind a host\'s own policy wrapper (documented: the dispatcher cannot see through it)', () => {
    const tools = [reused('compozy__memory_read')]
    expect(createDispatcher({ tools }).list()).toHaveLength(1)
    expect(createDispatcher({ tools, policy: createPatternPolicy({ owner: 'agent:no-filter' }) }).list()).toHaveLength(1)
    const inner = createPatternPolicy({ owner: 'agent:wrapped', retired: createRetiredIdFilter(RETIRED) })
    expect(createDispatcher({ tools, policy: { decide: (request) => inner.decide(request) } }).list()).toHaveLength(1)
  })
})
