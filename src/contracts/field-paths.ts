import { isSchemaObject, SchemaDocument, type SchemaLoc } from '../schema/schema-document.js'
import { parsePointer } from '../json/pointer.js'

/**
 * Field paths, the way release notes and tables name a field of a record: property names joined
 * by dots, `[]` for the elements of an array (`session.pending_interactions[].options`), and a
 * JSON string in brackets for a name that is not a plain identifier (`labels["a.b"]`). `""` is
 * the record itself.
 */
type Segment = { readonly key: string } | '[]' | '*'

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/

/** The text of a field path. */
export function formatFieldPath(segments: readonly Segment[]): string {
  let out = ''
  for (const segment of segments) {
    if (segment === '[]') out += '[]'
    else if (segment === '*') out += out === '' ? '*' : '.*'
    else if (IDENTIFIER.test(segment.key)) out += out === '' ? segment.key : `.${segment.key}`
    else out += `[${JSON.stringify(segment.key)}]`
  }
  return out
}

function decodePointer(pointer: string): string[] | undefined {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) return undefined
  return parsePointer(pointer)
}

/**
 * The field a JSON Pointer into a schema is about: `/properties/session/properties/id` →
 * `session.id`, `/properties/items/items/required/0` → `items[].<first required key>`. Unions
 * and `allOf` members are looked through; a pointer into `$defs` (a position reached through a
 * `$ref`, whose field depends on the way in) gives `undefined`, and so does a pointer that does
 * not lead anywhere in the schema.
 */
export function fieldPathOfPointer(schema: unknown, pointer: string): string | undefined {
  const tokens = decodePointer(pointer)
  if (tokens === undefined) return undefined
  const segments: Segment[] = []
  let node: unknown = schema
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (!isSchemaObject(node)) return undefined
    const next = (name: string | undefined): unknown => {
      const container = node as Record<string, unknown>
      if (!Object.hasOwn(container, token)) return undefined
      const value = container[token]
      if (name === undefined) return value
      if (Array.isArray(value)) return /^(0|[1-9][0-9]*)$/.test(name) ? value[Number(name)] : undefined
      return isSchemaObject(value) && Object.hasOwn(value, name) ? value[name] : undefined
    }
    switch (token) {
      case 'properties':
      case 'patternProperties': {
        const name = tokens[++i]
        if (name === undefined) return formatFieldPath(segments)
        segments.push(token === 'properties' ? { key: name } : '*')
        node = next(name)
        break
      }
      case 'required': {
        const key = next(tokens[++i] ?? '')
        if (typeof key !== 'string') return formatFieldPath(segments)
        segments.push({ key })
        return formatFieldPath(segments)
      }
      case 'additionalProperties':
        segments.push('*')
        node = next(undefined)
        break
      case 'items':
      case 'additionalItems': {
        segments.push('[]')
        const value = next(undefined)
        if (Array.isArray(value) && tokens[i + 1] !== undefined) node = next(tokens[++i])
        else node = value
        break
      }
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
        node = next(tokens[++i] ?? '')
        break
      case '$defs':
      case 'definitions':
        return undefined
      default:
        // A value keyword (`enum`, `type`, `minLength`, ...): the position is the current field.
        return formatFieldPath(segments)
    }
    if (node === undefined) return undefined
  }
  return formatFieldPath(segments)
}

/** Most field paths one schema is read into (a guard against schemas that branch explosively). */
const MAX_FIELDS = 20_000
/** Deepest field nesting followed (recursive schemas are cut there). */
const MAX_FIELD_DEPTH = 64

/**
 * Every named field of the records a schema describes, as path text → the path text of the field
 * that holds it (`""` for a top-level field; `a` for `a[].b`): `properties` and `required` keys, through `$ref`s, unions and `allOf`
 * members, and into array elements (`[]`). Map-like parts (`patternProperties`,
 * `additionalProperties`) name no field. A `$ref` cycle is followed once per path.
 */
export function schemaFields(schema: unknown): Map<string, string> {
  const document = new SchemaDocument(schema)
  const fields = new Map<string, string>()
  const visit = (loc: SchemaLoc, path: Segment[], depth: number, refs: ReadonlySet<string>): void => {
    if (fields.size >= MAX_FIELDS || depth > MAX_FIELD_DEPTH) return
    const s = loc.schema
    if (!isSchemaObject(s)) return
    if (s.$ref !== undefined) {
      const resolved = document.resolveRef(loc)
      if (resolved.ok && !refs.has(resolved.loc.pointer)) visit(resolved.loc, path, depth, new Set([...refs, resolved.loc.pointer]))
    }
    for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
      const list = s[keyword]
      if (Array.isArray(list)) for (let i = 0; i < list.length; i++) visit(document.child(loc, keyword, i)!, path, depth, refs)
    }
    // The parent of `a[].b` is the field `a` (an element is not a field of its own).
    let end = path.length
    while (end > 0 && path[end - 1] === '[]') end--
    const parent = formatFieldPath(path.slice(0, end))
    const add = (key: string): Segment[] => {
      const child: Segment[] = [...path, { key }]
      const text = formatFieldPath(child)
      if (!fields.has(text) && fields.size < MAX_FIELDS) fields.set(text, parent)
      return child
    }
    if (Array.isArray(s.required)) for (const key of s.required) if (typeof key === 'string') add(key)
    if (isSchemaObject(s.properties)) {
      for (const key of Object.keys(s.properties)) visit(document.entry(loc, 'properties', key)!, add(key), depth + 1, refs)
    }
    const elements: Segment[] = [...path, '[]']
    if (Array.isArray(s.items)) for (let i = 0; i < s.items.length; i++) visit(document.entry(loc, 'items', i)!, elements, depth + 1, refs)
    else if (isSchemaObject(s.items)) visit(document.at(loc, 'items')!, elements, depth + 1, refs)
    if (isSchemaObject(s.additionalItems)) visit(document.at(loc, 'additionalItems')!, elements, depth + 1, refs)
  }
  visit(document.root, [], 0, new Set())
  return fields
}
