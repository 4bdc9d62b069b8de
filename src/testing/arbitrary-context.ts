import type FC from 'fast-check'
import { fc } from './fast-check.js'
import { appendPointer } from '../json/pointer.js'
import { SchemaArbitraryError } from './schema-arbitrary-error.js'
import type { SchemaResource } from './schema-refs.js'

/** A compiled subschema: an arbitrary of valid values, or `undefined` when no value fits the bounds. */
export type MaybeArbitrary = FC.Arbitrary<unknown> | undefined

/** Where the compiler is: JSON Pointer from the root, current `$id` resource, `$ref` expansions so far per target. */
export interface Location {
  readonly pointer: string
  readonly base: SchemaResource
  readonly recursion: ReadonlyMap<string, number>
}

/** What the keyword compilers share. Built once per `jsonSchemaArbitrary` call. */
export interface CompileContext {
  /** Limit of `$ref` expansions of one target along one path; also the depth of values for `{}`. */
  readonly maxDepth: number
  /** How many items beyond `minItems` (or the tuple prefix) an array may get. */
  readonly maxArrayLength: number
  /** Compiles a subschema at a location. */
  compile(schema: unknown, at: Location): MaybeArbitrary
  /** An ajv validator of the subschema at `pointer` (resolved against the root), compiled once. */
  validator(pointer: string): (value: unknown) => boolean
  /** Any JSON value, for `{}`, `true` and open `additionalProperties`/`items`. */
  readonly anyJson: FC.Arbitrary<unknown>
}

/** The location of a child subschema: `appendPointer(at.pointer, ...tokens)`, same resource and recursion. */
export function childAt(at: Location, ...tokens: Array<string | number>): Location {
  return { pointer: appendPointer(at.pointer, ...tokens), base: at.base, recursion: at.recursion }
}

/** Probe samples drawn (seeded) before a filter is accepted. */
const PROBE_RUNS = 64

/**
 * `arbitrary.filter(predicate)`, after checking on 64 seeded samples that the filter accepts
 * something, so sampling never spins forever on a filter that rejects everything.
 *
 * @throws SchemaArbitraryError `unsatisfiable` naming `keyword` at `pointer` when no probe passes.
 */
export function probedFilter(
  arbitrary: FC.Arbitrary<unknown>,
  predicate: (value: unknown) => boolean,
  keyword: string,
  pointer: string,
  what: string,
): FC.Arbitrary<unknown> {
  const probes = fc.sample(arbitrary, { numRuns: PROBE_RUNS, seed: 0x5eed })
  if (!probes.some(predicate)) {
    const at = appendPointer(pointer, keyword)
    throw new SchemaArbitraryError('unsatisfiable', keyword, at, `none of ${PROBE_RUNS} generated values ${what}`)
  }
  return arbitrary.filter(predicate)
}

/** Union of the arbitraries that exist; `undefined` if none does. */
export function unionOf(arbitraries: readonly MaybeArbitrary[]): MaybeArbitrary {
  const present = arbitraries.filter((arbitrary): arbitrary is FC.Arbitrary<unknown> => arbitrary !== undefined)
  if (present.length === 0) return undefined
  if (present.length === 1) return present[0]
  return fc.oneof(...present)
}
