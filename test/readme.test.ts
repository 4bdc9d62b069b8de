import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

describe('README', () => {
  it('shows exactly examples/quickstart.ts (which is type-checked and run by this test)', async () => {
    const block = /## Quickstart\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(block).toBe(readFileSync(new URL('../examples/quickstart.ts', import.meta.url), 'utf8'))
    expect(block!.split('\n').length).toBeLessThanOrEqual(31)
    await import('../examples/quickstart.js')
  })

  it('shows the demo and test commands that .ci/run and the package scripts provide', () => {
    expect(readme).toContain('npm ci && npm run demo')
    expect(readme).toContain('npm ci && npm test')
    const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8')
    expect(ci).toMatch(/^npm ci$/m)
    expect(ci).toMatch(/^npm test$/m)
  })
})
