import { canonicalJson } from 'result-views'
import type { JsonValue } from 'result-views'
import { setOwn } from '../json/clone.js'
import { parseTemplate, type TemplateReference } from './templates.js'

/** What templates read at run time: the run's inputs and the outputs of the nodes that ran. */
export interface RenderScope {
  readonly inputs: Readonly<Record<string, unknown>>
  /** Node ID → output, for nodes that finished `ok`. */
  readonly outputs: ReadonlyMap<string, unknown>
}

/**
 * Renders every template in `params` (at any depth). A string that is exactly one template
 * (`"{{ .nodes.a.output.count }}"`) takes the referenced value with its JSON type; templates
 * embedded in text are stringified (strings as they are, anything else as canonical JSON). A
 * reference to a missing field (or input) resolves to the empty value `""` (`docs/loops.md`
 * "Templates"). A malformed template stays as written (lint reports it before a run starts).
 *
 * @returns a new plain-JSON value; `params` is not changed.
 */
export function renderParams(params: JsonValue, scope: RenderScope): JsonValue {
  if (typeof params === 'string') return renderString(params, scope)
  if (Array.isArray(params)) return params.map((item) => renderParams(item, scope))
  if (typeof params === 'object' && params !== null) {
    const out: Record<string, JsonValue> = {}
    for (const key of Object.keys(params)) setOwn(out, key, renderParams(params[key]!, scope))
    return out
  }
  return params
}

function renderString(text: string, scope: RenderScope): JsonValue {
  const parsed = parseTemplate(text)
  if (!parsed.ok) return text
  const [only] = parsed.parts
  if (parsed.parts.length === 1 && only!.kind === 'reference') {
    const value = lookup(only!.reference, scope)
    return value === undefined ? '' : (JSON.parse(canonicalJson(value)) as JsonValue)
  }
  let out = ''
  for (const part of parsed.parts) {
    if (part.kind === 'text') out += part.text
    else out += stringify(lookup(part.reference, scope))
  }
  return out
}

function stringify(value: unknown): string {
  if (value === undefined) return ''
  return typeof value === 'string' ? value : canonicalJson(value)
}

/** The referenced value, or `undefined` when any segment is missing (own properties and array indexes only). */
export function lookup(reference: TemplateReference, scope: RenderScope): unknown {
  let value: unknown
  if (reference.root === 'inputs') {
    if (!Object.prototype.hasOwnProperty.call(scope.inputs, reference.name)) return undefined
    value = scope.inputs[reference.name]
  } else {
    if (!scope.outputs.has(reference.node_id)) return undefined
    value = scope.outputs.get(reference.node_id)
  }
  for (const segment of reference.path) {
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment) || Number(segment) >= value.length) return undefined
      value = value[Number(segment)]
    } else if (typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, segment)) {
      value = (value as Record<string, unknown>)[segment]
    } else {
      return undefined
    }
  }
  return value
}
