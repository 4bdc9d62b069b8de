// The file URL of vitest 5's ESM entry as this workspace resolves it (scripts/matrix.mjs points the
// tests' `import ... from 'vitest'` at it).
export const vitestEntry = import.meta.resolve('vitest')
