// The precompiled draft-07 meta-schema check is ajv's own standalone code for the installed ajv and
// the dispatcher's options: an ajv upgrade that changes that code, or a change to the options,
// fails here until `npx tsx scripts/meta-schema-validator.ts` rewrites the module.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GENERATED_PATH, metaSchemaValidatorSource } from '../../scripts/meta-schema-validator.js'

describe('src/dispatch/draft-07-meta-schema.generated.ts', () => {
  it('is what scripts/meta-schema-validator.ts generates from the installed ajv', () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(metaSchemaValidatorSource())
  })
})
