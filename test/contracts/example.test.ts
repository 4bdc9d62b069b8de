import { afterEach, describe, expect, it, vi } from 'vitest'
import { contracts } from '../../examples/contracts.js'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('examples/contracts.ts', () => {
  it('locks the catalog, fails the careless release with its table and note, and runs a pre-view Loop on the superseded table', async () => {
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')))
    await contracts()
    const out = printed.join('\n')
    expect(out).toMatch(/exit 0: wrote .*tool-contracts\.lock\.json: 7 tool contracts, 1 with a compact budget/)
    expect(out).toContain('exit 0: No contract drifted.')
    expect(out).toContain('exit 1\ntool ')
    expect(out).toMatch(/compozy__session_status\s+compact\s+breaking\s+session\.runtime\.generation\s+field_removed/)
    expect(out).toMatch(/compozy__session_status\s+compact\s+breaking\s+session\.state\s+enum_grown: the new schema allows "paused"/)
    expect(out).toContain('Fields moved to the full view:\n\n- `session.runtime.generation`')
    expect(out).toContain('compozy__session_status (gained_views): moved to full session.available_commands, session.diagnostics, session.lineage.permission_policy')
    expect(out).toMatch(/without the table: loop_contract_stale/)
    expect(out).toMatch(/with supersededDigests: run ok; pin \{"tool_id":"compozy__session_status","result_view":"full"/)
    expect(out).toMatch(/total\s+4376\s+\d+\s+8494\s+\d+\s+\d+ %/)
  })
})
