// `npm run build` (and `prepack`): the tsup builds of tsup.config.ts, in order: the ESM modules,
// the declarations (root first, then the subpaths other subpaths import: later declarations
// resolve those entries to their built declarations), the CommonJS bundles, the command; then the
// CommonJS declarations get type-only ESM imports of the ESM-only packages (scripts/esm-only-types.mjs).
import { rmSync } from 'node:fs'
import { build } from 'tsup'
import configs from '../tsup.config.ts'
import { markEsmOnlyTypeImports } from './esm-only-types.mjs'

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
// `config: false`: given options, tsup still loads tsup.config.ts and runs every build in it with
// those options laid over each, so each call would run all of them (and into the wrong folders).
for (const options of configs) await build({ ...options, config: false, silent: true })
// The CommonJS declarations import typebox's and ai's types in ESM mode (scripts/esm-only-types.mjs).
if (markEsmOnlyTypeImports(new URL('../dist', import.meta.url).pathname) === 0) throw new Error('build: no CommonJS declaration imports typebox; scripts/esm-only-types.mjs is out of date')
console.log('built dist/ (ESM modules in dist/esm/, declarations, CommonJS bundles, the result-views command)')
