// `npm run build` (and `prepack`): the tsup builds of tsup.config.ts, in order: the ESM modules,
// the declarations (root first, then the subpaths other subpaths import: later declarations
// resolve those entries to their built declarations), the CommonJS bundles, the command.
import { rmSync } from 'node:fs'
import { build } from 'tsup'
import configs from '../tsup.config.ts'

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
// `config: false`: given options, tsup still loads tsup.config.ts and runs every build in it with
// those options laid over each, so each call would run all of them (and into the wrong folders).
for (const options of configs) await build({ ...options, config: false, silent: true })
console.log('built dist/ (ESM modules in dist/esm/, declarations, CommonJS bundles, the result-views command)')
