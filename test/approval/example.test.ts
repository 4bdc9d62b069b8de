import { afterEach, describe, expect, it, vi } from 'vitest'
import { approvals } from '../../examples/approvals.js'

afterEach(() => vi.restoreAllMocks())

describe('examples/approvals.ts', () => {
  it('mints, uses, refuses a replay, remembers, and resolves a pending approval', async () => {
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((text: unknown) => void printed.push(String(text)))
    await approvals()
    const out = printed.join('\n')
    for (const expected of [
      'with the token: ok (full)',
      'the same token again: approval_invalid/token_replayed',
      'a token for another agent: approval_invalid/token_mismatch',
      'same call with result_view full (no prompt): ok (full)',
      'agent reviewer, remembered reject: tool_denied/approval_rejected',
      'resolve by prof_other: approval_forbidden/profile_mismatch',
      'resolve by prof_default: status=approved execution_status=completed outcome=ok',
      'resolve again: approval_state/approval_resolved',
      'after reopening, a tool-scope allow: ok (compact)',
    ]) {
      expect(out).toContain(expected)
    }
    expect(out.match(/tools\.retired_ids_ignored \{/g)).toHaveLength(2)
  })
})
