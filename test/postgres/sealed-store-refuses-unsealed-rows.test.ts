// A continuation store with a sealKey read rows without a seal (key_id, iv, tag NULL, body in
// clear) as parts: a row planted in the table, or kept by an instance started without the key,
// was served as the tool's result, and the misconfigured instance went unnoticed. With a sealKey,
// a part without a seal is now continuation_unavailable / seal_invalid.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createPostgresContinuationStore, migrate } from 'result-views/postgres'
import { useTestDatabase } from './support/database.js'

const db = useTestDatabase('unsealed_rows')
const SCOPE = JSON.stringify({ workspace_id: 'ws-1' })
const result = { scope_key: SCOPE, tool_id: 'docs__dump', total_bytes: 20, parts: [{ start: 10, part: 2, bytes_from: 10, text: '{"planted":true}' }] }

describe('a sealed continuation store', () => {
  it('refuses a part kept unsealed by an instance without the key: continuation_unavailable / seal_invalid', async () => {
    const tablePrefix = 'unsealed1_'
    await migrate({ pool: db.pool, tablePrefix })
    const unsealed = createPostgresContinuationStore({ pool: db.pool, tablePrefix })
    const sealed = createPostgresContinuationStore({ pool: db.pool, tablePrefix, sealKey: randomBytes(32) })
    const now = Date.now()
    const id = await unsealed.put(result, now)
    expect(await unsealed.read(id!, 10, SCOPE, now)).toMatchObject({ kind: 'found', part: { text: '{"planted":true}' } })
    await expect(sealed.read(id!, 10, SCOPE, now)).rejects.toMatchObject({ code: 'continuation_unavailable', reason: 'seal_invalid' })
  })

  it('refuses a sealed row whose seal columns were cleared to NULL (a downgrade): seal_invalid, never the body as text', async () => {
    const tablePrefix = 'unsealed2_'
    await migrate({ pool: db.pool, tablePrefix })
    const sealed = createPostgresContinuationStore({ pool: db.pool, tablePrefix, sealKey: randomBytes(32) })
    const now = Date.now()
    const id = await sealed.put(result, now)
    expect(await sealed.read(id!, 10, SCOPE, now)).toMatchObject({ kind: 'found', part: { text: '{"planted":true}' } })
    await db.pool.query(`UPDATE "${tablePrefix}continuation_parts" SET key_id = NULL, iv = NULL, tag = NULL, body = convert_to('{"planted":"evil"}', 'UTF8')`)
    await expect(sealed.read(id!, 10, SCOPE, now)).rejects.toMatchObject({ code: 'continuation_unavailable', reason: 'seal_invalid' })
  })
})
