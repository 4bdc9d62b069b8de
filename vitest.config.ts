import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
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
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
  },
})
