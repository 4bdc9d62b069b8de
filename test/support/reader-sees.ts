// The old output schema as the contract verdicts' property tests judge it: how its readers see it.

/**
 * The old output schema as its readers see it: a reader ignores fields it does not know, so an
 * `additionalProperties: false` is read as absent, except inside a union branch that shares its
 * JSON type (object or array) with another branch: there the closed object may be what keeps a
 * value out of that branch, so it and everything below it are read as written.
 */
export function asReaderSees(schema: unknown, asWritten = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => asReaderSees(s, asWritten))
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false && !asWritten) continue
    const read = (key === 'anyOf' || key === 'oneOf') && Array.isArray(value) ? unionAsReaderSees(value, asWritten) : asReaderSees(value, asWritten)
    Object.defineProperty(out, key, { value: read, enumerable: true, writable: true, configurable: true })
  }
  return out
}

function unionAsReaderSees(branches: readonly unknown[], asWritten: boolean): unknown[] {
  const objects = branches.filter((b) => mayBe(b, 'object')).length
  const arrays = branches.filter((b) => mayBe(b, 'array')).length
  return branches.map((b) => asReaderSees(b, asWritten || (objects > 1 && mayBe(b, 'object')) || (arrays > 1 && mayBe(b, 'array'))))
}

/** Whether a schema may accept a value of JSON type `type` (read generously: unsure means yes). */
function mayBe(schema: unknown, type: 'object' | 'array'): boolean {
  if (typeof schema === 'boolean') return schema
  if (typeof schema !== 'object' || schema === null) return true
  const s = schema as { type?: unknown; const?: unknown; enum?: unknown }
  const isType = (v: unknown): boolean => (type === 'array' ? Array.isArray(v) : typeof v === 'object' && v !== null && !Array.isArray(v))
  if ('const' in s) return isType(s.const)
  if (Array.isArray(s.enum)) return s.enum.some(isType)
  if (typeof s.type === 'string') return s.type === type
  if (Array.isArray(s.type)) return s.type.includes(type)
  return true
}
