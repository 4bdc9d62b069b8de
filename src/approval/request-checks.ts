import type { CallScope } from '../tool/types.js'
import { approvalRequestInvalid } from './errors.js'

const SCOPE_KEYS = ['workspace_id', 'session_id', 'agent_name', 'profile_id'] as const

/** Throws `approval_request_invalid` / `field_invalid` with `problem` (management calls reject; `invoke` never does). */
export function invalid(problem: string): never {
  throw approvalRequestInvalid('field_invalid', problem)
}

/** The argument as a record of its own keys, or a `field_invalid` rejection. Keys outside `allowed` are refused. */
export function recordOf(value: unknown, what: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid(`${what} must be an object`)
  const record = value as Record<string, unknown>
  const extra = Object.keys(record).filter((key) => !allowed.includes(key))
  if (extra.length > 0) invalid(`${what} has unknown field ${JSON.stringify(extra[0]!.slice(0, 64))}`)
  return record
}

/** The field as a non-empty string, or a `field_invalid` rejection. */
export function nonEmptyString(record: Record<string, unknown>, key: string): string {
  const value = record[key]
  if (typeof value !== 'string' || value.length === 0) invalid(`${key} must be a non-empty string`)
  return value
}

/** The field if absent or a string; otherwise a `field_invalid` rejection. */
export function optionalString(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key]
  if (value !== undefined && typeof value !== 'string') invalid(`${key} must be a string`)
  return value
}

/** The field as one of `values`, or a `field_invalid` rejection. */
export function oneOf<T extends string>(record: Record<string, unknown>, key: string, values: readonly T[]): T {
  const value = record[key]
  if (!values.includes(value as T)) invalid(`${key} must be one of ${values.map((v) => `"${v}"`).join(', ')}`)
  return value as T
}

/** A frozen scope with only its four string fields, or a `field_invalid` rejection. */
export function scopeOf(value: unknown): Readonly<CallScope> {
  if (value === undefined) return Object.freeze({})
  const record = recordOf(value, 'scope', SCOPE_KEYS)
  const out: CallScope = {}
  for (const key of SCOPE_KEYS) {
    const field = optionalString(record, key)
    if (field !== undefined) out[key] = field
  }
  return Object.freeze(out)
}

