import { UsageError } from 'result-views'
import { usageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown by `toAgentsTools` for a misuse of it. A `UsageError` (root entry) with
 * `code: 'openai_agents_options_invalid'`: a `dispatcher` that is not one, an option of the wrong
 * type or value, an unknown option key, or two tools whose IDs become the same function name
 * (OpenAI Agents keeps letters and digits and turns every other character into `_`, so `a-b` and
 * `a_b` collide). `problems` lists every problem at once, each with a JSON Pointer into
 * `{ dispatcher, options }` and a problem code: those of `AiSdkOptionsError`, plus
 * `tool_name_collision`. See `docs/adapters.md` "Options".
 */
export const AgentsOptionsError = usageErrorClass(UsageError, 'openai_agents_options_invalid')

/** An error of the class AgentsOptionsError (`new AgentsOptionsError(problems, cause?)`; `code: 'openai_agents_options_invalid'`). */
export type AgentsOptionsError = CodedUsageError<'openai_agents_options_invalid'>

/** True for an {@link AgentsOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isAgentsOptionsError = AgentsOptionsError.is
