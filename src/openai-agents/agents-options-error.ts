import { UsageError, type UsageProblem } from 'result-views'
import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.AgentsOptionsError')

/**
 * Thrown by `toAgentsTools` for a misuse of it. A `UsageError` (root entry) with
 * `code: 'openai_agents_options_invalid'`: a `dispatcher` that is not one, an option of the wrong
 * type or value, an unknown option key, or two tools whose IDs become the same function name
 * (OpenAI Agents keeps letters and digits and turns every other character into `_`, so `a-b` and
 * `a_b` collide). `problems` lists every problem at once, each with a JSON Pointer into
 * `{ dispatcher, options }` and a problem code: those of `AiSdkOptionsError`, plus
 * `tool_name_collision`. See `docs/adapters.md` "Options".
 */
export class AgentsOptionsError extends UsageError {
  /** Always `'AgentsOptionsError'`. */
  override readonly name = 'AgentsOptionsError'
  /** Always `'openai_agents_options_invalid'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'openai_agents_options_invalid'

  /** @param problems - every problem found, at least one. */
  constructor(problems: readonly UsageProblem[]) {
    super({ code: 'openai_agents_options_invalid', subject: 'toAgentsTools(dispatcher, options)', problems })
    brand.mark(this)
  }
}

/** True for an {@link AgentsOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isAgentsOptionsError(value: unknown): value is AgentsOptionsError {
  return brand.has(value)
}
