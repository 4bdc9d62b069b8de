import { firstHole, isRecord } from '../json/guards.js'
import { ContractsError } from './contracts-error.js'
import { terminalSafe } from '../text/terminal-safe.js'
import type { ContractComparison, ToolComparison } from './compare.js'

/** A row of the drift table. */
interface Row {
  readonly tool: string
  readonly schema: string
  readonly verdict: string
  readonly field: string
  readonly reason: string
}

const HEADER: Row = { tool: 'tool', schema: 'schema', verdict: 'verdict', field: 'field', reason: 'reason' }

/** Longest cell shown in the table; longer text is cut (the JSON output keeps it whole). */
const MAX_CELL = 160

/**
 * The drift table `contracts check` prints (`docs/contracts.md` "CI usage"): one row per reason
 * (tool, schema, verdict, field or JSON Pointer, reason), one per added, removed or otherwise
 * changed tool, then a summary that says which changes are breaking. Unchanged tools are left out.
 * Control characters, C1 controls and bidirectional overrides of a cell (property names come
 * from schemas) are written escaped, as `\u{1b}` (`docs/cli.md` "Output").
 *
 * @throws ContractsError (`contracts_invalid`, `invalid_comparison`) when `comparison` is not what
 *   `compareContracts` returned (no `tools` list, no `summary`).
 */
export function formatComparisonTable(comparison: ContractComparison): string {
  let shaped = false
  try {
    shaped = isRecord(comparison) && Array.isArray(comparison.tools) && firstHole(comparison.tools) === -1 &&
      comparison.tools.every((tool) => isRecord(tool) && typeof tool.tool_id === 'string' && Array.isArray(tool.schemas)) && isRecord(comparison.summary)
  } catch {
    shaped = false
  }
  if (!shaped) {
    throw new ContractsError('formatComparisonTable comparison', [{ path: '', code: 'invalid_comparison', message: 'not a comparison: pass what compareContracts returned' }])
  }
  const rows: Row[] = []
  for (const tool of comparison.tools) rows.push(...rowsOf(tool))
  if (rows.length === 0) return 'No contract drifted.\n'
  const cells = [HEADER, ...rows].map((row) => Object.values(row).map((cell: string) => cut(cell)))
  const widths = HEADER_KEYS.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)))
  const lines = cells.map((c) => c.map((cell, i) => (i === c.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd())
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '))
  return `${lines.join('\n')}\n\n${terminalSafe(summaryLine(comparison))}\n`
}

const HEADER_KEYS = Object.keys(HEADER)

/** One line of at most {@link MAX_CELL} characters, control, C1 and bidirectional characters escaped (`\u{1b}`), as all text output of the command. */
function cut(text: string): string {
  const flat = terminalSafe(text.replace(/[\r\n\t]+/g, ' '))
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat
}

function rowsOf(tool: ToolComparison): Row[] {
  const id = tool.tool_id
  if (tool.status === 'added') return [{ tool: id, schema: '', verdict: 'added', field: '', reason: `new ${tool.after_kind === 'viewed' ? 'viewed' : 'single-result'} tool` }]
  if (tool.status === 'removed') return [{ tool: id, schema: '', verdict: 'breaking', field: '', reason: 'tool removed: callers and pinned Loops that use it fail' }]
  const rows: Row[] = []
  if (tool.default_view_changed) {
    rows.push({
      tool: id, schema: '', verdict: 'changed', field: '',
      reason: tool.after_kind === 'viewed'
        ? 'default view changed: the tool gained views, so calls without result_view now get the compact view (see the release note)'
        : 'default view changed: the tool lost its views, so result_view is refused and every call gets the one output',
    })
  }
  if (tool.origin_changed !== undefined) {
    rows.push({ tool: id, schema: '', verdict: 'breaking', field: '', reason: `origin changed from ${tool.origin_changed.before} to ${tool.origin_changed.after}` })
  }
  for (const schema of tool.schemas) {
    const name = schema.schema === schema.compared_with ? schema.schema : `${schema.schema} (was ${schema.compared_with})`
    const verdict = schema.verdict === 'unproven' ? (schema.accepted ? 'unproven (accepted)' : 'unproven') : schema.verdict
    if (schema.reasons.length === 0) {
      rows.push({
        tool: id, schema: name, verdict, field: '',
        reason: schema.schema === 'input' ? 'changed: every input the old schema accepted is still accepted' : "changed: every value of the new schema is one the old schema's readers accept",
      })
    }
    for (const reason of schema.reasons) {
      rows.push({
        tool: id, schema: name, verdict: reason.kind === 'unproven' && schema.accepted ? 'unproven (accepted)' : reason.kind,
        field: reason.field === undefined ? reason.new_path || '/' : reason.field || '(record)',
        reason: `${reason.code}: ${reason.message}`,
      })
    }
  }
  const budget = tool.budget
  if (budget !== undefined && budget.status !== 'within') {
    rows.push({ tool: id, schema: 'budget', verdict: budget.status === 'exceeded' ? 'breaking' : 'changed', field: '', reason: `${budget.status}: ${budget.message ?? ''}` })
  }
  return rows
}

function summaryLine(comparison: ContractComparison): string {
  const { added, removed, changed, breaking } = comparison.summary
  const breakingIds = comparison.tools.filter((t) => t.breaking).map((t) => t.tool_id)
  const parts = [`${changed} changed`, `${added} added`, `${removed} removed`]
  const verdict = breaking === 0
    ? 'No change is breaking (unproven changes count as breaking unless accepted).'
    : `Breaking: ${breakingIds.join(', ')} (${breaking} tool${breaking === 1 ? '' : 's'}; unproven changes count as breaking unless accepted).`
  return `Contracts drifted: ${parts.join(', ')}. ${verdict}\nIf the changes are intended, rewrite the lock with --update and commit it.`
}
