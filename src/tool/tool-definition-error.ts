import { defineBrand } from '../errors/brand.js'
import { problemListMessage } from '../errors/problem-list.js'

const brand = defineBrand('result-views.ToolDefinitionError')

/** One problem found in a tool definition. */
export interface DefinitionProblem {
  /**
   * Where: a JSON Pointer (RFC 6901) into the definition object, e.g. `/id`, `/input`,
   * `/output/compact/properties/session`, `/output/full/properties/session`.
   */
  path: string
  /** Stable problem code, e.g. `invalid_id`, `result_view_declared`, or a view-proof violation code. */
  code: string
  message: string
}

/**
 * Thrown by `defineTool` for a definition that must never reach a catalog. Lists every problem
 * found at once (`problems`), each with a JSON Pointer into the definition; `code` is always
 * `'tool_definition_invalid'`.
 */
export class ToolDefinitionError extends Error {
  override readonly name = 'ToolDefinitionError'
  readonly code = 'tool_definition_invalid' as const
  readonly tool_id: string | undefined
  readonly problems: readonly DefinitionProblem[]

  constructor(toolId: string | undefined, problems: readonly DefinitionProblem[]) {
    const label = toolId === undefined ? 'tool definition' : `tool "${toolId}"`
    super(problemListMessage(label, 'is', problems))
    this.tool_id = toolId
    this.problems = problems
    brand.mark(this)
  }
}

/** True for a {@link ToolDefinitionError} from any copy of this library. */
export function isToolDefinitionError(value: unknown): value is ToolDefinitionError {
  return brand.has(value)
}
