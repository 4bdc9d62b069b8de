/**
 * A deterministic synthetic tool catalog shaped like the one spec 000 measured ("Managed-session
 * MCP clients": 288 tools, 99 of them with result views), for `bench/catalog-size.ts`.
 *
 * Shape (fixed by these rules, not fitted to the spec's byte counts):
 * - 24 domains × 12 actions = 288 tools named `compozy__<domain>_<action>`.
 * - Each domain has one entity record: identity (`id`, `name`, the parent it belongs to), a
 *   `state` enum, timestamps, 4–10 scalar fields, 1–3 nested objects and 0–2 arrays of objects.
 *   Its full record adds what spec 000 "What compact keeps" says full results add, in the shapes
 *   of the example session record's full-only parts: a permission policy, an option catalog,
 *   supervision and diagnostic internals, a presentation (half the domains) and an embedded
 *   definition (a quarter). Output fields are rarely described (1 in 10), like the examples'.
 * - Record actions (`status`, `get`, `create`, `update`, `archive`) return `{ <domain>: record }`,
 *   list actions (`list`, `search`) `{ items: [record], next_cursor }`, the others a small ack or
 *   report. 99 of the 168 record/list tools (a seeded choice) have views: compact = the record
 *   without the full-only parts; full = the whole record. Every other tool has one output schema:
 *   the full record, as before result views.
 * - Input schemas: the entity ID for record actions, the authored fields for `create`/`update`,
 *   filters and a cursor for lists; every input property has a description, as models need.
 * - Text (descriptions) comes from a fixed word list with a seeded generator.
 *
 * Every tool goes through `defineTool`, so each compact view is proven a subset of its full view.
 */
import Type, { type TSchema } from 'typebox'
import { defineTool, type Tool } from 'result-views'

/** Domains of the synthetic host (24). */
export const DOMAINS = [
  'session', 'task', 'loop', 'skill', 'agent', 'workspace', 'worktree', 'profile', 'memory', 'approval', 'hook', 'mcp_server',
  'provider', 'model', 'runtime', 'transcript', 'queue', 'board', 'review', 'artifact', 'secret', 'schedule', 'notification', 'extension',
] as const

/** Actions per domain (12), by what they return. */
const RECORD_ACTIONS = ['status', 'get', 'create', 'update', 'archive'] as const
const LIST_ACTIONS = ['list', 'search'] as const
const OTHER_ACTIONS = ['delete', 'cancel', 'validate', 'export', 'run'] as const

/** How many tools have result views (spec 000: 99 view adopters of 288 tools). */
export const VIEWED_TOOL_COUNT = 99

const WORDS = (
  'the a of to for when and or with its is set only after before each current last first pending active failed ' +
  'session task workspace agent profile runtime record field value state status result view compact full caller ' +
  'follow-up call input output list item cursor page limit reason failure stop error warning policy permission ' +
  'operator provider model selection revision generation transcript epoch lineage parent child root queue board ' +
  'column badge attention interaction prompt approval grant token scope digest schema contract summary count ' +
  'timestamp duration seconds identifier name label description branch worktree path file skill hook event'
).split(' ')

export const FIELD_WORDS = (
  'kind mode label title summary priority weight owner source target channel region tier quota budget timeout ' +
  'retries version revision generation epoch sequence cursor checksum origin reason detail note hint category ' +
  'visibility locale format encoding size count total limit offset depth width'
).split(' ')

/** mulberry32: a small seeded PRNG (deterministic catalog across runs). */
function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A seeded generator of numbers, picks and sentences (the same for every seed). */
export class Gen {
  readonly #next: () => number
  constructor(seed: number) {
    this.#next = rng(seed)
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.#next() * (max - min + 1))
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!
  }
  chance(p: number): boolean {
    return this.#next() < p
  }
  /** A sentence of `min`–`max` words, capitalised, with a final period. */
  sentence(min: number, max: number): string {
    const words = Array.from({ length: this.int(min, max) }, () => this.pick(WORDS))
    const text = words.join(' ')
    return text.charAt(0).toUpperCase() + text.slice(1) + '.'
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items]
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i)
      ;[out[i], out[j]] = [out[j]!, out[i]!]
    }
    return out
  }
}

const Timestamp = Type.String({ format: 'date-time' })

/**
 * A scalar field schema: string, integer, boolean or a string enum. Output fields carry a
 * description one time in ten (the example records' schemas carry almost none); input fields are
 * described by `inputFor`.
 */
export function scalar(g: Gen): TSchema {
  const description = g.chance(0.1) ? { description: g.sentence(5, 12) } : {}
  switch (g.int(0, 3)) {
    case 0:
      return Type.String(description)
    case 1:
      return Type.Integer({ minimum: 0, ...description })
    case 2:
      return Type.Boolean(description)
    default:
      return Type.Union(Array.from({ length: g.int(3, 6) }, (_, i) => Type.Literal(`${g.pick(FIELD_WORDS)}_${i}`)), description)
  }
}

/** A closed object of `min`–`max` scalar fields, about a third of them optional. */
export function scalarObject(g: Gen, min: number, max: number): TSchema {
  const properties: Record<string, TSchema> = {}
  const count = g.int(min, max)
  for (let i = 0; i < count; i++) {
    const field = scalar(g)
    properties[`${g.pick(FIELD_WORDS)}_${i}`] = g.chance(0.3) ? Type.Optional(field) : field
  }
  return Type.Object(properties, { additionalProperties: false })
}

/** The parts of one entity record: shared (compact) fields and the full-only additions. */
interface EntityParts {
  readonly compact: Record<string, TSchema>
  readonly fullOnly: Record<string, TSchema>
}

function entity(g: Gen, domain: string): EntityParts {
  const compact: Record<string, TSchema> = {
    id: Type.String({ minLength: 1, description: `The ${domain} ID.` }),
    name: Type.String(),
    workspace_id: Type.String({ minLength: 1 }),
    state: Type.Union(['active', 'idle', 'waiting', 'stopped', 'failed', 'archived'].slice(0, g.int(4, 6)).map((s) => Type.Literal(s))),
    created_at: Timestamp,
    updated_at: Timestamp,
    failure: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
  }
  const scalars = g.int(4, 10)
  for (let i = 0; i < scalars; i++) {
    const field = scalar(g)
    compact[`${g.pick(FIELD_WORDS)}_${i}`] = g.chance(0.4) ? Type.Optional(field) : field
  }
  const nested = g.int(1, 3)
  for (let i = 0; i < nested; i++) compact[`${g.pick(FIELD_WORDS)}_info_${i}`] = scalarObject(g, 3, 6)
  const arrays = g.int(0, 2)
  for (let i = 0; i < arrays; i++) compact[`${g.pick(FIELD_WORDS)}_items_${i}`] = Type.Array(scalarObject(g, 4, 7))

  // The full-only parts, modelled on the example session record's (permission policy, option and
  // command catalogs, supervision, diagnostics, profile presentation), plus an embedded
  // definition for a quarter of the domains.
  const strings = Type.Array(Type.String())
  const fullOnly: Record<string, TSchema> = {
    permission_policy: Type.Object(
      { tools: strings, skills: strings, mcp_servers: strings, workspace_paths: strings },
      { additionalProperties: false },
    ),
    available_options: Type.Array(
      Type.Object({ name: Type.String(), description: Type.String(), input_hint: Type.Optional(Type.String()) }, { additionalProperties: false }),
    ),
    supervision: scalarObject(g, 2, 4),
    diagnostics: Type.Object(
      {
        counters: Type.Object(
          Object.fromEntries(Array.from({ length: g.int(2, 5) }, (_, i) => [`${g.pick(FIELD_WORDS)}_${i}`, Type.Integer({ minimum: 0 })])),
          { additionalProperties: false },
        ),
        warnings: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
  }
  if (g.chance(0.5)) {
    fullOnly.presentation = Type.Object({ display_name: Type.String(), color: Type.String(), icon: Type.String() }, { additionalProperties: false })
  }
  if (g.chance(0.25)) {
    fullOnly.definition = Type.Object({ kind: Type.String(), version: Type.Integer({ minimum: 1 }), spec: scalarObject(g, 3, 6) }, { additionalProperties: false })
  }
  return { compact, fullOnly }
}

/** Input schema of one action. */
function inputFor(g: Gen, domain: string, action: string, parts: EntityParts): TSchema {
  const described = (schema: TSchema, text: string): TSchema => ({ ...schema, description: text })
  const idField = { [`${domain}_id`]: Type.String({ minLength: 1, description: `The ${domain} to act on, e.g. "${domain.slice(0, 4)}-example".` }) }
  if (action === 'list' || action === 'search') {
    return Type.Object(
      {
        ...(action === 'search' ? { query: Type.String({ minLength: 1, description: g.sentence(6, 12) }) } : {}),
        workspace_id: Type.Optional(Type.String({ description: g.sentence(5, 10) })),
        state: Type.Optional(described(parts.compact.state!, g.sentence(5, 10))),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: g.sentence(5, 10) })),
        cursor: Type.Optional(Type.String({ description: g.sentence(6, 12) })),
      },
      { additionalProperties: false },
    )
  }
  if (action === 'create' || action === 'update') {
    const properties: Record<string, TSchema> = action === 'update' ? { ...idField } : {}
    const authored = Object.keys(parts.compact).filter((k) => !['id', 'state', 'created_at', 'updated_at', 'failure'].includes(k))
    for (const key of authored.slice(0, g.int(3, 8))) {
      properties[key] = Type.Optional({ ...(parts.compact[key] as TSchema), description: g.sentence(5, 12) })
    }
    return Type.Object(properties, { additionalProperties: false })
  }
  if (action === 'run' || action === 'validate' || action === 'export') {
    const extra = scalarObject(g, 1, 4) as unknown as { properties: Record<string, TSchema> }
    const properties: Record<string, TSchema> = { ...idField }
    for (const [key, schema] of Object.entries(extra.properties)) properties[key] = Type.Optional({ ...schema, description: g.sentence(5, 12) })
    return Type.Object(properties, { additionalProperties: false })
  }
  return Type.Object(idField, { additionalProperties: false })
}

/** Output schemas of one action: the view pair when viewed, otherwise one schema. */
function outputFor(g: Gen, domain: string, action: string, parts: EntityParts, viewed: boolean): TSchema | { compact: TSchema; full: TSchema } {
  const compactRecord = Type.Object(parts.compact, { additionalProperties: false })
  const fullRecord = Type.Object({ ...parts.compact, ...parts.fullOnly }, { additionalProperties: false })
  const wrap = (record: TSchema): TSchema =>
    (RECORD_ACTIONS as readonly string[]).includes(action)
      ? Type.Object({ [domain]: record }, { additionalProperties: false })
      : Type.Object({ items: Type.Array(record), next_cursor: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false })
  if ((RECORD_ACTIONS as readonly string[]).includes(action) || (LIST_ACTIONS as readonly string[]).includes(action)) {
    return viewed ? { compact: wrap(compactRecord), full: wrap(fullRecord) } : wrap(fullRecord)
  }
  if (action === 'validate' || action === 'export' || action === 'run') {
    return Type.Object(
      {
        ok: Type.Boolean(),
        diagnostics: Type.Array(Type.Object({ path: Type.String(), message: Type.String(), severity: Type.Union([Type.Literal('error'), Type.Literal('warning')]) })),
        report: scalarObject(g, 2, 6),
      },
      { additionalProperties: false },
    )
  }
  return Type.Object({ ok: Type.Boolean(), [`${domain}_id`]: Type.String() }, { additionalProperties: false })
}

/**
 * The synthetic catalog: 288 tools, {@link VIEWED_TOOL_COUNT} of them viewed, the same for every
 * `seed`. Handlers return nothing useful: the catalog is for measuring discovery bytes.
 */
export function syntheticCatalog(seed = 318): Tool[] {
  const g = new Gen(seed)
  const candidates = DOMAINS.flatMap((domain) => [...RECORD_ACTIONS, ...LIST_ACTIONS].map((action) => `${domain}:${action}`))
  const viewed = new Set(g.shuffle(candidates).slice(0, VIEWED_TOOL_COUNT))
  const tools: Tool[] = []
  for (const domain of DOMAINS) {
    const parts = entity(g, domain)
    for (const action of [...RECORD_ACTIONS, ...LIST_ACTIONS, ...OTHER_ACTIONS]) {
      const isViewed = viewed.has(`${domain}:${action}`)
      const description =
        `${action.charAt(0).toUpperCase() + action.slice(1)} ${domain.replace('_', ' ')} records. ${g.sentence(8, 24)}` +
        (g.chance(0.5) ? ` ${g.sentence(6, 18)}` : '') +
        (isViewed ? ' Returns the compact result; pass result_view "full" for the complete record.' : '')
      tools.push(
        defineTool({
          id: `compozy__${domain}_${action}`,
          description,
          input: inputFor(g, domain, action, parts),
          output: outputFor(g, domain, action, parts, isViewed),
          handler: () => ({}),
        } as never),
      )
    }
  }
  return tools
}
