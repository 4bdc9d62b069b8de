// Bundle-size budget (`npm run test:bundle`, part of `npm test`, after the build): bundles small
// consumers of the built ESM (dist/esm/, resolved through package.json "exports" as a bundler
// would) with esbuild, minified for Node, prints each size and fails when one is over its budget
// or pulls in a module it must not. It proves that the module boundaries and `sideEffects: false`
// work: a consumer that imports only `defineTool` must not bundle ajv (the validators) or yaml.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'))

/**
 * Each consumer: its code, its budget in bytes (minified), and packages its bundle must not contain.
 * The dispatcher's budget includes the precompiled draft-07 meta-schema check (about 22 kB minified:
 * ajv's standalone code, src/dispatch/draft-07-meta-schema.generated.ts), which saves a process's
 * first call ajv's meta-schema compile (docs/views.md "The catalog of 1,000 tools"). defineTool's
 * budget includes the scrubber's URL forms of secrets and its linear-time search (a KMP pass for long
 * secrets, markers found by binary search: docs/hooks.md "Sensitive input fields"): 83.9 → 85.4 kB.
 */
const consumers = [
  { name: 'defineTool only', code: `import { defineTool } from 'result-views'\nexport { defineTool }`, budgetBytes: 86_000, forbidden: ['ajv', 'ajv-formats', 'yaml', 'typebox', '@opentelemetry/api'] },
  { name: 'digests only', code: `import { schemaDigest, inputDigest } from 'result-views'\nexport { schemaDigest, inputDigest }`, budgetBytes: 12_000, forbidden: ['ajv', 'ajv-formats', 'yaml', 'typebox'] },
  { name: 'defineTool + createDispatcher', code: `import { createDispatcher, defineTool } from 'result-views'\nexport { createDispatcher, defineTool }`, budgetBytes: 345_000, forbidden: ['yaml', '@opentelemetry/api'] },
  { name: 'result-views/loop lintLoop', code: `import { lintLoop } from 'result-views/loop'\nexport { lintLoop }`, budgetBytes: 200_000, forbidden: [] },
]

/** Resolves `result-views` and `result-views/<entry>` through the package's own "exports" (import condition). */
const selfReference = {
  name: 'result-views-exports',
  setup(plugin) {
    plugin.onResolve({ filter: /^result-views(\/|$)/ }, ({ path }) => {
      const key = path === 'result-views' ? '.' : `./${path.slice('result-views/'.length)}`
      const target = pkg.exports[key]?.import?.default
      if (typeof target !== 'string') return { errors: [{ text: `package.json "exports" has no import target for ${path}` }] }
      return { path: fileURLToPath(new URL(target, `file://${root}`)) }
    })
  },
}

/** The npm package a bundled input file belongs to, or undefined for the package's own files. */
function packageOf(input) {
  const at = input.lastIndexOf('node_modules/')
  if (at < 0) return undefined
  const [first, second] = input.slice(at + 'node_modules/'.length).split('/')
  return first.startsWith('@') ? `${first}/${second}` : first
}

let failed = 0
for (const consumer of consumers) {
  const result = await build({
    stdin: { contents: consumer.code, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    plugins: [selfReference],
  })
  const bytes = result.outputFiles[0].contents.byteLength
  // The inputs with bytes in the output (esbuild lists every file it parsed, shaken away or not).
  const kept = Object.values(result.metafile.outputs).flatMap((output) => Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([file]) => file))
  const packages = new Set(kept.map(packageOf).filter((name) => name !== undefined))
  const leaked = consumer.forbidden.filter((name) => packages.has(name))
  const over = bytes > consumer.budgetBytes
  console.log(
    `bundle size: ${consumer.name}: ${(bytes / 1000).toFixed(1)} kB minified (budget ${consumer.budgetBytes / 1000} kB)` +
      `; packages: ${[...packages].sort().join(', ') || 'none'}`,
  )
  if (over) console.error(`bundle size failed: ${consumer.name} is ${bytes} bytes, over its budget of ${consumer.budgetBytes}`)
  if (leaked.length > 0) console.error(`bundle size failed: ${consumer.name} bundles ${leaked.join(', ')}`)
  if (over || leaked.length > 0) failed++
}
if (failed > 0) process.exit(1)
console.log(`bundle size: ${consumers.length} consumers within budget`)
