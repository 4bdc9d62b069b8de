import { terminalSafe } from '../text/terminal-safe.js'
import { schemaFields } from './field-paths.js'
import { compareIds, lockOf, type ContractSource } from './sources.js'
import type { ToolContract } from './lock.js'

/**
 * Why a tool's default result changed: it gained views (callers that sent no `result_view` got the
 * complete record and now get the compact view), or its compact view lost fields that its full
 * view still has.
 */
export type DefaultChange = 'gained_views' | 'compact_narrowed'

/** One tool in the release note. */
export interface ReleaseNoteTool {
  /** The tool's ID. */
  readonly tool_id: string
  /** Why its default result changed. */
  readonly change: DefaultChange
  /** Fields callers got by default before and now get only with `result_view: "full"` (top-most ones only). */
  readonly moved_to_full: readonly string[]
  /** Fields callers got by default before that neither view has now (top-most ones only). */
  readonly removed: readonly string[]
}

/** What {@link viewReleaseNote} returns: the note as data and as Markdown. */
export interface ViewReleaseNote {
  /** Every tool whose default result changed, sorted by ID. */
  readonly tools: readonly ReleaseNoteTool[]
  /** The note as Markdown: a heading, then one section per tool listing its moved fields. */
  readonly markdown: string
}

/**
 * The release note of result views, which lists every tool whose default result changed and the
 * fields that moved to the full view: every tool that gained
 * views or whose compact view lost fields the full view still has, with those fields as paths
 * (`session.lineage.permission_policy`, `items[].id`; only the top-most field of a moved subtree).
 * Fields are read from `properties` and `required`, through `$ref`s, unions and array elements.
 * See `docs/contracts.md` "Release notes".
 *
 * @param before - the lock (or catalog) of the previous release.
 * @param after - the lock or catalog of this release.
 * @throws ContractsError (`contracts_invalid`) when a side is neither a lock nor a catalog.
 */
export function viewReleaseNote(before: ContractSource, after: ContractSource): ViewReleaseNote {
  const old = lockOf(before, 'viewReleaseNote before')
  const now = lockOf(after, 'viewReleaseNote after')
  const tools: ReleaseNoteTool[] = []
  for (const id of Object.keys(now.tools).sort(compareIds)) {
    if (!Object.hasOwn(old.tools, id)) continue
    const entry = noteFor(id, old.tools[id]!, now.tools[id]!)
    if (entry !== undefined) tools.push(entry)
  }
  return { tools, markdown: releaseNoteMarkdown(tools) }
}

function noteFor(id: string, before: ToolContract, after: ToolContract): ReleaseNoteTool | undefined {
  if (after.kind !== 'viewed') return undefined
  const gained = before.kind === 'single'
  const visible = schemaFields(before.kind === 'single' ? before.views.output.schema : before.views.compact.schema)
  const compact = schemaFields(after.views.compact.schema)
  const full = schemaFields(after.views.full.schema)
  const moved = new Set<string>()
  const removed = new Set<string>()
  for (const path of visible.keys()) {
    if (compact.has(path)) continue
    if (full.has(path)) moved.add(path)
    else removed.add(path)
  }
  const topMost = (set: ReadonlySet<string>): string[] => [...set].filter((path) => !set.has(visible.get(path)!)).sort(compareIds)
  const entry = { tool_id: id, change: gained ? 'gained_views' : 'compact_narrowed', moved_to_full: topMost(moved), removed: topMost(removed) } as const
  return gained || moved.size > 0 ? entry : undefined
}

/**
 * A Markdown code span that holds any text (a longer backtick fence when the text has backticks),
 * with control, C1 and bidirectional characters escaped as `\u{1b}` (schema property names reach a terminal).
 */
function code(text: string): string {
  const oneLine = terminalSafe(text.replace(/[\r\n]+/g, ' '))
  let fence = '`'
  while (oneLine.includes(fence)) fence += '`'
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${oneLine}${pad}${fence}`
}

/** The Markdown of a release note. */
function releaseNoteMarkdown(tools: readonly ReleaseNoteTool[]): string {
  const lines = ['## Result views: default results that changed', '']
  if (tools.length === 0) {
    lines.push("No tool's default result changed.", '')
    return lines.join('\n')
  }
  lines.push(
    `The default result of ${tools.length === 1 ? 'one tool' : `${tools.length} tools`} changed. To keep receiving a field listed here, pass`,
    '`"result_view": "full"` on the calls that read it (Loop nodes: add `result_view: full` to the node\'s params).',
    '',
  )
  for (const tool of tools) {
    lines.push(`### ${code(tool.tool_id)}`, '')
    lines.push(tool.change === 'gained_views'
      ? 'Gained result views: a call without `result_view` now returns the compact view instead of the complete record.'
      : 'Its compact view (the default result) no longer carries some fields; the full view still does.')
    lines.push('')
    if (tool.moved_to_full.length > 0) {
      lines.push('Fields moved to the full view:', '', ...tool.moved_to_full.map((p) => `- ${code(p)}`), '')
    } else lines.push('No field moved to the full view.', '')
    if (tool.removed.length > 0) lines.push('Fields removed from both views:', '', ...tool.removed.map((p) => `- ${code(p)}`), '')
  }
  return lines.join('\n')
}
