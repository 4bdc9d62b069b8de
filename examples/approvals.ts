/**
 * Policy and approvals (spec 001 "Policy and Invocation"): a policy asks for approval on every
 * tool that is not read-only; a single-use token authorises one call and its replay is refused; a
 * prompt answer `allow_always` is remembered for the exact call; a pending approval is resolved
 * by the profile that created it; retired tool IDs are dropped from a policy with one warning; the
 * SQLite stores keep a grant across a reopen.
 *
 * Run alone: `npx tsx examples/approvals.ts` (or all examples: `npm run demo`).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  createDispatcher,
  createPatternPolicy,
  createRetiredIdFilter,
  intersectPolicies,
  type ApprovalPromptAnswer,
  type InvokeOutcome,
  type Logger,
} from 'result-views'
import { createSqliteApprovalStores } from 'result-views/sqlite'
import { exampleTools } from './tools/catalog.js'
import { heading, json, line } from './print.js'

const SCOPE = { workspace_id: 'ws_example', session_id: 'sess-example', agent_name: 'general', profile_id: 'prof_default' }

/** One line per outcome: `ok (view)`, `error code/reason: message`, or `approval_pending <id>`. */
function show(label: string, outcome: InvokeOutcome): void {
  if (outcome.status === 'ok') line(`${label}: ok${outcome.result_view ? ` (${outcome.result_view})` : ''}`)
  else if (outcome.status === 'error') line(`${label}: ${outcome.error.code}/${outcome.error.reason}: ${outcome.error.message}`)
  else line(`${label}: approval_pending ${outcome.approval_id}`)
}

const consoleLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (fields, message) => line(`warn ${message} ${json(fields)}`),
  error: (fields, message) => line(`error ${message} ${json(fields)}`),
}

export async function approvals(): Promise<void> {
  const retired = createRetiredIdFilter({ tools: ['compozy__memory_read', 'compozy__memory_write'], toolsets: ['memory'], logger: consoleLogger })

  heading('A policy built from data: workspace ∩ agent, with a retired ID dropped (one warning per owner)')
  const policy = intersectPolicies([
    createPatternPolicy({ owner: 'agent:workspace-default', toolsets: ['sessions', 'skills', 'memory'], approval: 'non_read_only', retired }),
    createPatternPolicy({ owner: 'agent:general', tools: ['compozy__*', 'compozy__memory_read'], deny_tools: ['compozy__session_spawn'], retired }),
  ])
  createPatternPolicy({ owner: 'agent:general', tools: ['compozy__memory_write'], retired }) // same owner: no second warning

  let answer: ApprovalPromptAnswer = 'allow_always'
  const prompted = createDispatcher({ tools: exampleTools(), policy, logger: consoleLogger, approvals: { prompt: (request) => (line(`prompt: ${request.tool.id} ${json(request.input)}`), answer) } })
  const dispatcher = createDispatcher({ tools: exampleTools(), policy, logger: consoleLogger })
  show('read-only compozy__session_status', await dispatcher.invoke({ tool_id: 'compozy__session_status', input: { session_id: 'sess-example' }, scope: SCOPE }))
  show('deny-listed compozy__session_spawn', await dispatcher.invoke({ tool_id: 'compozy__session_spawn', input: { agent_name: 'general', ttl_seconds: 60 }, scope: SCOPE }))

  heading('A single-use approval token: minted for the input without result_view, used once, replay refused')
  const { token, expires_at } = await dispatcher.approvals.mintApprovalToken({ tool_id: 'compozy__session_archive', scope: SCOPE, input: { session_id: 'sess-example' }, ttlMs: 60_000 })
  line(`minted a token (never printed, never stored: only its SHA-256 is) expiring at ${expires_at}`)
  const archive = { tool_id: 'compozy__session_archive', input: { session_id: 'sess-example', result_view: 'full' }, scope: SCOPE }
  show('with the token', await dispatcher.invoke({ ...archive, approval_token: token }))
  show('the same token again', await dispatcher.invoke({ ...archive, approval_token: token }))
  show('a token for another agent', await dispatcher.invoke({ ...archive, scope: { ...SCOPE, agent_name: 'reviewer' }, approval_token: (await dispatcher.approvals.mintApprovalToken({ tool_id: 'compozy__session_archive', scope: SCOPE, input: archive.input })).token }))

  heading('Remembered decisions: allow_always stores an exact grant; the same call later skips the prompt')
  const create = { tool_id: 'compozy__session_create', input: { agent_name: 'general', name: 'Fix flaky upload test' }, scope: SCOPE }
  show('first call (prompt answers allow_always)', await prompted.invoke(create))
  answer = 'reject_once'
  show('same call with result_view full (no prompt)', await prompted.invoke({ ...create, input: { ...create.input, result_view: 'full' } }))
  show('another input (prompt answers reject_once)', await prompted.invoke({ ...create, input: { agent_name: 'general', name: 'Other' } }))
  line(`grants: ${json((await prompted.approvals.listGrants({ workspace_id: 'ws_example' })).map(({ scope, decision, origin, agent_name }) => ({ scope, decision, origin, agent_name })))}`)
  await prompted.approvals.setGrant({ workspace_id: 'ws_example', tool_id: 'compozy__session_create', decision: 'reject', scope: 'agent', agent_name: 'reviewer' })
  show('agent reviewer, remembered reject', await prompted.invoke({ ...create, scope: { ...SCOPE, agent_name: 'reviewer' } }))

  heading('A pending approval: invoke returns approval_pending; only its profile resolves it; it runs once')
  const pending = await dispatcher.invoke({ tool_id: 'compozy__session_create', input: { agent_name: 'general', name: 'Later' }, scope: SCOPE })
  show('invoke', pending)
  if (pending.status !== 'approval_pending') return
  const shown = await dispatcher.approvals.show(pending.approval_id, { profile_id: 'prof_default' })
  line(`show: status=${shown.status} input=${json(shown.input)}`)
  await dispatcher.approvals.resolve(pending.approval_id, { decision: 'approved', profile_id: 'prof_other' }).catch((error: { code: string; reason: string }) => line(`resolve by prof_other: ${error.code}/${error.reason}`))
  const resolved = await dispatcher.approvals.resolve(pending.approval_id, { decision: 'approved', profile_id: 'prof_default' })
  line(`resolve by prof_default: status=${resolved.status} execution_status=${resolved.execution_status} outcome=${resolved.outcome?.status}`)
  await dispatcher.approvals.resolve(pending.approval_id, { decision: 'approved', profile_id: 'prof_default' }).catch((error: { code: string; reason: string }) => line(`resolve again: ${error.code}/${error.reason}`))

  heading('SQLite stores (result-views/sqlite): a grant survives closing and reopening the file')
  const dir = mkdtempSync(join(tmpdir(), 'result-views-example-'))
  try {
    const first = createSqliteApprovalStores({ filename: join(dir, 'approvals.db') })
    await createDispatcher({ tools: exampleTools(), policy, approvals: first }).approvals.setGrant({ workspace_id: 'ws_example', tool_id: 'compozy__session_create', decision: 'allow', scope: 'tool' })
    first.close()
    const reopened = createSqliteApprovalStores({ filename: join(dir, 'approvals.db') })
    show('after reopening, a tool-scope allow', await createDispatcher({ tools: exampleTools(), policy, approvals: reopened }).invoke(create))
    reopened.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await approvals()
