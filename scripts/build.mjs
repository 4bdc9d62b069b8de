// `npm run build`: the tsup builds of tsup.config.ts, in order (root first: the subpath
// declarations resolve 'result-views' to the root's built declarations).
import { rmSync } from 'node:fs'
import { build } from 'tsup'
import configs from '../tsup.config.ts'

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
for (const options of configs) await build({ ...options, silent: true })
console.log('built dist/ (root, then subpaths, then the result-views command)')
