/**
 * The session record of spec 000 "Session record tools", as a compact and a full TypeBox schema.
 *
 * `compozy__session_status`, `compozy__session_create` and `compozy__session_archive` all return
 * `{ session: <record> }`. The compact view keeps identity, state, everything a caller must not
 * miss and the fences the follow-up tools take as input; the full view is the complete record:
 * the compact fields plus the permission policy, supervision, `runtime.acp_caps`,
 * `available_commands`, diagnostics, profile presentation and the rest.
 *
 * How the two schemas are built, so that compact is provably a subset of full:
 * - Every compact property schema is built once and reused in the full schema at the same path, so
 *   its type is identical there; where a full object differs it only adds optional properties
 *   (`viewPair`).
 * - Every compact object is closed (`additionalProperties: false`). The full record is open where
 *   it is a record that grows over time (the session, `runtime`, `lineage`, pending interactions,
 *   supervision, diagnostics, ACP capabilities, commands): "Full schemas can leave parts of a
 *   record open" (spec 000 "Discovering both contracts"). Small value objects (the effective
 *   selection, failures, summaries, the pull request, the permission policy, the profile) are
 *   closed in both views.
 * - Required in compact implies required in full. Full-only fields are optional, so a compact
 *   record is also a valid full record.
 * - The compact view has no union of objects (`pull_request` is an object or `null`), so no
 *   discriminator tag is needed.
 *
 * Which fields are optional, and why:
 * - Always present (required): `id`, `agent_name`, `state`, `badge`, `board_column`, `runtime`
 *   (`status`, `selection_revision`, `effective.provider`, `effective.model`),
 *   `pending_interactions`, `pull_request`, `archived_at`, `created_at`, `updated_at`. The spec
 *   says "always" for `pending_interactions`, `pull_request` and `runtime.selection_revision`;
 *   the others appear in both of its excerpts.
 * - Optional because the spec's permission-prompt excerpt omits them (it is an excerpt, and the
 *   spec does not call them "always"): `profile_id`, `name`, `type`, `workspace_id`, `lineage`.
 * - Optional by the spec's table ("Optional fields appear only when set"): `attention`,
 *   `waiting_on`, `stop_reason`, `stop_detail`, `failure`, `runtime.failure`, `worktree_id`,
 *   `branch`, `queue`, `children`, `subagent_summary`, `later`, and the preserved `stop_cause`,
 *   `permission_mode_degraded`, `attention_dismissible`.
 * - `runtime.generation` and `transcript_epoch` are omitted while 0, in both views, so when present
 *   they are at least 1 (callers pass 0 as the fence when they are absent).
 *
 * The spec names but does not shape `attention`, `waiting_on`, `stop_*`, `failure`, `queue`,
 * `children`, `subagent_summary`, `later`, `spawn_budget` and `pull_request`; the shapes below are
 * this example's choice and are documented on each schema.
 */
import Type, { type Static, type TSchema } from 'typebox'

/** An RFC 3339 timestamp, e.g. `2026-11-10T14:02:11Z`. */
export const Timestamp = Type.String({ format: 'date-time' })

/**
 * The session's lifecycle state. The spec shows `active`; `stopped` is the state of a session
 * that stopped or failed (`stop_reason`, `failure`). A closed list: consumers branch on it, which
 * is why adding a value is a breaking change of the output contract (`docs/contracts.md`).
 */
export const SessionState = Type.Enum(['active', 'stopped'])

const Count = Type.Integer({ minimum: 0 })
const Id = Type.String({ minLength: 1 })

/** The model selection the runtime applies (`runtime.effective`). Closed in both views. */
export const EffectiveSelection = Type.Object(
  {
    provider: Type.String(),
    model: Type.String(),
    reasoning_effort: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
)

/** Why a session or its runtime binding failed (`failure`, `runtime.failure`). Closed in both views. */
export const Failure = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
  },
  { additionalProperties: false },
)

/** The pull request associated with the session. Closed in both views. */
export const PullRequest = Type.Object(
  {
    number: Type.Integer({ minimum: 1 }),
    url: Type.String({ format: 'uri' }),
    state: Type.String(),
  },
  { additionalProperties: false },
)

/** Prompts queued for the session's next turns. */
export const QueueSummary = Type.Object({ pending: Count }, { additionalProperties: false })

/** The session's child sessions, counted by state. */
export const ChildrenSummary = Type.Object(
  { total: Count, active: Count, waiting: Count, stopped: Count },
  { additionalProperties: false },
)

/** The subagents the session ran, counted by outcome. */
export const SubagentSummary = Type.Object(
  { total: Count, running: Count, completed: Count, failed: Count },
  { additionalProperties: false },
)

/** The session is set aside for later: since when, and until when if a time was given. */
export const Later = Type.Object(
  { set_at: Timestamp, until: Type.Optional(Timestamp) },
  { additionalProperties: false },
)

/** How many more sessions this lineage may spawn (a limit the caller must not miss). */
export const SpawnBudget = Type.Object(
  { max_depth: Count, max_children: Count, remaining: Count },
  { additionalProperties: false },
)

/** What a session (or a spawned child) may use. Full view only; closed. */
export const PermissionPolicy = Type.Object(
  {
    tools: Type.Array(Type.String()),
    skills: Type.Array(Type.String()),
    mcp_servers: Type.Array(Type.String()),
    workspace_paths: Type.Array(Type.String()),
  },
  { additionalProperties: false },
)

/** How the session's profile is shown. Full view only; closed. */
export const ProfilePresentation = Type.Object(
  { display_name: Type.String(), color: Type.String(), icon: Type.String() },
  { additionalProperties: false },
)

/** One option of a permission prompt's option catalog. Full view only. */
export const InteractionOption = Type.Object({
  option_id: Type.String(),
  name: Type.String(),
  kind: Type.String(),
})

/** A slash command the bound agent advertises. Full view only. */
export const AvailableCommand = Type.Object({
  name: Type.String(),
  description: Type.String(),
  input_hint: Type.Optional(Type.String()),
})

/**
 * A record in both views: the compact object is closed; the full one has the same properties (the
 * same schema objects), adds the full-only ones and stays open. Full-only properties must be
 * optional so that a compact record is also a valid full record.
 */
function viewPair<P extends Record<string, TSchema>, E extends Record<string, TSchema>>(properties: P, fullOnly: E) {
  return {
    compact: Type.Object(properties, { additionalProperties: false }),
    full: Type.Object({ ...properties, ...fullOnly }),
  }
}

/** `runtime`: the binding of the session to its agent. */
export const Runtime = viewPair(
  {
    status: Type.String(),
    /** Omitted while 0 (until the session is first bound). */
    generation: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Always present, 0 included. */
    selection_revision: Count,
    effective: EffectiveSelection,
    failure: Type.Optional(Failure),
  },
  {
    /** The agent's ACP capabilities, as the agent reported them when bound. Open. */
    acp_caps: Type.Optional(Type.Object({})),
  },
)

/** `lineage`: where the session sits in its spawn tree; the permission policy is full only. */
export const Lineage = viewPair(
  {
    kind: Type.Optional(Type.String()),
    parent_session_id: Type.Optional(Id),
    root_session_id: Id,
    ttl_expires_at: Type.Optional(Timestamp),
    spawn_budget: Type.Optional(SpawnBudget),
  },
  { permission_policy: Type.Optional(PermissionPolicy) },
)

/** One item of `pending_interactions`; the option catalog is full only. */
export const PendingInteraction = viewPair(
  {
    session_id: Id,
    interaction_id: Id,
    kind: Type.String(),
    provider_request_id: Type.Optional(Type.String()),
    title: Type.String(),
    status: Type.String(),
    created_at: Timestamp,
  },
  { options: Type.Optional(Type.Array(InteractionOption)) },
)

/**
 * The session properties of one view, given that view's nested records (the pull request is
 * {@link PullRequest} in both views unless a part is given).
 */
export function sessionProperties<R extends TSchema, L extends TSchema, I extends TSchema, P extends TSchema = typeof PullRequest>(parts: {
  runtime: R
  lineage: L
  pendingInteraction: I
  pullRequest?: P
}) {
  return {
    id: Id,
    profile_id: Type.Optional(Id),
    name: Type.Optional(Type.String()),
    agent_name: Type.String(),
    type: Type.Optional(Type.String()),
    state: SessionState,
    badge: Type.String(),
    board_column: Type.String(),
    workspace_id: Type.Optional(Id),
    worktree_id: Type.Optional(Id),
    branch: Type.Optional(Type.String()),
    runtime: parts.runtime,
    /** Omitted while 0 (until the first clear or rewind). */
    transcript_epoch: Type.Optional(Type.Integer({ minimum: 1 })),
    lineage: Type.Optional(parts.lineage),
    /** Always present; empty when none. */
    pending_interactions: Type.Array(parts.pendingInteraction),
    /** Why the session needs the operator, e.g. `failure` or `permission`. */
    attention: Type.Optional(Type.String()),
    /** What the session waits on, e.g. `children` or `interaction`. */
    waiting_on: Type.Optional(Type.String()),
    stop_reason: Type.Optional(Type.String()),
    stop_detail: Type.Optional(Type.String()),
    failure: Type.Optional(Failure),
    stop_cause: Type.Optional(Type.String()),
    permission_mode_degraded: Type.Optional(Type.Boolean()),
    attention_dismissible: Type.Optional(Type.Boolean()),
    /** Always present; `null` when no pull request is associated. */
    pull_request: Type.Union([(parts.pullRequest ?? PullRequest) as P, Type.Null()]),
    queue: Type.Optional(QueueSummary),
    children: Type.Optional(ChildrenSummary),
    subagent_summary: Type.Optional(SubagentSummary),
    later: Type.Optional(Later),
    archived_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  }
}

/** The compact session record (closed at every level). */
export const CompactSessionRecord = Type.Object(
  sessionProperties({ runtime: Runtime.compact, lineage: Lineage.compact, pendingInteraction: PendingInteraction.compact }),
  { additionalProperties: false },
)
export type CompactSessionRecord = Static<typeof CompactSessionRecord>

/** The full session record: the compact fields plus the full-only ones; open where the record grows. */
export const FullSessionRecord = Type.Object({
  ...sessionProperties({ runtime: Runtime.full, lineage: Lineage.full, pendingInteraction: PendingInteraction.full }),
  /** Supervision internals. Open. */
  supervision: Type.Optional(Type.Object({})),
  available_commands: Type.Optional(Type.Array(AvailableCommand)),
  /** Diagnostic internals. Open. */
  diagnostics: Type.Optional(Type.Object({})),
  profile: Type.Optional(ProfilePresentation),
})
export type FullSessionRecord = Static<typeof FullSessionRecord>

/** The compact result of the session record tools: `{ session }`, closed (spec 000 descriptor). */
export const CompactSessionResult = Type.Object({ session: CompactSessionRecord }, { additionalProperties: false })
export type CompactSessionResult = Static<typeof CompactSessionResult>

/** The full result of the session record tools: `{ session }`, closed at the top (spec 000 descriptor). */
export const FullSessionResult = Type.Object({ session: FullSessionRecord }, { additionalProperties: false })
export type FullSessionResult = Static<typeof FullSessionResult>

/** The `output` of a session record tool definition. */
export const sessionResultViews = { compact: CompactSessionResult, full: FullSessionResult }
