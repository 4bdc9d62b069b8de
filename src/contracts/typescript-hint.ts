/**
 * What to run when this Node cannot load a TypeScript catalog module (`.ts`, `.mts`, `.cts`):
 * Node strips types by itself from 22.18 (and 23.6), behind `--experimental-strip-types` from
 * 22.6, and not at all on Node 20, where a registered loader (tsx) does it. `undefined` when the
 * import failed for another reason than an unknown `.ts` extension. See `docs/cli.md` "Usage errors".
 */
export function typeScriptHint(path: string, error: unknown): string | undefined {
  if (!/\.[cm]?ts$/.test(path)) return undefined
  let code: unknown
  try {
    code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
  } catch {
    return undefined
  }
  if (code !== 'ERR_UNKNOWN_FILE_EXTENSION') return undefined
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
  const flag = major === 22 && minor >= 6 ? ' (or NODE_OPTIONS=--experimental-strip-types on this Node)' : ''
  return (
    `Node ${process.versions.node} cannot strip TypeScript types by itself: run the command with a TypeScript loader, ` +
    `NODE_OPTIONS="--import tsx" npx result-views … (npm install --save-dev tsx)${flag}, ` +
    'or on Node 22.18 or later as is, or pass the catalog built to JavaScript'
  )
}
