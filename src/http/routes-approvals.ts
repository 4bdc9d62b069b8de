import type { ResolveApprovalRequest } from 'result-views'
import { field, unknownKey, type RouteContext } from './context.js'
import { approvalFieldInvalid, requestInvalid, scopeForbidden, shown } from './errors.js'
import { ok, type Reply } from './exchange.js'
import { approvalBody } from './reply.js'

/** `GET /tools/approvals/{approval_id}?profile=`: `{ approval }`, shown to the profile that created it. */
export async function showApproval(context: RouteContext): Promise<Reply> {
  const view = await context.dispatcher.approvals.show(context.params.approval_id!, { profile_id: profileOf(context) })
  return ok({ approval: approvalBody(view) })
}

/**
 * `POST /tools/approvals/{approval_id}/resolve?profile=` with `{ decision: 'approved' | 'denied',
 * wait? }` (loopback or Unix socket only): `{ approval }` after the decision; with `approved`
 * (and `wait` not `false`) once the call has run.
 */
export async function resolveApproval(context: RouteContext): Promise<Reply> {
  refuseUnknown(context, ['decision', 'wait'])
  const request = { decision: field(context.body, 'decision'), profile_id: profileOf(context) } as ResolveApprovalRequest
  const wait = field(context.body, 'wait')
  if (wait !== undefined) request.wait = wait as boolean
  const view = await context.dispatcher.approvals.resolve(context.params.approval_id!, request)
  return ok({ approval: approvalBody(view) })
}

/** `POST /tools/approvals/{approval_id}/cancel?profile=` with no body or `{}` (loopback or Unix socket only): `{ approval }`. */
export async function cancelApproval(context: RouteContext): Promise<Reply> {
  refuseUnknown(context, [])
  const view = await context.dispatcher.approvals.cancel(context.params.approval_id!, { profile_id: profileOf(context) })
  return ok({ approval: approvalBody(view) })
}

/** The owner profile: the `profile` query parameter, or the one `authenticate` fixed (they must agree). */
function profileOf(context: RouteContext): string {
  const asked = context.query.get('profile')
  const fixed = context.identity?.profile_id
  if (fixed !== undefined) {
    if (asked !== undefined && asked !== fixed) throw scopeForbidden('profile_id')
    return fixed
  }
  if (asked === undefined) throw requestInvalid('query_invalid', 'query parameter "profile" (the profile that created the approval) is required')
  return asked
}

function refuseUnknown(context: RouteContext, known: readonly string[]): void {
  const extra = unknownKey(context.body, known)
  if (extra !== undefined) {
    throw approvalFieldInvalid(`the request body has an unknown field ${shown(extra)}${known.length === 0 ? ' (this route takes none)' : ` (known: ${known.join(', ')})`}`)
  }
}
