// Which AI SDK major the suite runs on (the root's `ai` 6, or `ai-7` under scripts/matrix.mjs, which
// points `ai` at it), and the per-call context each major hands a tool.
import type { ToolSet } from 'ai'
import aiPackage from 'ai/package.json' with { type: 'json' }

/** The major version of the `ai` package the tests import. */
export const AI_MAJOR = Number(aiPackage.version.split('.')[0])

/**
 * The `generateText` options that give every tool of `tools` the per-call context `context`: ai 7's
 * `toolsContext` (one entry per tool), ai 6's `experimental_context`. Typed loosely: each major's
 * types know only its own option.
 */
export function perCallContext(tools: ToolSet, context: unknown): Record<string, never> {
  const options = AI_MAJOR >= 7 ? { toolsContext: Object.fromEntries(Object.keys(tools).map((id) => [id, context])) } : { experimental_context: context }
  return options as unknown as Record<string, never>
}
