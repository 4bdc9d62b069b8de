import { quoted } from '../errors/quote.js'
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
      const allowed = params.allowedValues
      if (Array.isArray(allowed) && allowed.length <= 8 && allowed.every(isScalar)) {
        const listed = allowed.map((value) => (typeof value === 'string' ? quoted(value, 64) : String(value))).join(', ')
        return `${issue.instancePath === '' ? 'the input' : quoted(issue.instancePath)} must be one of ${listed}`
      }
      break
    }
  }
  return `${issue.instancePath === '' ? 'the input' : quoted(issue.instancePath)} ${issue.message}`
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}
