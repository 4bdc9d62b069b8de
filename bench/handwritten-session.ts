/**
 * The projector's baseline: the compact session projection written by hand, field by field, with
 * the same contract as the compiled projector (exactly the fields CompactSessionResult declares, at
 * every depth; an absent optional field stays absent). test/bench/handwritten-session.test.ts
 * checks it returns what the library's projector returns on every session fixture, so the bench
 * compares equal work.
 */
type Rec = Record<string, any>

const opt = (out: Rec, key: string, value: unknown): void => {
  if (value !== undefined) out[key] = value
}

function effective(e: Rec): Rec {
  const out: Rec = { provider: e.provider, model: e.model }
  opt(out, 'reasoning_effort', e.reasoning_effort)
  return out
}

function failure(f: Rec | undefined): Rec | undefined {
  return f === undefined ? undefined : { code: f.code, message: f.message }
}

function runtime(r: Rec): Rec {
  const out: Rec = { status: r.status, selection_revision: r.selection_revision, effective: effective(r.effective) }
  opt(out, 'generation', r.generation)
  opt(out, 'failure', failure(r.failure))
  return out
}

function lineage(l: Rec | undefined): Rec | undefined {
  if (l === undefined) return undefined
  const out: Rec = { root_session_id: l.root_session_id }
  opt(out, 'kind', l.kind)
  opt(out, 'parent_session_id', l.parent_session_id)
  opt(out, 'ttl_expires_at', l.ttl_expires_at)
  const b = l.spawn_budget
  if (b !== undefined) out.spawn_budget = { max_depth: b.max_depth, max_children: b.max_children, remaining: b.remaining }
  return out
}

function interaction(p: Rec): Rec {
  const out: Rec = { session_id: p.session_id, interaction_id: p.interaction_id, kind: p.kind, title: p.title, status: p.status, created_at: p.created_at }
  opt(out, 'provider_request_id', p.provider_request_id)
  return out
}

/** `{ session }` full record → compact record, by hand. */
export function handwrittenSessionProjection(full: Rec): Rec {
  const s = full.session
  const out: Rec = {
    id: s.id,
    agent_name: s.agent_name,
    state: s.state,
    badge: s.badge,
    board_column: s.board_column,
    runtime: runtime(s.runtime),
    pending_interactions: s.pending_interactions.map(interaction),
    pull_request: s.pull_request === null ? null : { number: s.pull_request.number, url: s.pull_request.url, state: s.pull_request.state },
    archived_at: s.archived_at,
    created_at: s.created_at,
    updated_at: s.updated_at,
  }
  opt(out, 'profile_id', s.profile_id)
  opt(out, 'name', s.name)
  opt(out, 'type', s.type)
  opt(out, 'workspace_id', s.workspace_id)
  opt(out, 'worktree_id', s.worktree_id)
  opt(out, 'branch', s.branch)
  opt(out, 'transcript_epoch', s.transcript_epoch)
  opt(out, 'lineage', lineage(s.lineage))
  opt(out, 'attention', s.attention)
  opt(out, 'waiting_on', s.waiting_on)
  opt(out, 'stop_reason', s.stop_reason)
  opt(out, 'stop_detail', s.stop_detail)
  opt(out, 'failure', failure(s.failure))
  opt(out, 'stop_cause', s.stop_cause)
  opt(out, 'permission_mode_degraded', s.permission_mode_degraded)
  opt(out, 'attention_dismissible', s.attention_dismissible)
  if (s.queue !== undefined) out.queue = { pending: s.queue.pending }
  const c = s.children
  if (c !== undefined) out.children = { total: c.total, active: c.active, waiting: c.waiting, stopped: c.stopped }
  const a = s.subagent_summary
  if (a !== undefined) out.subagent_summary = { total: a.total, running: a.running, completed: a.completed, failed: a.failed }
  if (s.later !== undefined) {
    const later: Rec = { set_at: s.later.set_at }
    opt(later, 'until', s.later.until)
    out.later = later
  }
  return { session: out }
}
