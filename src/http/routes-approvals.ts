import { createHash } from 'node:crypto'
import type { ApprovalStatus, ListPendingRequest, ResolveApprovalRequest } from 'result-views'
import { field, unknownKey, type RouteContext } from './context.js'
import { approvalFieldInvalid, requestInvalid, scopeForbidden, shown } from './errors.js'
import { ok, type Reply } from './exchange.js'
import { approvalBody } from './reply.js'
import { replyText } from './write.js'

/** Smallest and largest `preview` of the list route, in characters. */
const PREVIEW_MIN = 64
const PREVIEW_MAX = 1_048_576

/**
 * `GET /tools/approvals?profile=[&workspace_id=][&status=pending,approved][&limit=][&preview=]`:
 * `{ approvals }`, the approvals the profile owns, newest first (`dispatcher.approvals.listPending`).
 * `status` is a comma-separated list; `limit` an integer from 1 to 1000 (default 100); `preview`
 * an integer from 64 to 1048576: an approval whose input's JSON text is longer than that many
 * characters (UTF-16 code units) comes with `input_preview` (the text's first characters, never a
 * half surrogate pair) and `input_length` (the whole text's length) instead of `input`; the whole
 * input is `GET /tools/approvals/{approval_id}` (`docs/http.md` "Pending approvals"). The answer
 * has an `ETag`; a request whose `If-None-Match` names it is answered 304 with no body.
 */
export async function listApprovals(context: RouteContext): Promise<Reply> {
  const request: ListPendingRequest = { profile_id: profileOf(context) }
  const workspace = workspaceOf(context)
  if (workspace !== undefined) request.workspace_id = workspace
  const status = context.query.get('status')
  if (status !== undefined) request.status = status.split(',') as ApprovalStatus[]
  const limit = context.query.get('limit')
  if (limit !== undefined) {
    if (!/^[0-9]{1,4}$/.test(limit)) throw requestInvalid('query_invalid', 'query parameter "limit" must be an integer from 1 to 1000')
    request.limit = Number(limit)
  }
  const preview = context.query.get('preview')
  if (preview !== undefined && (!/^[0-9]{1,7}$/.test(preview) || Number(preview) < PREVIEW_MIN || Number(preview) > PREVIEW_MAX)) {
    throw requestInvalid('query_invalid', `query parameter "preview" must be an integer from ${PREVIEW_MIN} to ${PREVIEW_MAX}`)
  }
  const views = await context.dispatcher.approvals.listPending(request)
  const bodies = views.map(approvalBody)
  const answer = { approvals: preview === undefined ? bodies : bodies.map((body) => previewed(body, Number(preview))) }
  // An unchanged list is answered 304 to the ETag the client last got (the console polls with it).
  const etag = `"${createHash('sha256').update(replyText({ status: 200, body: answer })).digest('base64url').slice(0, 27)}"`
  if (context.ifNoneMatch !== undefined && context.ifNoneMatch.split(',').some((tag) => matchesWeakly(tag.trim(), etag))) return { status: 304, body: undefined, etag }
  return { ...ok(answer), etag }
}

/** A list entry with its input cut to `chars` characters of JSON text, when it is longer. */
function previewed(body: Record<string, unknown>, chars: number): Record<string, unknown> {
  const text = JSON.stringify(body.input) ?? 'null'
  if (text.length <= chars) return body
  let cut = text.slice(0, chars)
  const last = cut.charCodeAt(cut.length - 1)
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1)
  const { input: _input, ...rest } = body
  return { ...rest, input_preview: cut, input_length: text.length }
}

/** The workspace filter: the query's `workspace_id`, or the one `authenticate` fixed (they must agree). */
function workspaceOf(context: RouteContext): string | undefined {
  const asked = context.query.get('workspace_id')
  const fixed = context.identity?.workspace_id
  if (fixed === undefined) return asked
  if (asked !== undefined && asked !== fixed) throw scopeForbidden('workspace_id')
  return fixed
}

/** `GET /tools/approvals/{approval_id}?profile=`: `{ approval }`, shown to the profile that created it. */
export async function showApproval(context: RouteContext): Promise<Reply> {
  const view = await context.dispatcher.approvals.show(context.params.approval_id!, { profile_id: profileOf(context) })
  return ok({ approval: approvalBody(view) })
}

/**
 * `POST /tools/approvals/{approval_id}/resolve?profile=` with `{ decision: 'approved' | 'denied',
 * wait? }` (loopback or Unix socket only): `{ approval }` after the decision; with `approved`
 * (and `wait` not `false`) once the call has run; a call run with telemetry answers the
 * `traceparent` (and `tracestate`) of its span (`docs/telemetry.md` "Propagation").
 */
export async function resolveApproval(context: RouteContext): Promise<Reply> {
  refuseUnknown(context, ['decision', 'wait'])
  const request = { decision: field(context.body, 'decision'), profile_id: profileOf(context) } as ResolveApprovalRequest
  const wait = field(context.body, 'wait')
  if (wait !== undefined) request.wait = wait as boolean
  const view = await context.dispatcher.approvals.resolve(context.params.approval_id!, request)
  const reply = ok({ approval: approvalBody(view) })
  // An approved call that ran on a dispatcher with telemetry: the reply's `traceparent` names its span.
  const trace = view.outcome?.trace_context
  return trace === undefined ? reply : { ...reply, trace }
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

/** `If-None-Match` compares weakly (RFC 9110 section 13.1.2): `W/"x"` matches `"x"`, and `*` matches any list. */
function matchesWeakly(tag: string, etag: string): boolean {
  return tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === etag
}
