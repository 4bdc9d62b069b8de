import { describe, expect, it } from 'vitest'
import { createDispatcher, createPatternPolicy, createRetiredIdFilter, intersectPolicies, isPolicyDefinitionError, RETIRED_IDS_IGNORED, type Logger } from 'result-views'
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

  it('logs one tools.retired_ids_ignored warning per owner for the life of the filter, naming the owner and the dropped IDs', () => {
    const { logger, lines } = capture()
    const filter = createRetiredIdFilter({ ...RETIRED, logger })
    for (let i = 0; i < 3; i++) createPatternPolicy({ owner: 'agent:reviewer', tools: ['compozy__memory_read', 'notes__write'], retired: filter })
    createPatternPolicy({ owner: 'agent:reviewer', toolsets: ['memory-admin'], retired: filter })
    createPatternPolicy({ owner: 'session:sess-1', deny_tools: ['compozy__memory_write'], retired: filter })
    createPatternPolicy({ owner: 'session:sess-2', tools: ['notes__write'], retired: filter })
    expect(lines).toEqual([
      { level: 'warn', fields: { event: RETIRED_IDS_IGNORED, owner: 'agent:reviewer', dropped_ids: ['compozy__memory_read'] }, message: 'tools.retired_ids_ignored' },
      { level: 'warn', fields: { event: RETIRED_IDS_IGNORED, owner: 'session:sess-1', dropped_ids: ['compozy__memory_write'] }, message: 'tools.retired_ids_ignored' },
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
    const agent = createPatternPolicy({ owner: 'agent:reviewer', tools: ['compozy__memory_read', 'notes__write'], retired: filter })
    const again = createPatternPolicy({ owner: 'agent:reviewer', toolsets: ['memory'], retired: filter })
    const session = createPatternPolicy({ owner: 'session:sess-1', deny_tools: ['compozy__memory_write'], retired: filter })
    const clean = createPatternPolicy({ owner: 'session:sess-2', tools: ['notes__write'], retired: filter })
    expect(lines).toEqual([])
    createDispatcher({ tools: [writeTool([])], policy: intersectPolicies([clean, intersectPolicies([agent, again]), session]), logger })
    const warning = (owner: string, dropped_ids: string[]) => ({ level: 'warn', fields: { event: RETIRED_IDS_IGNORED, owner, dropped_ids }, message: RETIRED_IDS_IGNORED })
    expect(lines).toEqual([warning('agent:reviewer', ['compozy__memory_read']), warning('session:sess-1', ['compozy__memory_write'])])
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
})
