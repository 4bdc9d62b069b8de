import { UsageError } from 'result-views'
import { subjectUsageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown for a misuse of this entry's functions. A `UsageError` (root entry) with
 * `code: 'mcp_options_invalid'`: `problems` lists every problem found, each with a JSON Pointer
 * and a problem code:
 *
 * - `createMcpServer(dispatcher, options)`: a `dispatcher` that is not one (`/dispatcher`,
 *   `invalid_dispatcher`: `invoke` or `list` missing); `options` that are not an object (`''`,
 *   `invalid_option`); a missing or empty `name` / `version`, a `scope` that is neither an object
 *   nor a function, a `toolCallIdPrefix` or `instructions` that is not a string (`/name`, ...,
 *   `invalid_option`); a `maxResultBytes` that is not an integer ≥ 256, `continuations` without it
 *   or with a bound that is not a positive integer (`/continuations/ttlMs`, `invalid_limit`; an
 *   unknown `continuations` key is `unknown_option`, as on `result-views/http`), a
 *   `continuationStore` that is not one or is given with `continuations` or without
 *   `maxResultBytes` (`/continuationStore`, `invalid_continuation_store`), a
 *   continuation tool name the catalog already has (`/continuationToolPrefix`, `tool_name_taken`);
 *   an unknown option key (`/<key>`, `unknown_option`);
 * - `measureCatalog(tools)`: an argument that is not an array (`''`, `invalid_catalog`), an entry
 *   that is neither a tool from `defineTool` nor a descriptor (`/3`, `not_a_tool`), a `tool_id`
 *   given twice (`/2`, `duplicate_tool_id`).
 *
 * The message lists every problem, as every misuse error does: `<subject> are invalid (N
 * problems):` then one `  - <path>: <message>` line each, where the subject is `createMcpServer
 * options`, `measureCatalog options` or `measureCatalog tools` (`is invalid`).
 */
export const McpOptionsError = subjectUsageErrorClass(UsageError, 'mcp_options_invalid')

/** An error of the class McpOptionsError (`new McpOptionsError(subject, problems, cause?)`; `code: 'mcp_options_invalid'`). */
export type McpOptionsError = CodedUsageError<'mcp_options_invalid'>

/** True for an {@link McpOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isMcpOptionsError = McpOptionsError.is
