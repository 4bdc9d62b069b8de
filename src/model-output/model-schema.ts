import { setOwn } from '../json/clone.js'
import { isRecord } from '../json/guards.js'
import type { JsonSchema } from '../schema/json-schema.js'
import { unescapePointerToken } from '../json/pointer.js'

/** Keywords whose value is one subschema (2020-12 names; `additionalItems` is handled apart). */
const SUBSCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'additionalProperties', 'items', 'contains', 'not', 'if', 'then', 'else',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema',
])

/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems'])

/** Keywords whose value maps names (data, never translated) to subschemas. */
const SUBSCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'])

/**
 * The form in which a model sees a tool's input schema (an MCP `tools/list` entry's
 * `inputSchema`, an AI SDK tool's `inputSchema`, an OpenAI Agents tool's `parameters`): a copy of
 * the descriptor's `input_schema` in JSON Schema 2020-12 form, the dialect MCP assumes when a
 * schema names none and that model providers validate tool schemas with. At every depth (every
 * subschema position: `properties`, `items`, `anyOf`, `$defs`, ...):
 *
 * - the `$schema` keyword is removed (a foreign dialect URI, e.g. draft-07, makes strict clients
 *   refuse or misread the tool);
 * - draft-07 tuple syntax becomes 2020-12: `items: [A, B]` → `prefixItems: [A, B]`, and then
 *   `additionalItems: X` → `items: X` (an empty `items: []` is dropped); an `additionalItems`
 *   next to a non-array (or absent) `items` is dropped (draft-07 ignores it there). TypeBox's
 *   `Type.Tuple` emits the draft-07 form;
 * - `definitions` becomes `$defs` (unless the schema already has `$defs`), and every local `$ref`
 *   pointer (`#/...`, resolved against the root) is rewritten to the new locations
 *   (`#/definitions/a` → `#/$defs/a`, `#/items/0` → `#/prefixItems/0`).
 *
 * Names are data: a property called `items`, `$schema` or `definitions` (a key of `properties`,
 * `$defs`, ...) is kept as it is, and values of non-schema keywords (`const`, `enum`, `default`,
 * `examples`) are never touched. The input is never changed (descriptors are frozen); parts that
 * need no change are shared, not copied, and a schema that needs none is returned as is. Keys are
 * copied with `Object.defineProperty`, so a `__proto__` property name stays a property name.
 * See `docs/adapters.md` "What the model reads".
 *
 * @param schema - a descriptor's `input_schema` (any JSON Schema object).
 * @returns the 2020-12 form; the same object when nothing needed translating.
 */
export function toModelSchema(schema: JsonSchema): JsonSchema {
  return translate(schema, schema) as JsonSchema
}

function translate(schema: unknown, root: unknown): unknown {
  if (!isRecord(schema)) return schema
  const tuple = Array.isArray(schema.items)
  const renameDefinitions = isRecord(schema.definitions) && !hasOwn(schema, '$defs')
  const out: Record<string, unknown> = {}
  let changed = false
  for (const key of Object.keys(schema)) {
    const value = schema[key]
    if (key === '$schema') {
      changed = true
      continue
    }
    if (key === 'additionalItems') {
      changed = true
      if (tuple) setOwn(out, 'items', translate(value, root))
      continue
    }
    if (key === 'items' && tuple) {
      changed = true
      // an empty tuple constrains nothing (and `prefixItems: []` is not a valid 2020-12 schema)
      if ((value as unknown[]).length > 0) setOwn(out, 'prefixItems', translateList(value as unknown[], root))
      continue
    }
    if (key === 'definitions' && renameDefinitions) {
      changed = true
      setOwn(out, '$defs', translateMap(value as Record<string, unknown>, root))
      continue
    }
    let next = value
    if (key === '$ref' && typeof value === 'string') next = translateRef(value, root)
    else if (SUBSCHEMA_KEYWORDS.has(key)) next = translate(value, root)
    else if (SUBSCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) next = translateList(value, root)
    else if (SUBSCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) next = translateMap(value, root)
    if (next !== value) changed = true
    setOwn(out, key, next)
  }
  return changed ? out : schema
}

function translateList(list: readonly unknown[], root: unknown): readonly unknown[] {
  const next = list.map((item) => translate(item, root))
  return next.some((item, index) => item !== list[index]) ? next : list
}

function translateMap(map: Record<string, unknown>, root: unknown): Record<string, unknown> {
  const next: Record<string, unknown> = {}
  let changed = false
  for (const name of Object.keys(map)) {
    const item = translate(map[name], root)
    if (item !== map[name]) changed = true
    setOwn(next, name, item)
  }
  return changed ? next : map
}

/**
 * Rewrites a local JSON Pointer reference (`#/...`) by walking it through the ORIGINAL root and
 * renaming each keyword segment the translation renamed. Segments past anything it cannot
 * follow (an unknown keyword, a missing member) are kept verbatim; other references (`#anchor`,
 * URIs) are returned unchanged.
 */
function translateRef(ref: string, root: unknown): string {
  if (!ref.startsWith('#/')) return ref
  const segments = ref.slice(2).split('/')
  const out: string[] = []
  let node: unknown = root
  let position: 'schema' | 'list' | 'map' = 'schema'
  let index = 0
  for (; index < segments.length; index++) {
    const raw = segments[index]!
    if (!isRecord(node) && !Array.isArray(node)) break
    if (position === 'list' || position === 'map') {
      const name = decodeSegment(raw)
      node = Array.isArray(node) ? node[Number(name)] : (node as Record<string, unknown>)[name]
      out.push(raw)
      position = 'schema'
      continue
    }
    if (!isRecord(node)) break
    const tuple = Array.isArray(node.items)
    if (raw === 'items' && tuple) {
      out.push('prefixItems')
      position = 'list'
    } else if (raw === 'additionalItems' && tuple) {
      out.push('items')
    } else if (raw === 'definitions' && isRecord(node.definitions) && !hasOwn(node, '$defs')) {
      out.push('$defs')
      position = 'map'
    } else if (SUBSCHEMA_KEYWORDS.has(raw) || raw === 'additionalItems') {
      out.push(raw)
    } else if (SUBSCHEMA_LIST_KEYWORDS.has(raw)) {
      out.push(raw)
      position = 'list'
    } else if (SUBSCHEMA_MAP_KEYWORDS.has(raw)) {
      out.push(raw)
      position = 'map'
    } else {
      break
    }
    node = node[raw]
  }
  const rewritten = '#/' + [...out, ...segments.slice(index)].join('/')
  return rewritten === ref ? ref : rewritten
}

/** A JSON Pointer segment of a URI fragment: percent-decoded, then `~1` → `/`, `~0` → `~`. */
function decodeSegment(segment: string): string {
  let text = segment
  try {
    text = decodeURIComponent(segment)
  } catch {
    text = segment
  }
  return unescapePointerToken(text)
}

function hasOwn(value: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key)
}
