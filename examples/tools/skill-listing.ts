/**
 * The results of `compozy__skill_list` and `compozy__skill_search` (spec 000, last paragraph of
 * "Approvals": "Skill list/search omit diagnostics only when every diagnostic is valid, verified,
 * and has no warning, failure or activation reason; otherwise they retain the entire list").
 *
 * The compact skill keeps what a caller needs to pick a skill (identity, whether it is enabled)
 * and its diagnostics; the full one adds where the skill lives, its size, its update time and the
 * diagnostics' internals (when each was checked, the checker's detail). Whether the compact
 * record carries `diagnostics` at all depends on their values: {@link skillDiagnosticsRule}.
 */
import Type, { type Static } from 'typebox'
import type { OmitWhen } from 'result-views'

const DiagnosticStatus = Type.Union([Type.Literal('valid'), Type.Literal('invalid')])

/** What a caller must not miss about one check of a skill. */
const compactDiagnosticFields = {
  check: Type.String({ minLength: 1, description: 'What was checked: "frontmatter", "references", "activation", ...' }),
  status: DiagnosticStatus,
  verified: Type.Boolean({ description: 'Whether the check ran against the skill as it is now.' }),
  warning: Type.Optional(Type.String()),
  failure: Type.Optional(Type.String()),
  activation_reason: Type.Optional(Type.String({ description: 'Why the skill activates on its own.' })),
}

/** One diagnostic in the compact view (closed). */
export const SkillDiagnosticCompact = Type.Object(compactDiagnosticFields, { additionalProperties: false })
/** One diagnostic in the full view: also when it was checked and the checker's own words. */
export const SkillDiagnosticFull = Type.Object({
  ...compactDiagnosticFields,
  checked_at: Type.String({ format: 'date-time' }),
  detail: Type.Optional(Type.String()),
})
export type SkillDiagnostic = Static<typeof SkillDiagnosticFull>

const compactSkillFields = {
  id: Type.String({ minLength: 1 }),
  name: Type.String(),
  description: Type.String(),
  enabled: Type.Boolean(),
}

/** A skill in a list, compact: `diagnostics` is optional, omitted by value (see {@link skillDiagnosticsRule}). */
export const SkillSummaryCompact = Type.Object(
  { ...compactSkillFields, diagnostics: Type.Optional(Type.Array(SkillDiagnosticCompact)) },
  { additionalProperties: false },
)
/** A skill in a list, full: always carries its diagnostics (an empty list when nothing was checked). */
export const SkillSummaryFull = Type.Object({
  ...compactSkillFields,
  source: Type.Object({ kind: Type.Union([Type.Literal('workspace'), Type.Literal('user'), Type.Literal('builtin')]), path: Type.String() }),
  body_bytes: Type.Integer({ minimum: 0 }),
  updated_at: Type.String({ format: 'date-time' }),
  diagnostics: Type.Array(SkillDiagnosticFull),
})
export type SkillSummary = Static<typeof SkillSummaryFull>

/** `compozy__skill_list` compact: `{ skills, next_cursor? }` (the cursor is a follow-up input: always kept). */
export const SkillListCompact = Type.Object(
  { skills: Type.Array(SkillSummaryCompact), next_cursor: Type.Optional(Type.String()) },
  { additionalProperties: false },
)
/** `compozy__skill_list` full. */
export const SkillListFull = Type.Object({ skills: Type.Array(SkillSummaryFull), next_cursor: Type.Optional(Type.String()) })
export type SkillListFull = Static<typeof SkillListFull>

/** A search hit, compact: the compact skill and its score. */
const SkillHitCompact = Type.Object(
  { ...compactSkillFields, score: Type.Number({ minimum: 0, maximum: 1 }), diagnostics: Type.Optional(Type.Array(SkillDiagnosticCompact)) },
  { additionalProperties: false },
)
const SkillHitFull = Type.Object({ ...SkillSummaryFull.properties, score: Type.Number({ minimum: 0, maximum: 1 }) })

/** `compozy__skill_search` compact: the query and the hits, best first. */
export const SkillSearchCompact = Type.Object({ query: Type.String(), skills: Type.Array(SkillHitCompact) }, { additionalProperties: false })
/** `compozy__skill_search` full. */
export const SkillSearchFull = Type.Object({ query: Type.String(), skills: Type.Array(SkillHitFull) })
export type SkillSearchFull = Static<typeof SkillSearchFull>

/** Whether one compact diagnostic is clean: valid, verified, and with no warning, failure or activation reason. */
function isClean(diagnostic: Readonly<Record<string, unknown>>): boolean {
  return (
    diagnostic.status === 'valid' &&
    diagnostic.verified === true &&
    diagnostic.warning === undefined &&
    diagnostic.failure === undefined &&
    diagnostic.activation_reason === undefined
  )
}

/**
 * The spec's rule: a skill's diagnostics are omitted from the compact record only when every one
 * of them is clean (an empty list included); otherwise the entire list is kept, clean ones too.
 */
export const skillDiagnosticsRule = (diagnostics: unknown): boolean =>
  Array.isArray(diagnostics) && diagnostics.every((diagnostic) => isClean(diagnostic as Readonly<Record<string, unknown>>))

/** The rules of both tools: every listed skill's `diagnostics`. */
export const skillListOmitWhen: OmitWhen = { '/skills/*/diagnostics': skillDiagnosticsRule }
