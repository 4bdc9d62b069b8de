// Regression (break-it review): a tool that declares its own `sensitiveInputFields` stores its
// pending input redacted too, but only the call's `sensitive_input_fields` were looked at, so
// approving it from another process (no sealKey) still failed it for good (`approved / failed`,
// `record_invalid`) instead of leaving it pending with `input_held_elsewhere`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Type from 'typebox'
import { afterAll, describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { createSqliteApprovalStores } from 'result-views/sqlite'
import { SCOPE, approvalIdOf, rejectionOf } from './fixtures.js'

const dir = mkdtempSync(join(tmpdir(), 'rv-held-tool-fields-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const SECRET = 'vault://provider/token-7c1f'

function secretTool(runs: unknown[]) {
  return defineTool({
    id: 'vault__rotate',
    description: 'Rotate a credential.',
    approval: 'required',
    sensitiveInputFields: ['secret_ref'],
    input: Type.Object({ secret_ref: Type.String() }, { additionalProperties: false }),
    output: Type.Object({ rotated: Type.Boolean() }, { additionalProperties: false }),
    handler: (input) => {
      runs.push(input)
      return { rotated: true }
    },
  })
}

describe('a tool-declared sensitive field, approved from another process', () => {
  it('stays pending with approval_unavailable / input_held_elsewhere, and the opener still runs it once on the real input', async () => {
    const filename = join(dir, 'approvals.db')
    const runs = { opener: [] as unknown[], other: [] as unknown[] }
    const opener = createDispatcher({ tools: [secretTool(runs.opener)], approvals: createSqliteApprovalStores({ filename }) })
    const other = createDispatcher({ tools: [secretTool(runs.other)], approvals: createSqliteApprovalStores({ filename }) })
    const id = approvalIdOf(await opener.invoke({ tool_id: 'vault__rotate', input: { secret_ref: SECRET }, scope: SCOPE }))
    const approve = { decision: 'approved' as const, profile_id: SCOPE.profile_id }
    expect(await rejectionOf(other.approvals.resolve(id, approve))).toEqual(['approval_unavailable', 'input_held_elsewhere'])
    expect(await other.approvals.show(id, { profile_id: SCOPE.profile_id })).toMatchObject({ status: 'pending' })
    expect(runs.other).toEqual([])
    expect(await opener.approvals.resolve(id, approve)).toMatchObject({ status: 'approved', execution_status: 'completed' })
    expect(runs.opener).toEqual([{ secret_ref: SECRET }])
  })
})
