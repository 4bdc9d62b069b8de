import { setOwn } from '../json/clone.js'
import { escapePointerToken } from '../json/pointer.js'
import { ContractsError } from './contracts-error.js'
import { compareIds, lockOf, type ContractSource } from './sources.js'

/**
 * The superseded schema digest table (`docs/contracts.md` "Superseded digests"; `docs/loops.md`
 * "Pinning and migration"): for every tool that was a single-result tool in `before` and has views in
 * `after`, its old output's schema digest → its new full view's digest. Pass it to `runLoop` or
 * `migrateRunSnapshot` (`result-views/loop`) as `supersededDigests`, so a run pinned before the
 * tool gained views keeps running on the full record. A tool whose output schema did not change
 * maps its digest to itself, which is harmless.
 *
 * @param before - the lock (or catalog) the pinned runs were started against.
 * @param after - the current lock or catalog.
 * @returns a plain object, digest → digest (64 lowercase hex each), keys in tool-ID order.
 * @throws ContractsError (`contracts_invalid`) when a side is neither a lock nor a catalog, or when
 *   two tools had the same old output digest and now have different full digests (the table is
 *   keyed by digest alone, so it cannot say which applies: `/tools/<tool_id>`).
 */
export function supersededDigestTable(before: ContractSource, after: ContractSource): Record<string, string> {
  const old = lockOf(before, 'supersededDigestTable before')
  const now = lockOf(after, 'supersededDigestTable after')
  const table: Record<string, string> = {}
  const owner = new Map<string, string>()
  const problems = []
  for (const id of Object.keys(now.tools).sort(compareIds)) {
    const was = Object.hasOwn(old.tools, id) ? old.tools[id]! : undefined
    const is = now.tools[id]!
    if (was?.kind !== 'single' || is.kind !== 'viewed') continue
    const from = was.views.output.digest
    const to = is.views.full.digest
    const first = owner.get(from)
    if (first !== undefined && table[from] !== to) {
      problems.push({
        path: `/tools/${escapePointerToken(id)}`, code: 'superseded_digest_conflict',
        message: `tool ${JSON.stringify(id)} and tool ${JSON.stringify(first)} had the same output digest ${from} and now have different full digests; a digest table cannot map it to both`,
      })
      continue
    }
    owner.set(from, id)
    setOwn(table, from, to)
  }
  if (problems.length > 0) throw new ContractsError('supersededDigestTable', problems)
  return table
}
