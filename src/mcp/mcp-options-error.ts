import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.McpOptionsError')

/**
 * Thrown for a misuse of this entry's functions; `code` is always `'mcp_options_invalid'` and
 * `problems` lists every problem found (by option name or argument index):
 *
 * - `createMcpServer`: a `dispatcher` that is not one (`invoke`, `list` missing), a missing or
 *   empty `name`/`version`, a `scope` that is neither an object nor a function, a
 *   `toolCallIdPrefix` or `instructions` that is not a string, an unknown option key;
 * - `measureCatalog`: an argument that is not an array, an entry that is neither a tool from
 *   `defineTool` nor a descriptor (named by index, `tools[3]`), a `tool_id` given twice.
 *
 * The message is `"<subject> is invalid: <problem>; <problem>"`, where the subject is
 * `createMcpServer options` or `measureCatalog tools`.
 */
export class McpOptionsError extends Error {
  override readonly name = 'McpOptionsError'
  readonly code = 'mcp_options_invalid' as const
  readonly problems: readonly string[]

  /**
   * @param problems - every problem found, one sentence each.
   * @param subject - what was invalid; default `'createMcpServer options'`.
   */
  constructor(problems: readonly string[], subject = 'createMcpServer options') {
    super(`${subject} ${subject.endsWith('options') ? 'are' : 'is'} invalid: ${problems.join('; ')}`)
    this.problems = problems
    brand.mark(this)
  }
}

/** True for a {@link McpOptionsError} from any copy of this library (a global brand, not `instanceof`). */
export function isMcpOptionsError(value: unknown): value is McpOptionsError {
  return brand.has(value)
}
