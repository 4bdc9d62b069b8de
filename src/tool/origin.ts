/**
 * Where a tool comes from (DESIGN.md glossary). Only `native` tools get the `result_view`
 * selector; `extension` and `mcp` tools are dispatched the same way but their input is never
 * inspected for `result_view` (spec 000 "Errors", last paragraph).
 */
export type ToolOrigin = 'native' | 'extension' | 'mcp'
