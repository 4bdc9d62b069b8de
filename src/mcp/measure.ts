import { defineBrand } from '../errors/brand.js'
import { invalidOption, optionsTable, readOptions } from '../options/options.js'
import { describeTool, type Tool, type ToolDescriptor, type UsageProblem } from 'result-views'
import { tokenCounter, type CountTokens } from '../tokens/count-tokens.js'
import { McpOptionsError } from './mcp-options-error.js'
import { toMcpToolList } from './project.js'

/** The brand `defineTool` puts on every tool, global so that it holds across library copies. */
const toolBrand = defineBrand('result-views.Tool')

/**
 * Serialized sizes of one catalog's three discovery surfaces, in bytes of UTF-8 JSON
 * (`JSON.stringify` without whitespace, of a JSON array with one entry per tool), and in tokens of
 * that same text (o200k by default; absent with `tokens: false`). See `docs/mcp.md` "Catalog size: `measureCatalog`".
 */
export interface CatalogSize {
  /** The full-policy discovery catalog: every descriptor with `output_schema` and, for viewed tools, `output_views` (both views and digests). */
  readonly discovery_bytes: number
  /** The MCP `tools/list` entries (`name`, `description`, `inputSchema`; no output schemas). */
  readonly mcp_bytes: number
  /**
   * The model-facing projection: `{ name, description, input_schema }` per tool, where
   * `input_schema` is the same 2020-12 schema the MCP listing carries (no `$schema`). So
   * `model_bytes` = `mcp_bytes` + one byte per tool (`input_schema` vs `inputSchema`), exactly.
   */
  readonly model_bytes: number
  /** Tokens of the discovery catalog's JSON (absent with `tokens: false`). */
  readonly discovery_tokens?: number
  /** Tokens of the MCP listing's JSON. */
  readonly mcp_tokens?: number
  /** Tokens of the model-facing projection's JSON: what a model reads before its first call. */
  readonly model_tokens?: number
}

/** Options of {@link measureCatalog}. */
export interface MeasureCatalogOptions {
  /** Counts tokens, synchronously. Default: `gpt-tokenizer` o200k (an optional peer dependency, loaded on first use). */
  countTokens?: CountTokens
  /** `false` measures bytes only (no tokenizer needed). Default `true`. */
  tokens?: boolean
}

/**
 * Measures a catalog's discovery surfaces (see {@link CatalogSize}): bytes, and tokens counted by
 * `options.countTokens` or `gpt-tokenizer` (o200k; special-token text such as `<|endoftext|>`
 * counts as ordinary text). See `docs/mcp.md` "Catalog size: `measureCatalog`".
 *
 * @param tools - tools returned by `defineTool`, or their descriptors (`describeTool`,
 *   `dispatcher.list()`), in catalog order; both may be mixed.
 * @param options - `countTokens`, or `tokens: false` for bytes only.
 * @throws TokenizerUnavailableError (`tokenizer_unavailable`) when tokens are counted, no
 *   `countTokens` is given and `gpt-tokenizer` cannot be loaded: install it, pass `countTokens`,
 *   or pass `tokens: false`.
 * @throws McpOptionsError (`mcp_options_invalid`) for bad options, or a `countTokens` that throws
 *   or returns something other than a non-negative integer.
 * @throws McpOptionsError (`code: 'mcp_options_invalid'`) when `tools` is not an array, when an
 *   entry is neither a defined tool nor a descriptor (`tools[<index>] must be ...`), or when two
 *   entries share a `tool_id` (`tools[<index>] repeats tool_id "<id>" of tools[<first>]`): a
 *   catalog lists each tool once, so a duplicate is a mistake, not something to count twice.
 *   Every problem is listed.
 */
export function measureCatalog(tools: readonly (Tool | ToolDescriptor)[], options: MeasureCatalogOptions = {}): CatalogSize {
  const { countTokens, tokens } = checkedOptions(options)
  const descriptors = checkedDescriptors(tools)
  const mcp = toMcpToolList(descriptors)
  const model = descriptors.map((d, index) => ({ name: d.tool_id, description: d.description, input_schema: mcp[index]!.inputSchema }))
  const texts = [JSON.stringify(descriptors), JSON.stringify(mcp), JSON.stringify(model)] as const
  const bytes = { discovery_bytes: utf8Bytes(texts[0]), mcp_bytes: utf8Bytes(texts[1]), model_bytes: utf8Bytes(texts[2]) }
  if (!tokens) return bytes
  const count = tokenCounter(countTokens, 'measureCatalog options', (problem) => {
    throw new McpOptionsError('measureCatalog options', [problem])
  })
  return { ...bytes, discovery_tokens: count(texts[0]), mcp_tokens: count(texts[1]), model_tokens: count(texts[2]) }
}

/** The options `measureCatalog` knows. */
const MEASURE_OPTIONS = optionsTable(['countTokens', 'tokens'])

function checkedOptions(options: unknown): { countTokens: unknown; tokens: boolean } {
  const problems: UsageProblem[] = []
  const { countTokens, tokens } = readOptions(options, MEASURE_OPTIONS, '', problems)
  if (tokens !== undefined && typeof tokens !== 'boolean') problems.push(invalidOption('', 'tokens', 'tokens must be a boolean'))
  if (problems.length > 0) throw new McpOptionsError('measureCatalog options', problems)
  return { countTokens, tokens: tokens !== false }
}

function checkedDescriptors(tools: unknown): ToolDescriptor[] {
  if (!Array.isArray(tools)) {
    throw new McpOptionsError('measureCatalog tools', [{ path: '', code: 'invalid_catalog', message: 'tools must be an array of tools from defineTool or tool descriptors' }])
  }
  const problems: UsageProblem[] = []
  const descriptors: ToolDescriptor[] = []
  const firstIndex = new Map<string, number>()
  for (let index = 0; index < tools.length; index++) {
    if (!(index in tools)) {
      // A hole: reported once, and the rest not walked (an array of 2^32 - 1 holes is one problem).
      problems.push({ path: `/${index}`, code: 'not_a_tool', message: `tools[${index}] is a hole, not a tool from defineTool or a tool descriptor` })
      break
    }
    const entry: unknown = tools[index]
    let descriptor: ToolDescriptor | undefined
    if (isDefinedTool(entry)) descriptor = describeTool(entry)
    else if (isDescriptor(entry)) descriptor = entry
    else {
      problems.push({ path: `/${index}`, code: 'not_a_tool', message: `tools[${index}] must be a tool from defineTool or a tool descriptor (tool_id, description, input_schema)` })
      continue
    }
    const first = firstIndex.get(descriptor.tool_id)
    if (first !== undefined) problems.push({ path: `/${index}`, code: 'duplicate_tool_id', message: `tools[${index}] repeats tool_id ${JSON.stringify(descriptor.tool_id)} of tools[${first}]` })
    else firstIndex.set(descriptor.tool_id, index)
    descriptors.push(descriptor)
  }
  if (problems.length > 0) throw new McpOptionsError('measureCatalog tools', problems)
  return descriptors
}

function isDefinedTool(value: unknown): value is Tool {
  return toolBrand.has(value)
}

function isDescriptor(value: unknown): value is ToolDescriptor {
  if (typeof value !== 'object' || value === null) return false
  const d = value as Record<string, unknown>
  return (
    typeof d.tool_id === 'string' &&
    typeof d.description === 'string' &&
    typeof d.input_schema === 'object' &&
    d.input_schema !== null &&
    !Array.isArray(d.input_schema)
  )
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}
