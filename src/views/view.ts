/** A result view (`docs/views.md` "The selector"): `compact` (the default) or `full`. */
export type View = 'compact' | 'full'

/** The two views, in the order the selector's `enum` lists them. */
export const VIEWS: readonly View[] = ['compact', 'full']

/** The view a viewed tool returns when the input names none (`docs/views.md` "The selector"). */
export const DEFAULT_VIEW: View = 'compact'

/** The input property that selects the view (`docs/views.md` "The selector"). */
export const RESULT_VIEW_KEY = 'result_view'

/** True for `'compact'` and `'full'`. */
export function isView(value: unknown): value is View {
  return value === 'compact' || value === 'full'
}

/**
 * Where a tool comes from (`docs/views.md` "The selector"). Only `native` tools get the `result_view`
 * selector; `extension` and `mcp` tools are dispatched the same way but their input is never
 * inspected for `result_view` (`docs/views.md` "The selector").
 */
export type ToolOrigin = 'native' | 'extension' | 'mcp'
