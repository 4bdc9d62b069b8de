/**
 * The result of `compozy__skill_view`, a single-result tool (spec 000 "Discovering both
 * contracts"): one output schema, no `output_views`, no `result_view` input.
 */
import Type, { type Static } from 'typebox'

/** One skill with its body. */
export const SkillRecord = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String(),
    description: Type.String(),
    body: Type.String(),
  },
  { additionalProperties: false },
)
export type SkillRecord = Static<typeof SkillRecord>

/** `{ skill }`, closed. */
export const SkillViewResult = Type.Object({ skill: SkillRecord }, { additionalProperties: false })
export type SkillViewResult = Static<typeof SkillViewResult>
