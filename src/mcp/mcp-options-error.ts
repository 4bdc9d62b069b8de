const BRAND: unique symbol = Symbol.for('result-views.McpOptionsError')

/**
 * Thrown by `createMcpServer` for a misuse of the library: a `dispatcher` that is not one
 * (`invoke`, `list` missing), a missing or empty `name`/`version`, a `scope` that is neither an
 * object nor a function, a `toolCallIdPrefix` that is not a string. `code` is always
 * `'mcp_options_invalid'`; `problems` lists every problem found, by option name.
 */
export class McpOptionsError extends Error {
  override readonly name = 'McpOptionsError'
  readonly code = 'mcp_options_invalid' as const
  readonly problems: readonly string[]

  constructor(problems: readonly string[]) {
    super(`createMcpServer options are invalid: ${problems.join('; ')}`)
    this.problems = problems
    Object.defineProperty(this, BRAND, { value: true })
  }
}

/** True for a {@link McpOptionsError} from any copy of this library (a global brand, not `instanceof`). */
export function isMcpOptionsError(value: unknown): value is McpOptionsError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true
}
