// Node module-resolution hook of the version matrix (scripts/matrix.mjs): loaded with
// `--import`, it maps each bare specifier named in RESULT_VIEWS_MATRIX_ALIASES (JSON,
// `{ "ai": "ai-7" }`) and its subpaths (`ai/test`) to the alternate major installed under the
// aliased name. It covers what vite's resolver does not see: child processes (the SQLite suite's
// tsx fixtures) and dependencies vitest loads with Node's own import.
import { register } from 'node:module'

if (process.env.RESULT_VIEWS_MATRIX_ALIASES) {
  register(new URL('./resolve-aliases-hooks.mjs', import.meta.url), { data: JSON.parse(process.env.RESULT_VIEWS_MATRIX_ALIASES) })
}
