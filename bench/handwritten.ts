/**
 * The projection baselines: the compact session projections written by hand as directly as
 * JavaScript allows (object literals of the required fields, one `if` per optional field, a
 * plain loop for arrays; no helpers, no checks). That is the limit a library projector is
 * measured against, not equal work.
 *
 * test/bench/handwritten.test.ts checks that each returns exactly what the library's projector
 * returns (same keys in the same order, same values) on the fixtures and on generated valid full
 * records, so the baseline is honest.
 *
 * The two picks repeat their session fields on purpose: a helper shared by both would see the
 * records of both schemas at its property sites, which is the cost a direct pick does not have.
 */
type Rec = Record<string, any>

/** `{ session }` of the example schema (examples/tools/session-record.ts) → compact, by hand. */
export function handwrittenSessionProjection(full: Rec): Rec {
  const s = full.session
  const r = s.runtime
  const e = r.effective
  const effective: Rec = { provider: e.provider, model: e.model }
  if (e.reasoning_effort !== undefined) effective.reasoning_effort = e.reasoning_effort
  const runtime: Rec = { status: r.status, selection_revision: r.selection_revision, effective }
  if (r.generation !== undefined) runtime.generation = r.generation
  if (r.failure !== undefined) runtime.failure = { code: r.failure.code, message: r.failure.message }
  const items = s.pending_interactions
  const pending: Rec[] = []
  for (let i = 0; i < items.length; i++) {
    const p = items[i]
    const item: Rec = { session_id: p.session_id, interaction_id: p.interaction_id, kind: p.kind, title: p.title, status: p.status, created_at: p.created_at }
    if (p.provider_request_id !== undefined) item.provider_request_id = p.provider_request_id
    pending.push(item)
  }
  const pr = s.pull_request
  const out: Rec = {
    id: s.id,
    agent_name: s.agent_name,
    state: s.state,
    badge: s.badge,
    board_column: s.board_column,
    runtime,
    pending_interactions: pending,
    pull_request: pr === null ? null : { number: pr.number, url: pr.url, state: pr.state },
    archived_at: s.archived_at,
    created_at: s.created_at,
    updated_at: s.updated_at,
  }
  if (s.profile_id !== undefined) out.profile_id = s.profile_id
  if (s.name !== undefined) out.name = s.name
  if (s.type !== undefined) out.type = s.type
  if (s.workspace_id !== undefined) out.workspace_id = s.workspace_id
  if (s.worktree_id !== undefined) out.worktree_id = s.worktree_id
  if (s.branch !== undefined) out.branch = s.branch
  if (s.transcript_epoch !== undefined) out.transcript_epoch = s.transcript_epoch
  const l = s.lineage
  if (l !== undefined) {
    const lineage: Rec = { root_session_id: l.root_session_id }
    if (l.kind !== undefined) lineage.kind = l.kind
    if (l.parent_session_id !== undefined) lineage.parent_session_id = l.parent_session_id
    if (l.ttl_expires_at !== undefined) lineage.ttl_expires_at = l.ttl_expires_at
    const b = l.spawn_budget
    if (b !== undefined) lineage.spawn_budget = { max_depth: b.max_depth, max_children: b.max_children, remaining: b.remaining }
    out.lineage = lineage
  }
  if (s.attention !== undefined) out.attention = s.attention
  if (s.waiting_on !== undefined) out.waiting_on = s.waiting_on
  if (s.stop_reason !== undefined) out.stop_reason = s.stop_reason
  if (s.stop_detail !== undefined) out.stop_detail = s.stop_detail
  if (s.failure !== undefined) out.failure = { code: s.failure.code, message: s.failure.message }
  if (s.stop_cause !== undefined) out.stop_cause = s.stop_cause
  if (s.permission_mode_degraded !== undefined) out.permission_mode_degraded = s.permission_mode_degraded
  if (s.attention_dismissible !== undefined) out.attention_dismissible = s.attention_dismissible
  if (s.queue !== undefined) out.queue = { pending: s.queue.pending }
  const c = s.children
  if (c !== undefined) out.children = { total: c.total, active: c.active, waiting: c.waiting, stopped: c.stopped }
  const a = s.subagent_summary
  if (a !== undefined) out.subagent_summary = { total: a.total, running: a.running, completed: a.completed, failed: a.failed }
  const later = s.later
  if (later !== undefined) {
    const value: Rec = { set_at: later.set_at }
    if (later.until !== undefined) value.until = later.until
    out.later = value
  }
  return { session: out }
}

/** `{ session }` of the realistic schema (bench/fixtures/realistic-session-schema.ts) → compact, by hand. */
export function handwrittenRealisticProjection(full: Rec): Rec {
  const s = full.session
  const r = s.runtime
  const e = r.effective
  const effective: Rec = { provider: e.provider, model: e.model }
  if (e.reasoning_effort !== undefined) effective.reasoning_effort = e.reasoning_effort
  const runtime: Rec = { status: r.status, selection_revision: r.selection_revision, effective }
  if (r.generation !== undefined) runtime.generation = r.generation
  if (r.failure !== undefined) runtime.failure = { code: r.failure.code, message: r.failure.message }
  const items = s.pending_interactions
  const pending: Rec[] = []
  for (let i = 0; i < items.length; i++) {
    const p = items[i]
    const kind = p.kind
    if (kind === 'permission') {
      const item: Rec = { kind, session_id: p.session_id, interaction_id: p.interaction_id, title: p.title, status: p.status, created_at: p.created_at, tool_name: p.tool_name }
      if (p.provider_request_id !== undefined) item.provider_request_id = p.provider_request_id
      pending.push(item)
    } else if (kind === 'question') {
      pending.push({ kind, session_id: p.session_id, interaction_id: p.interaction_id, title: p.title, status: p.status, created_at: p.created_at, question: p.question })
    } else {
      pending.push({ kind, session_id: p.session_id, interaction_id: p.interaction_id, title: p.title, status: p.status, created_at: p.created_at, step_count: p.step_count })
    }
  }
  const pr = s.pull_request
  const out: Rec = {
    id: s.id,
    agent_name: s.agent_name,
    state: s.state,
    badge: s.badge,
    board_column: s.board_column,
    runtime,
    pending_interactions: pending,
    pull_request: pr === null ? null : { number: pr.number, url: pr.url, state: pr.state },
    archived_at: s.archived_at,
    created_at: s.created_at,
    updated_at: s.updated_at,
  }
  if (s.profile_id !== undefined) out.profile_id = s.profile_id
  if (s.name !== undefined) out.name = s.name
  if (s.type !== undefined) out.type = s.type
  if (s.workspace_id !== undefined) out.workspace_id = s.workspace_id
  if (s.worktree_id !== undefined) out.worktree_id = s.worktree_id
  if (s.branch !== undefined) out.branch = s.branch
  if (s.transcript_epoch !== undefined) out.transcript_epoch = s.transcript_epoch
  const l = s.lineage
  if (l !== undefined) {
    const lineage: Rec = { root_session_id: l.root_session_id }
    if (l.kind !== undefined) lineage.kind = l.kind
    if (l.parent_session_id !== undefined) lineage.parent_session_id = l.parent_session_id
    if (l.ttl_expires_at !== undefined) lineage.ttl_expires_at = l.ttl_expires_at
    const b = l.spawn_budget
    if (b !== undefined) lineage.spawn_budget = { max_depth: b.max_depth, max_children: b.max_children, remaining: b.remaining }
    out.lineage = lineage
  }
  if (s.attention !== undefined) out.attention = s.attention
  if (s.waiting_on !== undefined) out.waiting_on = s.waiting_on
  if (s.stop_reason !== undefined) out.stop_reason = s.stop_reason
  if (s.stop_detail !== undefined) out.stop_detail = s.stop_detail
  if (s.failure !== undefined) out.failure = { code: s.failure.code, message: s.failure.message }
  if (s.stop_cause !== undefined) out.stop_cause = s.stop_cause
  if (s.permission_mode_degraded !== undefined) out.permission_mode_degraded = s.permission_mode_degraded
  if (s.attention_dismissible !== undefined) out.attention_dismissible = s.attention_dismissible
  if (s.queue !== undefined) out.queue = { pending: s.queue.pending }
  const c = s.children
  if (c !== undefined) out.children = { total: c.total, active: c.active, waiting: c.waiting, stopped: c.stopped }
  const a = s.subagent_summary
  if (a !== undefined) out.subagent_summary = { total: a.total, running: a.running, completed: a.completed, failed: a.failed }
  const later = s.later
  if (later !== undefined) {
    const value: Rec = { set_at: later.set_at }
    if (later.until !== undefined) value.until = later.until
    out.later = value
  }
  return { session: out }
}
