/** Where a text stops being JSON, and why (never quoting the text: it may hold a secret). */
export interface JsonSyntaxError {
  /** UTF-16 offset of the first character that cannot continue JSON (the length for an early end). */
  readonly offset: number
  readonly line: number
  readonly column: number
  readonly problem: string
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
const HEX4 = /^[0-9a-fA-F]{4}$/
const LITERALS = ['true', 'false', 'null'] as const

/**
 * The first syntax error of a text as strict JSON (RFC 8259, as `JSON.parse` reads it), or
 * `undefined` for valid JSON. Iterative: 5,000-deep nesting costs no stack. `JSON.parse` gives no
 * position for most errors on Node 20, so this scan finds it for the line and column a user needs.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = 0
  const open: ('{' | '[')[] = []
  const fail = (problem: string): JsonSyntaxError => {
    const before = text.slice(0, i)
    const line = before.split('\n').length
    return { offset: i, line, column: i - before.lastIndexOf('\n'), problem }
  }
  const skipSpace = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  const string = (): JsonSyntaxError | undefined => {
    i++
    for (;;) {
      if (i >= text.length) return fail('unterminated string')
      const code = text.charCodeAt(i)
      if (code === 0x22) {
        i++
        return undefined
      }
      if (code < 0x20) return fail('control character in a string (escape it)')
      if (code === 0x5c) {
        const next = text[i + 1]
        if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2
        else if (next === 'u' && HEX4.test(text.slice(i + 2, i + 6))) i += 6
        else return fail('bad escape in a string')
      } else i++
    }
  }
  const key = (): JsonSyntaxError | undefined => {
    skipSpace()
    if (text[i] !== '"') return fail(i >= text.length ? 'unexpected end of input' : 'expected a property name in double quotes')
    const bad = string()
    if (bad !== undefined) return bad
    skipSpace()
    if (text[i] !== ':') return fail(i >= text.length ? 'unexpected end of input' : "expected ':' after a property name")
    i++
    return undefined
  }

  let expectValue = true
  for (;;) {
    skipSpace()
    if (expectValue) {
      const c = text[i]
      if (c === undefined) return fail('unexpected end of input')
      if (c === '{' || c === '[') {
        i++
        skipSpace()
        if (text[i] === (c === '{' ? '}' : ']')) {
          i++
          expectValue = false
          continue
        }
        open.push(c)
        if (c === '{') {
          const bad = key()
          if (bad !== undefined) return bad
        }
        continue
      }
      if (c === '"') {
        const bad = string()
        if (bad !== undefined) return bad
        expectValue = false
        continue
      }
      if (c === '-' || (c >= '0' && c <= '9')) {
        NUMBER.lastIndex = i
        if (NUMBER.exec(text) === null) return fail('bad number')
        i = NUMBER.lastIndex
        expectValue = false
        continue
      }
      const literal = LITERALS.find((word) => text.startsWith(word, i))
      if (literal === undefined) return fail('unexpected character (expected a value)')
      i += literal.length
      expectValue = false
      continue
    }
    const top = open.at(-1)
    if (top === undefined) return i === text.length ? undefined : fail('unexpected character after the JSON value')
    const c = text[i]
    if (c === undefined) return fail('unexpected end of input')
    if (c === ',') {
      i++
      if (top === '{') {
        const bad = key()
        if (bad !== undefined) return bad
      }
      expectValue = true
      continue
    }
    if (c === (top === '{' ? '}' : ']')) {
      i++
      open.pop()
      continue
    }
    return fail(`expected ',' or '${top === '{' ? '}' : ']'}'`)
  }
}
