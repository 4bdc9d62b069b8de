// Without a sealKey, resolving (approved) a pending approval whose input has sensitive fields from
// another process answered `approved / failed` (`approval_unavailable` / `record_invalid`) and the
// approval was gone for good, while an unknown seal key left it pending. A resolution that cannot
// run where it was asked now leaves the approval pending and says why (`approval_unavailable` /
// `input_held_elsewhere`); the process that holds the input still resolves it. Two dispatchers on
// one SQLite file stand for two processes of a host, each with its own store instances.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createSqliteApprovalStores } from 'result-views/sqlite'
import { SCOPE, approvalIdOf, deployTool, rejectionOf } from './fixtures.js'

const dir = mkdtempSync(join(tmpdir(), 'rv-held-elsewhere-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0

const SECRET = 'pw-held-elsewhere-7c1f'
const secretCall = { tool_id: 'ops__deploy', input: { target: 'prod', note: SECRET }, scope: SCOPE, sensitive_input_fields: ['note'] }
const approve = { decision: 'approved' as const, profile_id: SCOPE.profile_id }
const owner = { profile_id: SCOPE.profile_id }

/** Two processes of a host: each its own dispatcher and its own stores on one SQLite file. */
function twoProcesses() {
  const filename = join(dir, `approvals-${++files}.db`)
  const runs = { opener: [] as unknown[], other: [] as unknown[] }
  const opener = createDispatcher({ tools: [deployTool(runs.opener)], approvals: createSqliteApprovalStores({ filename }) })
  const other = createDispatcher({ tools: [deployTool(runs.other)], approvals: createSqliteApprovalStores({ filename }) })
  return { opener, other, runs }
}

describe('resolving where the real input is not held', () => {
  it('leaves the approval pending with approval_unavailable / input_held_elsewhere, and the opener still runs it once', async () => {
    const { opener, other, runs } = twoProcesses()
    const id = approvalIdOf(await opener.invoke(secretCall))
    expect(await rejectionOf(other.approvals.resolve(id, approve))).toEqual(['approval_unavailable', 'input_held_elsewhere'])
    expect(await other.approvals.show(id, owner)).toMatchObject({ status: 'pending' })
    expect(runs.other).toEqual([])
    expect(await opener.approvals.resolve(id, approve)).toMatchObject({ status: 'approved', execution_status: 'completed' })
    expect(runs.opener).toEqual([{ target: 'prod', note: SECRET }])
  })

  it('says in its message where to resolve it and how to resolve it anywhere, without the secret', async () => {
    const { opener, other } = twoProcesses()
    const id = approvalIdOf(await opener.invoke(secretCall))
    const error = (await other.approvals.resolve(id, approve).catch((e: unknown) => e)) as Error
    expect(error.message).toMatch(/process that opened it/)
    expect(error.message).toMatch(/sealKey/)
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(SECRET)
  })

  it('can still be denied or canceled from the other process', async () => {
    const { opener, other } = twoProcesses()
    const denied = approvalIdOf(await opener.invoke(secretCall))
    expect(await other.approvals.resolve(denied, { decision: 'denied', profile_id: SCOPE.profile_id })).toMatchObject({ status: 'denied' })
    const canceled = approvalIdOf(await opener.invoke(secretCall))
    expect(await other.approvals.cancel(canceled, owner)).toMatchObject({ status: 'canceled' })
  })

  it('runs from the other process when the stored input is the real one (sensitive fields named but absent)', async () => {
    const { opener, other, runs } = twoProcesses()
    const id = approvalIdOf(await opener.invoke({ ...secretCall, input: { target: 'prod' } }))
    expect(await other.approvals.resolve(id, approve)).toMatchObject({ execution_status: 'completed' })
    expect(runs.other).toEqual([{ target: 'prod' }])
  })
})
