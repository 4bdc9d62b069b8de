/**
 * JSON text of plain JSON values (parsed input, a target's answer, a reply body), written without
 * recursion: `JSON.stringify` overflows the call stack at a few thousand levels of nesting, while a
 * tool value may nest 5,000 (`docs/cli.md` "Limits"). Only the JSON types are expected: objects and
 * arrays with own enumerable keys, strings, finite numbers, booleans and `null` (no `toJSON`).
 */

/** One open object or array while writing. */
interface Frame {
  readonly close: string
  readonly array: boolean
  readonly value: Record<string, unknown> | readonly unknown[]
  readonly keys: readonly string[]
  index: number
}

/**
 * The JSON text of a parsed value, key order kept, like `JSON.stringify(value, null, indent)`
 * (no indent: one line). Iterative: any depth costs no stack.
 */
export function stringifyJson(value: unknown, indent = 0): string {
  const out: string[] = []
  const frames: Frame[] = []
  const pad = (depth: number): string => (indent === 0 ? '' : `\n${' '.repeat(indent * depth)}`)
  let current = value
  for (;;) {
    if (typeof current === 'object' && current !== null) {
      const array = Array.isArray(current)
      const keys = array ? [] : Object.keys(current)
      const empty = array ? (current as readonly unknown[]).length === 0 : keys.length === 0
      if (empty) out.push(array ? '[]' : '{}')
      else {
        out.push(array ? '[' : '{')
        frames.push({ close: array ? ']' : '}', array, value: current as Frame['value'], keys, index: 0 })
      }
    } else {
      out.push(JSON.stringify(current) ?? 'null')
    }
    // The next member to write, closing every container that is done.
    let frame: Frame | undefined
    while ((frame = frames.at(-1)) !== undefined && frame.index >= (frame.array ? (frame.value as readonly unknown[]).length : frame.keys.length)) {
      frames.pop()
      out.push(pad(frames.length), frame.close)
    }
    if (frame === undefined) return out.join('')
    if (frame.index > 0) out.push(',')
    out.push(pad(frames.length))
    if (frame.array) current = (frame.value as readonly unknown[])[frame.index]
    else {
      const key = frame.keys[frame.index]!
      out.push(JSON.stringify(key), indent === 0 ? ':' : ': ')
      current = (frame.value as Record<string, unknown>)[key]
    }
    frame.index++
  }
}

/** True when the value nests objects and arrays more than `max` levels deep (`{}` is one level). Iterative. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 0 }]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (typeof top.value !== 'object' || top.value === null) continue
    const depth = top.depth + 1
    if (depth > max) return true
    for (const member of Object.values(top.value)) if (typeof member === 'object' && member !== null) stack.push({ value: member, depth })
  }
  return false
}
