import { describeThrown } from '../errors/describe-thrown.js'
import { ToolError } from '../errors/tool-error.js'
import { OMIT_RULES_TIMEOUT_MS, type OmitRuleFailure } from '../views/omit-rules.js'

/**
 * A value-dependent compact rule of the tool failed while its record was projected
 * (`tool_execution_failed` / `omit_rule_failed`, `docs/errors.md`): it threw, answered something
 * other than a boolean, or the tool's rules did not answer within the time they have. Nothing of
 * the record is returned. What a rule threw is the error's non-enumerable `cause`.
 */
export function omitRuleFailed(toolId: string, failure: OmitRuleFailure): ToolError {
  const where = ` at "${failure.pointer}"`
  const what =
    failure.problem === 'timeout'
      ? `did not answer within ${OMIT_RULES_TIMEOUT_MS} ms${where}`
      : failure.problem === 'threw'
        ? `threw${where}: ${describeThrown(failure.thrown)}`
        : `answered something other than true or false${where}`
  const error = new ToolError({
    code: 'tool_execution_failed',
    reason: 'omit_rule_failed',
    message: `tool "${toolId}" omitWhen rule "${failure.rule}" ${what}`,
    details: { rule: failure.rule, pointer: failure.pointer, problem: failure.problem },
  })
  if (failure.problem === 'threw') Object.defineProperty(error, 'cause', { value: failure.thrown, enumerable: false })
  return error
}
