import { defineConfig, type Options } from 'tsup'
import { subpathEntries } from './scripts/entries.mjs'

/** Shared by both builds: ESM + CJS + declarations for Node 20. */
const common: Options = {
  format: ['esm', 'cjs'],
  clean: false,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
  // `import.meta.url` in the CJS build (the token counter resolves its optional peer from it).
  shims: true,
  // Subpath entries import the root API as 'result-views', so one copy of it exists at run time;
  // vitest is the conformance suite's peer.
  external: ['result-views', 'vitest'],
}

/**
 * Two builds, run in order by scripts/build.mjs: the root entry first, then the subpath entries,
 * whose declarations then import the root's types from 'result-views' (resolved to the built
 * dist/index.d.ts) instead of inlining copies. The tsconfig path alias that tests and examples use
 * is switched off for declarations for the same reason.
 */
export default defineConfig([
  { ...common, name: 'root', entry: { index: 'src/index.ts' }, dts: { compilerOptions: { paths: {} } } },
  {
    ...common,
    name: 'subpaths',
    entry: Object.fromEntries(subpathEntries.map((name) => [name, `src/${name}/index.ts`])),
    dts: { compilerOptions: { paths: {} } },
  },
])
