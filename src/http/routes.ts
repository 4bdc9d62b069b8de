import type { RouteRun } from './context.js'
import type { RouteSpec } from './router.js'
import { cancelApproval, listApprovals, resolveApproval, showApproval } from './routes-approvals.js'
import { consoleAsset, consolePage } from './routes-console.js'
import { listGrants, revokeGrant, setGrant } from './routes-grants.js'
import { continueResultRoute, invokeTool, listTools, SCOPE_QUERY, searchTools, toolInfo } from './routes-tools.js'

/** Every route under the base path (`docs/http.md` "Routes"), as data. */
export const ROUTES: readonly RouteSpec<RouteRun>[] = Object.freeze([
  { method: 'GET', path: ['tools'], query: SCOPE_QUERY, body: 'none', localOnly: false, run: listTools },
  { method: 'GET', path: ['tools', 'search'], query: ['q', ...SCOPE_QUERY], body: 'none', localOnly: false, run: searchTools },
  { method: 'GET', path: ['tools', ':tool_id'], query: SCOPE_QUERY, body: 'none', localOnly: false, run: toolInfo },
  { method: 'POST', path: ['tools', ':tool_id', 'invoke'], query: [], body: 'required', localOnly: false, run: invokeTool },
  { method: 'POST', path: ['results', 'continue'], query: [], body: 'required', localOnly: false, run: continueResultRoute },
  { method: 'GET', path: ['tools', 'approvals'], query: ['profile', 'workspace_id', 'status', 'limit', 'preview'], body: 'none', localOnly: false, run: listApprovals },
  { method: 'GET', path: ['tools', 'approvals', ':approval_id'], query: ['profile'], body: 'none', localOnly: false, run: showApproval },
  { method: 'POST', path: ['tools', 'approvals', ':approval_id', 'resolve'], query: ['profile'], body: 'required', localOnly: true, run: resolveApproval },
  { method: 'POST', path: ['tools', 'approvals', ':approval_id', 'cancel'], query: ['profile'], body: 'optional', localOnly: true, run: cancelApproval },
  { method: 'PUT', path: ['tool-approval-grants'], query: ['workspace_id'], body: 'required', localOnly: true, run: setGrant },
  { method: 'GET', path: ['tool-approval-grants'], query: ['workspace_id', 'tool_id'], body: 'none', localOnly: false, run: listGrants },
  { method: 'DELETE', path: ['tool-approval-grants', ':grant_id'], query: ['workspace_id'], body: 'none', localOnly: true, run: revokeGrant },
] as const satisfies readonly RouteSpec<RouteRun>[])

/** The routes with the approvals console (`console: true`, `docs/console.md`): its page and its two assets, then every route above. */
export const CONSOLE_ROUTES: readonly RouteSpec<RouteRun>[] = Object.freeze([
  { method: 'GET', path: ['console'], query: ['profile', 'workspace_id'], body: 'none', localOnly: false, run: consolePage },
  { method: 'GET', path: ['console', ':asset'], query: [], body: 'none', localOnly: false, run: consoleAsset },
  ...ROUTES,
] as const satisfies readonly RouteSpec<RouteRun>[])
