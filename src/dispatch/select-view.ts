import type { ToolError } from '../errors/tool-error.js'
import { withoutKey } from '../json/without-key.js'
import type { Tool } from '../tool/types.js'
import { DEFAULT_VIEW, RESULT_VIEW_KEY, isView, type View } from '../views/view.js'
import { resultViewInvalid, resultViewNotAccepted, resultViewPinned } from './errors.js'
import { isRecord } from '../json/guards.js'

/** The selector step's answer: the view (viewed tools only) and the input the handler will get. */
export type ViewSelection =
  | { readonly ok: true; readonly view: View | undefined; readonly input: unknown }
  | { readonly ok: false; readonly error: ToolError }

/**
 * Applies the `result_view` rules (`docs/views.md` "The selector") to a native tool's input:
 * a viewed tool takes `'compact'` (default) or `'full'` and the handler gets the input without the
 * key; any other value, or a non-string, is rows 1-2; the key on a single-result tool is row 3.
 * With `pinned`, a selected view other than the pinned one is row 6 (`tool_denied` /
 * `result_view_pinned`); no selection means the pinned view. `extension` and `mcp` tools are never
 * inspected: their input passes through untouched.
 */
export function selectView(tool: Tool, input: unknown, pinned: View | undefined): ViewSelection {
  if (tool.origin !== 'native') return { ok: true, view: undefined, input }
  const record = isRecord(input) ? input : undefined
  const has = record !== undefined && Object.prototype.hasOwnProperty.call(record, RESULT_VIEW_KEY)
  if (tool.kind === 'single') {
    return has ? { ok: false, error: resultViewNotAccepted(tool) } : { ok: true, view: undefined, input }
  }
  if (!has) return { ok: true, view: pinned ?? DEFAULT_VIEW, input }
  const selected = record[RESULT_VIEW_KEY]
  if (!isView(selected)) return { ok: false, error: resultViewInvalid(tool) }
  if (pinned !== undefined && selected !== pinned) return { ok: false, error: resultViewPinned(tool, pinned) }
  return { ok: true, view: selected, input: withoutKey(record, RESULT_VIEW_KEY) }
}
