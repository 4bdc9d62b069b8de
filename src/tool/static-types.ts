import type { View } from '../views/view.js'
import type { SingleResultTool, Tool, ViewedTool } from './types.js'

// The `Static` types are read from the tool's type-level `~static` field (`ViewedTool`, `SingleResultTool`).

/**
 * The input a caller sends to a tool (`docs/views.md` "Typed calls"): the `Static` type of its
 * input schema, plus an optional `result_view` (`'compact' | 'full'`) on a viewed tool. `unknown`
 * for a tool whose schemas are not known statically (`Tool`).
 */
export type ToolInput<T extends Tool> =
  T extends ViewedTool
    ? NonNullable<T['~static']>['input'] & { readonly result_view?: View }
    : T extends SingleResultTool
      ? NonNullable<T['~static']>['input']
      : never

/**
 * The record a call of a tool returns in `result.structured` (`docs/views.md` "Typed calls"): on a
 * viewed tool the `Static` type of the compact schema for `'compact'` (the default) and of the
 * full schema for `'full'` (a union for `View`); on a single-result tool that of its one output
 * schema, whatever `V` says.
 */
export type ToolRecord<T extends Tool, V extends View = 'compact'> =
  T extends ViewedTool ? (V extends 'full' ? NonNullable<T['~static']>['full'] : NonNullable<T['~static']>['compact']) : T extends SingleResultTool ? NonNullable<T['~static']>['output'] : never
