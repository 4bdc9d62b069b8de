import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { subpathEntries } from './scripts/entries.mjs'

const src = (path: string): string => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

export default defineConfig({
  resolve: {
    // Tests import the public entries by their package names, resolved to the sources.
    alias: [
      { find: new RegExp(`^result-views/(${subpathEntries.join('|')})$`), replacement: src('$1/index.ts') },
      { find: /^result-views$/, replacement: src('index.ts') },
    ],
  },
  test: {
    testTimeout: 60_000,
    // Hooks start servers and worker processes; on a loaded 2-core machine that can take tens of seconds.
    hookTimeout: 60_000,
    // Two projects, so that the PostgreSQL server (test/postgres/support/global-setup.ts) starts
    // only for runs that include a test/postgres file.
    projects: [
      { extends: true, test: { name: 'core', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/postgres/**'] } },
      { extends: true, test: { name: 'postgres', include: ['test/postgres/**/*.test.ts'], globalSetup: ['test/postgres/support/global-setup.ts'] } },
    ],
  },
})
