import type { Options } from 'ajv'

/**
 * The ajv options of the dispatcher's validators (`validators.ts`), in one module of their own so
 * that `scripts/meta-schema-validator.ts` generates the precompiled draft-07 meta-schema check
 * (`draft-07-meta-schema.generated.ts`) with exactly the options it stands in for.
 */
export const OPTIONS: Options = { strict: true, strictNumbers: true, allowUnionTypes: true, allErrors: true, coerceTypes: false, useDefaults: false }

/**
 * The same checks, stopping at the first error: what validates a value nobody has checked to be
 * plain JSON (an array with 2 ** 32 - 1 holes fails at its first element instead of collecting an
 * error for each), and what decides validity on every call.
 */
export const FIRST_ERROR_OPTIONS: Options = { ...OPTIONS, allErrors: false }
