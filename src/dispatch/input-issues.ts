import { quoted } from '../errors/quote.js'
import { parsePointer, toPointer } from '../json/pointer.js'
import { REDACTED, type SensitivePath } from '../redact/sensitive-paths.js'
import type { ValidationIssue } from './validators.js'

/** How many problems an input error's message names; the rest are counted (all are in `details.issues`). */
export const NAMED_ISSUES = 3

/**
 * What an agent reading only the message needs to correct its call (`docs/errors.md`
 * "`tool_invalid_input`"): the first {@link NAMED_ISSUES} problems, each naming the property
 * (`unknown property "bogus"`, `missing required property "ticket_id"`, `wrong type at
 * "/ticket_id": must be string`), then how many more there are. Pointers and names are quoted
 * with their length capped; a name or pointer step under a sensitive input field reads
 * `[REDACTED]`. Issues must already be redacted ({@link redactIssues}).
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

/** The `params` that name a property of the input (the rest name parts of the schema). */
const NAMING_PARAMS = ['additionalProperty', 'unevaluatedProperty', 'propertyName'] as const

/**
 * The issues with every part that lies under a sensitive input field replaced by `[REDACTED]`:
 * pointer steps below the field's location, and the property names (`additionalProperty`,
 * `unevaluatedProperty`, `propertyName`) of an object at or below it, whose keys are part of the
 * secret. Issues outside every sensitive path are returned as they are.
 */
export function redactIssues(issues: readonly ValidationIssue[], paths: readonly SensitivePath[]): readonly ValidationIssue[] {
  if (paths.length === 0) return issues
  return issues.map((issue) => {
    const tokens = parsePointer(issue.instancePath)
    const depth = sensitiveDepth(tokens, paths)
    if (depth === undefined) return issue
    const instancePath = depth < tokens.length ? toPointer([...tokens.slice(0, depth), REDACTED]) : issue.instancePath
    const params: Record<string, unknown> = { ...issue.params }
    for (const key of NAMING_PARAMS) if (typeof params[key] === 'string') params[key] = REDACTED
    return { ...issue, instancePath, params }
  })
}

/**
 * How many leading pointer tokens locate a sensitive field the pointer is at or below (the
 * shortest such location), or `undefined` when it is under none. `name[]` steps match any array
 * index token.
 */
function sensitiveDepth(tokens: readonly string[], paths: readonly SensitivePath[]): number | undefined {
  let shortest: number | undefined
  for (const path of paths) {
    let at = 0
    let matched = true
    for (const step of path) {
      if (tokens[at] !== step.key) {
        matched = false
        break
      }
      at += 1
      if (step.each) {
        // `tokens[]` marks every element; the field of `items[].token` is inside each element.
        if (at < tokens.length && !/^(0|[1-9][0-9]*)$/.test(tokens[at]!)) {
          matched = false
          break
        }
        if (at < tokens.length) at += 1
      }
    }
    if (matched && (shortest === undefined || at < shortest)) shortest = at
  }
  return shortest
}
