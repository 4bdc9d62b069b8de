import type { SetGrantRequest } from 'result-views'
import { field, unknownKey, type RouteContext } from './context.js'
import { approvalFieldInvalid, requestInvalid, scopeForbidden, shown, unknownGrant } from './errors.js'
import { ok, type Reply } from './exchange.js'

/**
 * The fields a `PUT /tool-approval-grants` body may have: `{ tool_id, decision, scope, agent_name? }`
 * plus the workspace (`docs/http.md` "Remembered decisions"). `input_digest` is passed on so that
 * `setGrant` refuses it as it does in process (`input_digest_forbidden`), not as an unknown field.
 */
const GRANT_FIELDS = ['workspace_id', 'tool_id', 'decision', 'scope', 'agent_name', 'input_digest'] as const

/**
 * `PUT /tool-approval-grants[?workspace_id=]` with `{ workspace_id?, tool_id, decision: 'allow' |
 * 'reject', scope: 'agent' | 'tool', agent_name? }` (loopback or Unix socket only): `{ grant }`.
 * The workspace is the query parameter (as GET and DELETE take it), the body's `workspace_id`, or
 * both when they are equal; two that differ are `http_request_invalid` / `query_invalid` (400).
 * `agent_name` is required for agent scope and forbidden for tool scope (`approval_request_invalid`).
 */
export async function setGrant(context: RouteContext): Promise<Reply> {
  const extra = unknownKey(context.body, GRANT_FIELDS)
  if (extra !== undefined) throw approvalFieldInvalid(`the grant body has an unknown field ${shown(extra)} (known: ${GRANT_FIELDS.slice(0, -1).join(', ')})`)
  const request: Record<string, unknown> = {}
  for (const name of GRANT_FIELDS) {
    const value = field(context.body, name)
    if (value !== undefined) request[name] = value
  }
  const workspace = workspaceOf(context, bodyOrQueryWorkspace(request.workspace_id, context.query.get('workspace_id')))
  if (workspace !== undefined) request.workspace_id = workspace
  const grant = await context.dispatcher.approvals.setGrant(request as unknown as SetGrantRequest)
  return ok({ grant })
}

/** `GET /tool-approval-grants?workspace_id=[&tool_id=]`: `{ grants }`, every remembered decision of the workspace. */
export async function listGrants(context: RouteContext): Promise<Reply> {
  const toolId = context.query.get('tool_id')
  const grants = await context.dispatcher.approvals.listGrants({
    workspace_id: workspaceOf(context, context.query.get('workspace_id')) as string,
    ...(toolId === undefined ? {} : { tool_id: toolId }),
  })
  return ok({ grants })
}

/** `DELETE /tool-approval-grants/{grant_id}?workspace_id=` (loopback or Unix socket only): `{ revoked: true, grant_id }`; 404 `approval_not_found` / `unknown_grant`. */
export async function revokeGrant(context: RouteContext): Promise<Reply> {
  const grantId = context.params.grant_id!
  const revoked = await context.dispatcher.approvals.revokeGrant({ workspace_id: workspaceOf(context, context.query.get('workspace_id')) as string, grant_id: grantId })
  if (!revoked) throw unknownGrant(grantId)
  return ok({ revoked: true, grant_id: grantId })
}

/** The workspace a PUT names: in its query, its body, or both alike (`query_invalid` when they differ). */
function bodyOrQueryWorkspace(body: unknown, query: string | undefined): unknown {
  if (query === undefined) return body
  if (body !== undefined && body !== query) throw requestInvalid('query_invalid', 'query parameter "workspace_id" and the body\'s workspace_id differ: give one, or the same in both')
  return query
}

/** The workspace: the one the request names, or the one `authenticate` fixed (they must agree). Left to `dispatcher.approvals` to check. */
function workspaceOf(context: RouteContext, sent: unknown): unknown {
  const fixed = context.identity?.workspace_id
  if (fixed === undefined) return sent
  if (sent !== undefined && sent !== fixed) throw scopeForbidden('workspace_id')
  return fixed
}
