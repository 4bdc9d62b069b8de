import { defineConfig, type Options } from 'tsup'
import { sharedSubpathEntries, subpathEntries } from './scripts/entries.mjs'

/**
 * Shared by every build: Node 20, and no source maps. The JavaScript is not minified and keeps one
 * module per source file (ESM) or one readable bundle per entry (CommonJS), so a stack trace names
 * a file the user has and can open; a map without `src/` would name files that are not shipped,
 * and one with `sourcesContent` would add the sources a second time for nothing the shipped
 * JavaScript does not already show (docs/architecture.md "The package").
 */
const common: Options = {
  clean: false,
  sourcemap: false,
  target: 'node20',
  splitting: false,
  // Subpath entries import the root API as 'result-views' (and shared subpaths such as
  // 'result-views/contracts'), so one copy of each exists at run time. A RegExp: the declaration
  // build matches strings exactly.
  external: [/^result-views(\/|$)/],
}

const subpaths = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, `src/${name}/index.ts`]))
const rootEntry = { index: 'src/index.ts' }
const shared = subpaths(sharedSubpathEntries)
const others = subpaths(subpathEntries.filter((name) => !sharedSubpathEntries.includes(name)))

/** Bundled declarations of a group of entries, as `dist/<entry>.d.ts` (ESM) and `.d.cts` (CommonJS). */
const declarations = (name: string, entry: Record<string, string>): Options => ({
  ...common,
  name: `${name}-types`,
  entry,
  format: ['esm', 'cjs'],
  // The tsconfig path alias that tests and examples use is off, so a subpath's declarations
  // import the earlier entries' types by package name instead of inlining copies.
  dts: { only: true, compilerOptions: { paths: {} } },
})

/** One CommonJS file per entry, `dist/<entry>.cjs` (CommonJS consumers do not tree-shake). */
const commonJs = (name: string, entry: Record<string, string>): Options => ({
  ...common,
  name: `${name}-cjs`,
  entry,
  format: ['cjs'],
  treeshake: true,
  // `import.meta.url` in CommonJS (the token counter resolves its optional peer from it).
  shims: true,
})

/**
 * The builds, run in order by scripts/build.mjs (`docs/architecture.md` "The package"):
 *
 * 1. ESM with module boundaries kept: every source file (but the command's) becomes its own
 *    module under `dist/esm/`, imports untouched, so a bundler honours `sideEffects: false` and a
 *    consumer importing only `defineTool` never reaches ajv. Subpath entries import the root by
 *    package name; a root internal a subpath imports relatively is the root's own module file.
 * 2. Declarations, root first, then the subpaths other subpaths import, then the rest: later
 *    declarations resolve the earlier entries by package name to their built `dist/*.d.ts`.
 * 3. CommonJS, one bundle per entry.
 * 4. The `result-views` command (package `bin`, ESM only, no declarations: a program, not an entry).
 */
export default defineConfig([
  {
    ...common,
    name: 'esm',
    entry: ['src/**/*.ts', '!src/cli/**'],
    outDir: 'dist/esm',
    format: ['esm'],
    bundle: false,
    treeshake: false,
    dts: false,
  },
  declarations('root', rootEntry),
  declarations('shared-subpaths', shared),
  declarations('subpaths', others),
  commonJs('root', rootEntry),
  commonJs('subpaths', { ...shared, ...others }),
  { ...common, name: 'cli', entry: { cli: 'src/cli/bin.ts' }, format: ['esm'], treeshake: true, dts: false },
])
