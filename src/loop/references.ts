import type { JsonValue } from 'result-views'
import { hasTemplate, parseTemplate, type TemplateParse } from './templates.js'

/** A params string that holds a template, with where it sits inside the params. */
export interface ParamTemplate {
  /** Tokens from the params root: `['prompt']`, `['items', 0, 'text']`. */
  readonly tokens: readonly (string | number)[]
  readonly text: string
  readonly parse: TemplateParse
}

/**
 * Every string in `params` that contains `{{`, parsed, in document order (objects by key order,
 * arrays by index), at any depth: references in nested objects and arrays count like top-level ones.
 */
export function templatesIn(params: JsonValue | undefined): ParamTemplate[] {
  const found: ParamTemplate[] = []
  walk(params, [], found)
  return found
}

function walk(value: JsonValue | undefined, tokens: (string | number)[], found: ParamTemplate[]): void {
  if (typeof value === 'string') {
    if (hasTemplate(value)) found.push({ tokens: [...tokens], text: value, parse: parseTemplate(value) })
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, [...tokens, index], found))
  } else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) walk(value[key], [...tokens, key], found)
  }
}

/** `params.items.0.text` for tokens `['items', 0, 'text']`: how messages name a param. */
export function paramLabel(tokens: readonly (string | number)[]): string {
  return ['params', ...tokens].join('.')
}
