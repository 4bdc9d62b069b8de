// The vitest config of the version matrix (scripts/matrix.mjs): the repository's aliases of the
// public entries, plus the alternate majors of RESULT_VIEWS_MATRIX_ALIASES (`{ "ai": "ai-7" }`).
// Plain data (no import of `vitest/config`), so vitest 4 and vitest 5 both load it.
import { fileURLToPath } from 'node:url'
import { subpathEntries } from '../scripts/entries.mjs'

const src = (path) => fileURLToPath(new URL(`../src/${path}`, import.meta.url))
const alternates = JSON.parse(process.env.RESULT_VIEWS_MATRIX_ALIASES ?? '{}')
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

export default {
  resolve: {
    alias: [
      { find: new RegExp(`^result-views/(${subpathEntries.join('|')})$`), replacement: src('$1/index.ts') },
      { find: /^result-views$/, replacement: src('index.ts') },
      ...Object.entries(alternates).map(([from, to]) =>
        to.startsWith('file:') ? { find: new RegExp(`^${escape(from)}$`), replacement: fileURLToPath(to) } : { find: new RegExp(`^${escape(from)}(/.*)?$`), replacement: `${to}$1` },
      ),
    ],
  },
  test: { testTimeout: 60_000, hookTimeout: 60_000 },
}
