// Declarations of the CommonJS entries (dist/*.d.cts) that import the types of an ESM-only package
// (typebox; ai 7) would make TypeScript report TS1479 for every CommonJS consumer under node16 or
// nodenext resolution ("The current file is a CommonJS module whose imports will produce
// 'require' calls; however, the referenced file is an ECMAScript module"). Type-only imports with
// `resolution-mode: "import"` say what is true: the declarations name the package's ESM types,
// and no `require` of it ever runs (the CommonJS bundles never load typebox, and load `ai` only
// from the entry that needs it). TypeScript reads the attribute from 5.3 on (docs/architecture.md
// "The package").
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'

/** Packages whose types a CommonJS declaration must import in ESM mode. */
export const esmOnlyTypePackages = ['typebox', 'ai']

const importLine = /^import (type )?(\{[^}]*\}|[\w$]+) from '([^']+)';$/gm

/** Rewrites the imports of {@link esmOnlyTypePackages} in every `.d.cts` file of `dir`; returns how many it rewrote. */
export function markEsmOnlyTypeImports(dir) {
  let rewritten = 0
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.d.cts')) continue
    const file = `${dir}/${name}`
    const text = readFileSync(file, 'utf8')
    const next = text.replace(importLine, (line, _type, names, specifier) => {
      if (!esmOnlyTypePackages.includes(specifier)) return line
      rewritten++
      return `import type ${names} from '${specifier}' with { 'resolution-mode': 'import' };`
    })
    if (/\bimport\((['"])(typebox|ai)\1\)/.test(next)) throw new Error(`${file}: an inline import() of an ESM-only package; add resolution-mode to it`)
    if (next !== text) writeFileSync(file, next)
  }
  return rewritten
}
