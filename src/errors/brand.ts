/**
 * A global brand (`Symbol.for(name)`): marks objects of one kind so that a guard recognises them
 * across two copies of this library (an ESM and a CJS bundle, or a subpath's bundled helpers),
 * where `instanceof` fails. Not a security boundary: anyone can forge a brand.
 */
export interface Brand {
  /** Marks `target` (a non-enumerable, read-only property). */
  mark(target: object): void
  /** Whether `value` carries the brand. */
  has(value: unknown): boolean
}

/** The brand named `name`, e.g. `'result-views.ToolError'`. */
export function defineBrand(name: string): Brand {
  const symbol = Symbol.for(name)
  return Object.freeze({
    mark: (target: object) => void Object.defineProperty(target, symbol, { value: true }),
    has: (value: unknown) => typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[symbol] === true,
  })
}
