import { afterEach, describe, expect, it, vi } from 'vitest'
import { aiSdk } from '../../examples/ai-sdk.js'

afterEach(() => vi.restoreAllMocks())

describe('examples/ai-sdk.ts', () => {
  it('reads compact then full, a typed error, a pending approval the host resolves, and an SDK-approved call', async () => {
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((text: unknown) => void printed.push(String(text)))
    await aiSdk()
    const out = printed.join('\n')
    for (const expected of [
      'model read (call-1): json, 603 bytes, 18 session fields',
      'model read (call-2): json, 1375 bytes, 22 session fields',
      'model read (call-3): error-text: tool_invalid_input (schema_invalid): tool "compozy__session_status" input "result_view" must be one of "compact", "full"',
      'Do not call it again to make it run: a new call opens a new approval',
      'execution_status=completed outcome=ok',
      'generateText stopped with: tool-approval-request for compozy__session_create (call-5)',
      'after approval, model read (call-5): json, ',
    ]) {
      expect(out).toContain(expected)
    }
  })
})
