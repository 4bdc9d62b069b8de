import { UsageError, type UsageProblem } from 'result-views'
import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.McpOptionsError')

/**
 * Thrown for a misuse of this entry's functions. A `UsageError` (root entry) with
 * `code: 'mcp_options_invalid'`: `problems` lists every problem found, each with a JSON Pointer
 * and a problem code:
 *
 * - `createMcpServer(dispatcher, options)`: a `dispatcher` that is not one (`/dispatcher`,
 *   `invalid_dispatcher`: `invoke` or `list` missing); `options` that are not an object (`''`,
 *   `invalid_options`); a missing or empty `name` / `version`, a `scope` that is neither an object
 *   nor a function, a `toolCallIdPrefix` or `instructions` that is not a string (`/name`, ...,
 *   `invalid_option`); a `maxResultBytes` that is not an integer ≥ 256, `continuations` without it
 *   or with a bound that is not a positive integer (`/continuations/ttlMs`, `invalid_limit`; an
 *   unknown `continuations` key is `unknown_option`, as on `result-views/http`), a
 *   continuation tool name the catalog already has (`/continuationToolPrefix`, `tool_name_taken`);
 *   an unknown option key (`/<key>`, `unknown_option`);
 * - `measureCatalog(tools)`: an argument that is not an array (`''`, `invalid_catalog`), an entry
 *   that is neither a tool from `defineTool` nor a descriptor (`/3`, `not_a_tool`), a `tool_id`
 *   given twice (`/2`, `duplicate_tool_id`).
 *
 * The message is `"<subject> is invalid: <problem>; <problem>"`, where the subject is
 * `createMcpServer options` (`are invalid`) or `measureCatalog tools`.
 */
export class McpOptionsError extends UsageError {
  /** Always `'McpOptionsError'`. */
  override readonly name = 'McpOptionsError'
  /** Always `'mcp_options_invalid'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'mcp_options_invalid'

  /**
   * @param problems - every problem found, at least one.
   * @param subject - what was invalid; default `'createMcpServer options'`.
   */
  constructor(problems: readonly UsageProblem[], subject = 'createMcpServer options') {
    const messages = problems.map((problem) => problem.message).join('; ')
    super({ code: 'mcp_options_invalid', subject, problems, message: `${subject} ${subject.endsWith('options') ? 'are' : 'is'} invalid: ${messages}` })
    brand.mark(this)
  }
}

/** True for a {@link McpOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isMcpOptionsError(value: unknown): value is McpOptionsError {
  return brand.has(value)
}
