import Type from 'typebox'
import { ToolError } from '../errors/tool-error.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { optionsTable, readOptions as readOptionsObject } from '../options/options.js'
import { defineTool } from '../tool/define.js'
import { ToolDefinitionError } from '../tool/tool-definition-error.js'
import type { ApprovalRequirement, SingleResultTool, ToolContext } from '../tool/types.js'
import type { ApprovalsApi } from './approvals-api.js'
import { approvalRequestInvalid, storeFailed } from './errors.js'
import type { ApprovalGrant } from './stores.js'

// The spec's management tools for managed agents (`<prefix>tool_approvals_set`, `_list`,
// `_revoke`): remembered decisions set, listed and revoked through a dispatcher's approvals API,
// always in the calling session's own workspace (`docs/approvals.md` "Management tools:
// `defineApprovalTools`").

/** The default prefix of the three tool IDs (the spec's host calls them `compozy__tool_approvals_*`). */
const DEFAULT_PREFIX = 'compozy__'
/** What a prefix may hold, so that every derived ID is a valid tool ID (`[A-Za-z0-9][A-Za-z0-9_.:-]*`, 128 characters in all). */
const PREFIX = /^(?:[A-Za-z0-9][A-Za-z0-9_.:-]{0,106})?$/
const API_METHODS = ['setGrant', 'listGrants', 'revokeGrant'] as const
/** Every key {@link ApprovalToolsOptions} knows; any other key is refused (`unknown_option`). */
const APPROVAL_TOOLS_OPTIONS = optionsTable(['approvals', 'prefix', 'setApproval', 'revokeApproval', 'toolsets'])

/** The part of `dispatcher.approvals` the management tools use. */
export type ApprovalGrantsApi = Pick<ApprovalsApi, 'setGrant' | 'listGrants' | 'revokeGrant'>

/** Options of {@link defineApprovalTools}. */
export interface ApprovalToolsOptions {
  /**
   * The grants API the tools work through: `dispatcher.approvals`, or a function returning it, read
   * on every call. The function is how the tools join the catalog of the very dispatcher whose
   * grants they manage (the dispatcher does not exist yet when its catalog is built):
   * `approvals: () => dispatcher.approvals`.
   */
  approvals: ApprovalGrantsApi | (() => ApprovalGrantsApi)
  /** Prefix of the three tool IDs: `<prefix>tool_approvals_set`, `_list`, `_revoke`. `''` or a tool ID start (letters, digits, `_.:-`, at most 107 characters). Default `'compozy__'`. */
  prefix?: string
  /** The approval requirement of the `_set` tool. Default `'required'`: an agent cannot grant itself an allow without a decision. */
  setApproval?: ApprovalRequirement
  /**
   * The approval requirement of the `_revoke` tool. Default `'required'`: revoking an operator's
   * `reject` would let a tool the policy allows run without anyone's decision, so an agent cannot
   * lift one by itself.
   */
  revokeApproval?: ApprovalRequirement
  /** Toolsets the three tools belong to. Default none. */
  toolsets?: readonly string[]
}

/** What the `_set` tool returns: the grant it stored. */
export interface ApprovalToolSetResult {
  /** The stored grant (`origin: 'management'`). */
  readonly grant: ApprovalGrant
}

/** What the `_list` tool returns: the grants of the call's workspace. */
export interface ApprovalToolListResult {
  /** Every remembered decision of the call's workspace (of one tool when `tool_id` was given). */
  readonly grants: readonly ApprovalGrant[]
}

/** What the `_revoke` tool returns. */
export interface ApprovalToolRevokeResult {
  /** Always `true`: a grant the workspace does not hold fails with `approval_not_found` / `unknown_grant`. */
  readonly revoked: true
  /** The revoked grant's ID. */
  readonly grant_id: string
}

const text = (description: string, options: object = {}) => Type.String({ minLength: 1, description, ...options })

/** A grant as the tools return it. Open, so a store's extra fields do not fail the output check. */
const GrantSchema = Type.Object({
  grant_id: Type.String(),
  workspace_id: Type.String(),
  tool_id: Type.String(),
  scope: Type.Enum(['exact', 'agent', 'tool'], { type: 'string' }),
  agent_name: Type.Optional(Type.String()),
  input_digest: Type.Optional(Type.String()),
  decision: Type.Enum(['allow', 'reject'], { type: 'string' }),
  origin: Type.Enum(['prompt', 'management'], { type: 'string' }),
  created_at: Type.String(),
})

const SetInput = Type.Object(
  {
    tool_id: text('The tool the decision is for: a tool this dispatcher has (any other ID fails tool_not_found).'),
    decision: Type.Enum(['allow', 'reject'], { type: 'string', description: 'allow skips the approval prompt where the policy asks for one; reject refuses the call.' }),
    scope: Type.Enum(['agent', 'tool'], { type: 'string', description: 'agent: one agent and tool, every input; tool: the tool, every agent and input of the workspace.' }),
    agent_name: Type.Optional(text('The agent, for scope "agent" (required there, forbidden for scope "tool").')),
  },
  { additionalProperties: false },
)
const ListInput = Type.Object({ tool_id: Type.Optional(text('Only the grants of this tool.')) }, { additionalProperties: false })
const RevokeInput = Type.Object({ grant_id: text('The grant to revoke (from the _set or _list tool).') }, { additionalProperties: false })

/**
 * The three management tools of remembered approval decisions that the spec names for managed
 * agents, as ready single-result tools (`docs/approvals.md` "Management tools:
 * `defineApprovalTools`"): `<prefix>tool_approvals_set` (`{ tool_id, decision, scope, agent_name? }`
 * → `{ grant }`), `<prefix>tool_approvals_list` (`{ tool_id? }` → `{ grants }`) and
 * `<prefix>tool_approvals_revoke` (`{ grant_id }` → `{ revoked: true, grant_id }`), in that order.
 *
 * They follow `setGrant`'s rules: never an input digest (the input schema has none, so
 * `input_digest` fails input validation), `agent_name` required for agent scope and forbidden for
 * tool scope (`approval_request_invalid` / `agent_name_required`, `agent_name_forbidden`). The
 * workspace is always the call's own `scope.workspace_id`, never an input field; a call without
 * one fails `approval_request_invalid` / `workspace_required`. Revoking a grant the workspace does
 * not hold fails `approval_not_found` / `unknown_grant`; a failing store, `approval_unavailable`
 * (also `store_failed` when a host's `revokeGrant` answers anything but a boolean).
 * `_set` (it overwrites a grant) has risk `'destructive'` and, by default, `approval: 'required'`
 * (`setApproval`); `_list` is read-only; `_revoke` (it deletes one) has risk `'destructive'` and,
 * by default, `approval: 'required'` (`revokeApproval`). Wire them to the dispatcher that serves them:
 *
 * ```ts
 * let dispatcher: Dispatcher
 * const approvalTools = defineApprovalTools({ approvals: () => dispatcher.approvals })
 * dispatcher = createDispatcher({ tools: [...tools, ...approvalTools] })
 * ```
 *
 * A function `approvals` that throws or returns no grants API fails the call with
 * `tool_execution_failed` / `handler_failed`.
 *
 * @returns `[set, list, revoke]`.
 * @throws ToolDefinitionError (`code: 'tool_definition_invalid'`) listing every bad option:
 *   `/approvals` (`invalid_approvals`), `/prefix` (`invalid_prefix`), `/setApproval` and
 *   `/revokeApproval` (`invalid_approval`), `/toolsets` (as `defineTool` checks them), and
 *   `/<key>` (`unknown_option`, naming the key it was likely meant to be) for any other key.
 */
export function defineApprovalTools(options: ApprovalToolsOptions): readonly [SingleResultTool, SingleResultTool, SingleResultTool] {
  const { approvals, prefix, setApproval, revokeApproval, toolsets } = readOptions(options)
  const api = (toolId: string): ApprovalGrantsApi => grantsApiOf(approvals, toolId)
  const shared = toolsets === undefined ? {} : { toolsets }
  const ids = { set: `${prefix}tool_approvals_set`, list: `${prefix}tool_approvals_list`, revoke: `${prefix}tool_approvals_revoke` }

  const set = defineTool({
    id: ids.set,
    description: "Remember an approval decision for a tool in this session's workspace: allow or reject, for one agent (scope agent) or every agent (scope tool). Never for one input.",
    input: SetInput,
    output: Type.Object({ grant: GrantSchema }, { additionalProperties: false }),
    // It replaces the grant with the same key (a reject can become an allow): it overwrites.
    risk: 'destructive',
    approval: setApproval,
    ...shared,
    handler: async (input, context): Promise<ApprovalToolSetResult> => {
      const workspace_id = workspaceOf(context)
      const request = { workspace_id, tool_id: input.tool_id, decision: input.decision, scope: input.scope, ...(input.agent_name === undefined ? {} : { agent_name: input.agent_name }) }
      return { grant: await api(ids.set).setGrant(request) }
    },
    preview: ({ grant }) => `${grant.decision} ${grant.tool_id} (${grant.scope === 'agent' ? `agent ${grant.agent_name}` : grant.scope})`,
  })
  const list = defineTool({
    id: ids.list,
    description: "List the remembered approval decisions of this session's workspace (every scope), optionally of one tool.",
    input: ListInput,
    output: Type.Object({ grants: Type.Array(GrantSchema) }, { additionalProperties: false }),
    risk: 'read',
    ...shared,
    handler: async (input, context) => {
      const workspace_id = workspaceOf(context)
      const grants = await api(ids.list).listGrants({ workspace_id, ...(input.tool_id === undefined ? {} : { tool_id: input.tool_id }) })
      // Not copied here: the dispatcher checks the record as plain JSON (holes included) before anything reads it.
      return { grants: grants as ApprovalGrant[] } satisfies ApprovalToolListResult
    },
    preview: ({ grants }) => `${grants.length} grant${grants.length === 1 ? '' : 's'}`,
  })
  const revoke = defineTool({
    id: ids.revoke,
    description: "Revoke one remembered approval decision of this session's workspace by its grant_id; the tool then asks again.",
    input: RevokeInput,
    output: Type.Object({ revoked: Type.Literal(true), grant_id: Type.String() }, { additionalProperties: false }),
    // It deletes a grant.
    risk: 'destructive',
    approval: revokeApproval,
    ...shared,
    handler: async (input, context): Promise<ApprovalToolRevokeResult> => {
      const workspace_id = workspaceOf(context)
      const revoked: unknown = await api(ids.revoke).revokeGrant({ workspace_id, grant_id: input.grant_id })
      // Only `true` says a grant was removed: any other answer of a host's API is a failing store.
      if (typeof revoked !== 'boolean') throw storeFailed('grants', 'delete', new TypeError('revokeGrant answered something that is not a boolean'))
      if (!revoked) throw grantNotFound(input.grant_id)
      return { revoked: true, grant_id: input.grant_id }
    },
    preview: ({ grant_id }) => `revoked ${grant_id}`,
  })
  return Object.freeze([set, list, revoke] as const)
}

/** The options, checked, with defaults. */
function readOptions(options: ApprovalToolsOptions): Required<Omit<ApprovalToolsOptions, 'toolsets'>> & Pick<ApprovalToolsOptions, 'toolsets'> {
  try {
    return checkedOptions(options)
  } catch (error) {
    if (error instanceof ToolDefinitionError) throw error
    // A getter or Proxy in the options (or in the approvals API) threw while it was read.
    throw new ToolDefinitionError(undefined, [{ path: '', code: 'unreadable_definition', message: `the options could not be read: ${error instanceof Error ? error.message : String(error)}` }])
  }
}

function checkedOptions(options: ApprovalToolsOptions): Required<Omit<ApprovalToolsOptions, 'toolsets'>> & Pick<ApprovalToolsOptions, 'toolsets'> {
  const problems: UsageProblem[] = []
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError(undefined, [{ path: '', code: 'invalid_option', message: 'defineApprovalTools takes { approvals, prefix?, setApproval?, revokeApproval?, toolsets? }' }])
  }
  // Each option read once by the options reader: a misspelt `setApproval: 'none'` is refused, never the default kept.
  const { approvals, prefix = DEFAULT_PREFIX, setApproval = 'required', revokeApproval = 'required', toolsets } = readOptionsObject(options, APPROVAL_TOOLS_OPTIONS, '', problems) as ApprovalToolsOptions
  const isApi = typeof approvals === 'object' && approvals !== null && API_METHODS.every((m) => typeof (approvals as unknown as Record<string, unknown>)[m] === 'function')
  if (typeof approvals !== 'function' && !isApi) {
    problems.push({ path: '/approvals', code: 'invalid_approvals', message: 'approvals must be a dispatcher\'s approvals API (setGrant, listGrants, revokeGrant) or a function returning it, e.g. () => dispatcher.approvals' })
  }
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
    problems.push({ path: '/prefix', code: 'invalid_prefix', message: 'prefix must be empty or start a tool ID: letters, digits, "_", ".", ":" or "-", starting with a letter or digit, at most 107 characters' })
  }
  if (setApproval !== 'required' && setApproval !== 'none') problems.push({ path: '/setApproval', code: 'invalid_approval', message: 'setApproval must be "required" or "none"' })
  if (revokeApproval !== 'required' && revokeApproval !== 'none') problems.push({ path: '/revokeApproval', code: 'invalid_approval', message: 'revokeApproval must be "required" or "none"' })
  if (problems.length > 0) throw new ToolDefinitionError(undefined, problems)
  return { approvals, prefix, setApproval, revokeApproval, toolsets }
}

/** The grants API for one call: the one given, or what the function returns now. */
function grantsApiOf(approvals: ApprovalToolsOptions['approvals'], toolId: string): ApprovalGrantsApi {
  let api: unknown
  try {
    api = typeof approvals === 'function' ? approvals() : approvals
    if (typeof api === 'object' && api !== null && API_METHODS.every((m) => typeof (api as Record<string, unknown>)[m] === 'function')) return api as ApprovalGrantsApi
  } catch (cause) {
    throw unwired(toolId, cause)
  }
  throw unwired(toolId)
}

function unwired(toolId: string, cause?: unknown): ToolError {
  const error = new ToolError({
    code: 'tool_execution_failed',
    reason: 'handler_failed',
    message: `tool ${JSON.stringify(toolId)} has no approvals API to work through: its approvals function ${cause === undefined ? 'returned something without setGrant, listGrants and revokeGrant' : 'threw'} (wire it as approvals: () => dispatcher.approvals)`,
  })
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, enumerable: false })
  return error
}

/** The call's own workspace; a call without one has no remembered decisions to manage. */
function workspaceOf(context: ToolContext): string {
  const workspace = context.scope.workspace_id
  if (typeof workspace !== 'string' || workspace.length === 0) {
    throw approvalRequestInvalid('workspace_required', `${context.tool_id} manages the remembered decisions of the call's workspace, and this call has no scope.workspace_id`)
  }
  return workspace
}

/** `approval_not_found` / `unknown_grant`: the workspace holds no grant with that ID. */
function grantNotFound(grantId: string): ToolError {
  const shown = grantId.length > 128 ? grantId.slice(0, 128) + '…' : grantId
  return new ToolError({ code: 'approval_not_found', reason: 'unknown_grant', message: `the workspace holds no grant ${JSON.stringify(shown)}` })
}
