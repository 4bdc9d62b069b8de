import { defineBrand } from '../errors/brand.js'
import { UsageError, type UsageProblem } from '../errors/usage-error.js'

const brand = defineBrand('result-views.ToolDefinitionError')

/**
 * Thrown by `defineTool` for a definition that must never reach a catalog (and by
 * `defineToolInfoTool` and `createDispatcher({ tools, clock })` for theirs). A {@link UsageError}
 * with `code: 'tool_definition_invalid'`: `problems` lists every problem found at once, each with a
 * JSON Pointer into the definition (`/id`, `/input`, `/output/compact/properties/session`) and a
 * stable problem code (`invalid_id`, `result_view_declared`, a view-proof violation code such as
 * `missing_in_full`, ...). See `docs/errors.md` "Misuse errors".
 */
export class ToolDefinitionError extends UsageError {
  /** Always `'ToolDefinitionError'`. */
  override readonly name = 'ToolDefinitionError'
  /** Always `'tool_definition_invalid'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'tool_definition_invalid'
  /** The ID of the tool whose definition is invalid, when the definition has a readable one. */
  readonly toolId: string | undefined

  /**
   * @param toolId - the definition's tool ID, if readable (the message names it).
   * @param problems - every problem found, at least one.
   */
  constructor(toolId: string | undefined, problems: readonly UsageProblem[]) {
    super({ code: 'tool_definition_invalid', subject: toolId === undefined ? 'tool definition' : `tool "${toolId}"`, problems })
    this.toolId = toolId
    brand.mark(this)
  }
}

/** True for a {@link ToolDefinitionError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isToolDefinitionError(value: unknown): value is ToolDefinitionError {
  return brand.has(value)
}
