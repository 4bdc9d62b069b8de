import { isRecord } from '../json/guards.js'

/**
 * What a route's successful (200) answer must hold for the command to trust it: `undefined` when
 * it fits, else what is wrong (for `cli_target_unavailable` / `response_invalid`, `docs/cli.md`
 * "Exit codes"). Checks only what the command reads or promises to print; more fields pass.
 */
export type AnswerShape = (body: Record<string, unknown>) => string | undefined

/** `{ tools: [descriptor] }`: `GET /tools`. */
export const toolsAnswer: AnswerShape = (body) => listOf(body, 'tools', 'tool_id')

/** `{ tool: { descriptor, diagnostics? } }`: `GET /tools/{tool_id}`. */
export const toolAnswer: AnswerShape = (body) => {
  if (!isRecord(body.tool)) return 'no "tool" object'
  if (!isRecord(body.tool.descriptor) || typeof body.tool.descriptor.tool_id !== 'string') return 'no "tool.descriptor" with a string "tool_id"'
  return optionalRecord(body.tool.diagnostics, 'tool.diagnostics')
}

/** `{ result: { structured, preview }, result_view? }`: `POST /tools/{tool_id}/invoke`. */
export const invokeAnswer: AnswerShape = (body) => {
  if (!isRecord(body.result) || !Object.hasOwn(body.result, 'structured')) return 'no "result" object with "structured"'
  if (typeof body.result.preview !== 'string') return '"result.preview" is not a string'
  if (body.result_view !== undefined && typeof body.result_view !== 'string') return '"result_view" is not a string'
  return undefined
}

/** `{ approval }`: `GET /tools/approvals/{id}`, `POST …/resolve`, `POST …/cancel`. */
export const approvalAnswer: AnswerShape = (body) =>
  isRecord(body.approval) && typeof body.approval.approval_id === 'string' && typeof body.approval.status === 'string'
    ? undefined
    : 'no "approval" object with a string "approval_id" and "status"'

/** `{ grant }`: `PUT /tool-approval-grants`. */
export const grantAnswer: AnswerShape = (body) => (isRecord(body.grant) && typeof body.grant.grant_id === 'string' ? undefined : 'no "grant" object with a string "grant_id"')

/** `{ grants: [grant] }`: `GET /tool-approval-grants`. */
export const grantsAnswer: AnswerShape = (body) => listOf(body, 'grants', 'grant_id')

/** `{ revoked: true, grant_id }` for the grant asked: `DELETE /tool-approval-grants/{grant_id}`. */
export function revokedAnswer(grantId: string): AnswerShape {
  return (body) => (body.revoked === true && body.grant_id === grantId ? undefined : `not {"revoked":true} for grant ${JSON.stringify(grantId)}`)
}

/** `name` is an array of objects, each with a string `id`. */
function listOf(body: Record<string, unknown>, name: string, id: string): string | undefined {
  const list = body[name]
  if (!Array.isArray(list)) return `no "${name}" array`
  const bad = list.findIndex((item) => !isRecord(item) || typeof item[id] !== 'string')
  return bad === -1 ? undefined : `/${name}/${bad} is not an object with a string "${id}"`
}

function optionalRecord(value: unknown, name: string): string | undefined {
  return value === undefined || isRecord(value) ? undefined : `"${name}" is not an object`
}
