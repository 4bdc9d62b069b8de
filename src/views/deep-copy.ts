/**
 * Copies a JSON value: new arrays and plain objects all the way down, primitives as they are.
 * Own enumerable keys only; a `__proto__` key is defined as a data property, never assigned, so
 * a copy never changes a prototype.
 */
export function deepCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const out: unknown[] = []
    for (let i = 0; i < value.length; i++) out.push(deepCopy(value[i]))
    return out
  }
  const source = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(source)) setOwn(out, key, deepCopy(source[key]))
  return out
}

/** Sets `out[key] = value` as an own data property, even for `__proto__`. */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  else out[key] = value
}
