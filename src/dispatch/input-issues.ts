import { quoted } from '../errors/quote.js'
import { MAX_SURFACE_ISSUES, type SurfaceDetails, type SurfaceIssue } from '../errors/surface-details.js'
import type { ValidationIssue } from './validators.js'

/** How many problems an input error's message names; the rest are counted (all are in `details.issues`). */
export const NAMED_ISSUES = 3

/**
 * What an agent reading only the message needs to correct its call (`docs/errors.md`
 * "`tool_invalid_input`"): the first {@link NAMED_ISSUES} problems, each naming the property
 * (`unknown property "bogus"`, `missing required property "ticket_id"`, `wrong type at
 * "/ticket_id": must be string`), then how many more there are. Pointers and names are quoted
 * with their length capped; a name or pointer step under a sensitive input field reads
 * `[REDACTED]`. Issues must already be redacted (`redactIssues` in the redaction layer).
 */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  const named = issues.slice(0, NAMED_ISSUES).map(describeIssue)
  const more = issues.length - named.length
  return named.join('; ') + (more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'} (details.issues lists all)` : '')
}

function describeIssue(issue: ValidationIssue): string {
  const where = issue.instancePath === '' ? '' : ` at ${quoted(issue.instancePath)}`
  const params = issue.params
  switch (issue.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = params.additionalProperty ?? params.unevaluatedProperty
      if (typeof name === 'string') return `unknown property ${quoted(name)}${where}`
      break
    }
    case 'required':
      if (typeof params.missingProperty === 'string') return `missing required property ${quoted(params.missingProperty)}${where}`
      break
    case 'type':
      return `wrong type${where === '' ? ' of the input' : where}: ${issue.message}`
    case 'enum': {
      const listed = allowedList(params.allowedValues)
      if (listed !== undefined) return `${issue.instancePath === '' ? 'the input' : quoted(issue.instancePath)} must be one of ${listed}`
      break
    }
  }
  return `${issue.instancePath === '' ? 'the input' : quoted(issue.instancePath)} ${issue.message}`
}

/** A short list of allowed scalars as a message shows it (`"a", "b"`), or `undefined` for a long or structured one. */
function allowedList(allowed: unknown): string | undefined {
  if (!Array.isArray(allowed) || allowed.length > 8 || !allowed.every(isScalar)) return undefined
  return allowed.map((value) => (typeof value === 'string' ? quoted(value, 64) : String(value))).join(', ')
}

/** Longest pointer a surface issue shows; a longer one is cut (with `…`). */
const MAX_SURFACE_POINTER = 256

/**
 * What the redacting surfaces show of an input error's issues (`docs/errors.md` "On every
 * surface"): the first {@link MAX_SURFACE_ISSUES}, each `{ pointer, keyword, expected }` with
 * `expected` taken from the schema (`one of "compact", "full"`, `type string`, `property
 * "ticket_id"`, `no property "bogus"`, else ajv's message), never from the value; `issue_count`
 * when more. Issues must already be redacted (`redactIssues`).
 */
export function surfaceIssues(issues: readonly ValidationIssue[]): SurfaceDetails {
  const shown = issues.slice(0, MAX_SURFACE_ISSUES).map(surfaceIssue)
  return issues.length > shown.length ? { issues: shown, issue_count: issues.length } : { issues: shown }
}

function surfaceIssue(issue: ValidationIssue): SurfaceIssue {
  return { pointer: surfacePointer(issue.instancePath), keyword: issue.keyword, expected: expectedBy(issue) }
}

/** A pointer as a surface issue shows it: cut past {@link MAX_SURFACE_POINTER} characters (with `…`). */
export function surfacePointer(pointer: string): string {
  return pointer.length > MAX_SURFACE_POINTER ? `${pointer.slice(0, MAX_SURFACE_POINTER)}…` : pointer
}

function expectedBy(issue: ValidationIssue): string {
  const params = issue.params
  switch (issue.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = params.additionalProperty ?? params.unevaluatedProperty
      if (typeof name === 'string') return `no property ${quoted(name)}`
      break
    }
    case 'required':
      if (typeof params.missingProperty === 'string') return `property ${quoted(params.missingProperty)}`
      break
    case 'type':
      if (typeof params.type === 'string') return `type ${params.type}`
      break
    case 'enum': {
      const listed = allowedList(params.allowedValues)
      if (listed !== undefined) return `one of ${listed}`
      break
    }
  }
  return issue.message.length > MAX_SURFACE_POINTER ? `${issue.message.slice(0, MAX_SURFACE_POINTER)}…` : issue.message
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}
