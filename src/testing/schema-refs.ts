import type { JsonSchema } from 'result-views'
import { appendPointer } from '../json/pointer.js'
import { SchemaArbitraryError } from './schema-arbitrary-error.js'
import { isSchemaObject } from './schema-keywords.js'
import { unescapePointerToken } from '../json/pointer.js'

/** A schema resource: the root or a subschema with an `$id`, and its JSON Pointer from the root. */
export interface SchemaResource {
  readonly schema: JsonSchema
  readonly pointer: string
}

/** A resolved `$ref`: the target schema, its pointer from the root and the resource it lives in. */
export interface ResolvedRef {
  readonly schema: unknown
  readonly pointer: string
  readonly base: SchemaResource
}

/** Keywords whose values are data, not subschemas: never searched for `$id`. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples'])

/** Maps every `$id` string in `root` to its subschema (the first one wins). Iterative. */
export function indexIds(root: JsonSchema): Map<string, SchemaResource> {
  const ids = new Map<string, SchemaResource>()
  const stack: Array<[unknown, string]> = [[root, '']]
  while (stack.length > 0) {
    const [value, pointer] = stack.pop()!
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push([item, appendPointer(pointer, index)]))
    } else if (isSchemaObject(value)) {
      const id = value['$id']
      if (typeof id === 'string' && !ids.has(id)) ids.set(id, { schema: value, pointer })
      for (const [key, child] of Object.entries(value)) {
        if (!DATA_KEYWORDS.has(key)) stack.push([child, appendPointer(pointer, key)])
      }
    }
  }
  return ids
}

function unresolved(ref: string, pointer: string, why: string): SchemaArbitraryError {
  const at = appendPointer(pointer, '$ref')
  return new SchemaArbitraryError('unresolved_ref', '$ref', at, `cannot resolve "$ref": ${JSON.stringify(ref)}: ${why}`)
}

/**
 * Resolves `ref` (found at `pointer`, inside resource `base`): `#` and `#/json/pointer` against
 * the current resource, `Name` and `Name#/json/pointer` against the subschema whose `$id` is
 * exactly `Name` (TypeBox `Cyclic` style). Anchors and relative URI resolution are not supported.
 *
 * @throws SchemaArbitraryError `unresolved_ref`
 */
export function resolveRef(
  ref: string,
  pointer: string,
  base: SchemaResource,
  ids: ReadonlyMap<string, SchemaResource>,
): ResolvedRef {
  const hash = ref.indexOf('#')
  const resourceName = hash < 0 ? ref : ref.slice(0, hash)
  const fragment = hash < 0 ? '' : ref.slice(hash + 1)
  const resource = resourceName === '' ? base : ids.get(resourceName)
  if (resource === undefined) throw unresolved(ref, pointer, `no subschema has "$id": ${JSON.stringify(resourceName)}`)
  if (fragment === '') return { schema: resource.schema, pointer: resource.pointer, base: resource }
  if (!fragment.startsWith('/')) throw unresolved(ref, pointer, 'anchors are not supported, use a JSON Pointer fragment')
  let current: unknown = resource.schema
  let currentPointer = resource.pointer
  let currentBase = resource
  for (const raw of fragment.slice(1).split('/')) {
    const token = unescapePointerToken(decodeURIComponent(raw))
    if (typeof current !== 'object' || current === null || !Object.prototype.hasOwnProperty.call(current, token)) {
      throw unresolved(ref, pointer, `"${currentPointer}" has no member ${JSON.stringify(token)}`)
    }
    current = (current as Record<string, unknown>)[token]
    currentPointer = appendPointer(currentPointer, token)
    if (isSchemaObject(current) && typeof current['$id'] === 'string') currentBase = { schema: current, pointer: currentPointer }
  }
  return { schema: current, pointer: currentPointer, base: currentBase }
}
