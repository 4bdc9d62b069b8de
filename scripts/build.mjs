// `npm run build`: the tsup builds of tsup.config.ts, in order (root first, then the subpaths other
// subpaths import: later declarations resolve those entries to their built declarations).
import { rmSync } from 'node:fs'
import { build } from 'tsup'
import configs from '../tsup.config.ts'

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
for (const options of configs) await build({ ...options, silent: true })
console.log('built dist/ (root, then shared subpaths, then the other subpaths, then the result-views command)')
