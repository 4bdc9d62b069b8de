// assertCompactSubsetOfFull was exported from result-views/testing and named in no doc: every
// assertion the entry exports is in the table of docs/views.md "Testing your own tools".
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as testing from 'result-views/testing'

const page = readFileSync(new URL('../../docs/views.md', import.meta.url), 'utf8')
const section = page.split('## Testing your own tools')[1]?.split(/\n## /)[0] ?? ''

describe('the assertions of result-views/testing', () => {
  const assertions = Object.keys(testing).filter((name) => /^assert[A-Z]/.test(name))

  it('are found', () => {
    expect(assertions).toEqual(expect.arrayContaining(['assertViewsConsistent', 'assertCompactSubsetOfFull', 'assertViewBudget']))
  })

  it.each(assertions)('documents %s in a row of the table', (name) => {
    expect(section).toMatch(new RegExp(`^\\| \`${name}\\(`, 'm'))
  })
})
