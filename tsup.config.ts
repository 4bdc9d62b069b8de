import { defineConfig, type Options } from 'tsup'
import { sharedSubpathEntries, subpathEntries } from './scripts/entries.mjs'

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
  // Subpath entries import the root API as 'result-views' (and shared subpaths such as
  // 'result-views/contracts'), so one copy of each exists at run time; vitest is the conformance
  // suite's peer. A RegExp: the declaration build matches strings exactly.
  external: [/^result-views(\/|$)/, 'vitest'],
}

const subpaths = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, `src/${name}/index.ts`]))

/**
 * Four builds, run in order by scripts/build.mjs: the root entry first, then the subpath entries
 * other subpaths import, then the rest, whose declarations then import the earlier entries' types
 * by package name ('result-views', 'result-views/contracts', resolved to the built dist/*.d.ts)
 * instead of inlining copies; last the `result-views` command (package `bin`, ESM only, no
 * declarations: it is a program, not an entry). The tsconfig path alias that tests and examples use
 * is switched off for declarations for the same reason.
 */
export default defineConfig([
  { ...common, name: 'root', entry: { index: 'src/index.ts' }, dts: { compilerOptions: { paths: {} } } },
  { ...common, name: 'shared-subpaths', entry: subpaths(sharedSubpathEntries), dts: { compilerOptions: { paths: {} } } },
  {
    ...common,
    name: 'subpaths',
    entry: subpaths(subpathEntries.filter((name) => !sharedSubpathEntries.includes(name))),
    dts: { compilerOptions: { paths: {} } },
  },
  { ...common, name: 'cli', entry: { cli: 'src/cli/bin.ts' }, format: ['esm'], dts: false },
])
