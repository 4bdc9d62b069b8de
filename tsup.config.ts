import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    loop: 'src/loop/index.ts',
    mcp: 'src/mcp/index.ts',
    sqlite: 'src/sqlite/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
  // Subpath entries import the root API as 'result-views', so one copy of it exists at run time.
  external: ['result-views'],
})
