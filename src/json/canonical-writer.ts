import { hash } from 'node:crypto'
import { isOverlongProxy } from './guards.js'

/**
 * The one-pass canonical JSON writer: writes the UTF-8 bytes of the canonical text of a value and
 * checks that it is plain JSON in the same walk, reading every property once. Its output is byte
 * for byte what `fast-json-stable-stringify` writes for the same plain JSON value (keys sorted by
 * UTF-16 code units, no whitespace, ECMAScript number serialization, `JSON.stringify` string
 * escapes), which is RFC 8785 on plain JSON; a property test compares the two.
 *
 * The walk is iterative (no recursion, so no stack limit below {@link CanonicalWriter.write}'s
 * depth bound) and allocates nothing per value besides each object's key list. It never names
 * what is wrong: anything it does not accept (a non-JSON value, a throwing getter or Proxy trap,
 * a cycle, nesting past the bound) makes `write` answer `false`, and the caller runs the precise
 * check for the typed error and its JSON Pointer.
 */

/** What the walk throws internally for a value it does not accept. */
const REFUSED: unique symbol = Symbol('not plain JSON')

const objectPrototype = Object.prototype

/** Key sets up to this size are sorted by insertion (no call into `Array.prototype.sort`). */
const INSERTION_SORT_MAX = 16

/** Initial buffer size; a writer keeps a buffer grown past {@link KEEP_BYTES} only for one call. */
const INITIAL_BYTES = 4096
const KEEP_BYTES = 1 << 20
const KEEP_LEVELS = 64

const HEX = '0123456789abcdef'

/** One open container of the walk: its keys (objects) or its length (arrays), and the next child. */
interface Level {
  container: object | undefined
  /** Sorted own enumerable string keys; `undefined` for an array. */
  keys: string[] | undefined
  length: number
  index: number
  /** Members written so far (a skipped root member is not counted). */
  written: number
}

/** A reusable writer: a byte buffer and the stack of open containers. */
export class CanonicalWriter {
  bytes: Buffer = Buffer.allocUnsafe(INITIAL_BYTES)
  length = 0
  readonly #levels: Level[] = []

  /**
   * Writes the canonical UTF-8 bytes of `value` into {@link bytes} (`[0, length)`); `false` when
   * it is not plain JSON, could not be read, or nests objects and arrays deeper than `maxDepth`.
   * `skipRootKey`: a member of a root object that is checked like the others but not written.
   */
  write(value: unknown, maxDepth: number, skipRootKey: string | undefined): boolean {
    this.length = 0
    try {
      this.#walk(value, maxDepth, skipRootKey)
      return true
    } catch {
      // REFUSED, or what a getter or a Proxy trap threw. The levels still open (the first ones,
      // up to where the walk stopped) let go of the value.
      for (const level of this.#levels) {
        if (level.container === undefined) break
        level.container = undefined
        level.keys = undefined
      }
      return false
    }
  }

  /** The written bytes as a string. */
  text(): string {
    return this.bytes.toString('utf8', 0, this.length)
  }

  /** Lowercase hex SHA-256 of the written bytes. */
  sha256Hex(): string {
    return hash('sha256', this.bytes.subarray(0, this.length), 'hex')
  }

  /** Drops a buffer (and a stack) grown large for one value, so an idle writer holds little memory. */
  shrink(): void {
    if (this.bytes.length > KEEP_BYTES) this.bytes = Buffer.allocUnsafe(INITIAL_BYTES)
    if (this.#levels.length > KEEP_LEVELS) this.#levels.length = KEEP_LEVELS
  }

  #walk(value: unknown, maxDepth: number, skipRootKey: string | undefined): void {
    const levels = this.#levels
    let top = -1
    let current = value
    // Where the skipped root member began, to cut it once its value has been checked.
    let skipFrom = -1
    for (;;) {
      switch (typeof current) {
        case 'string':
          this.#quote(current)
          break
        case 'number':
          // Finite only (`NaN - NaN` and `Infinity - Infinity` are NaN); `'' + n` is what
          // fast-json-stable-stringify writes (-0 as 0, 1e21 as 1e+21).
          if (current - current !== 0) throw REFUSED
          this.#ascii('' + current)
          break
        case 'boolean':
          this.#ascii(current ? 'true' : 'false')
          break
        case 'object': {
          if (current === null) {
            this.#ascii('null')
            break
          }
          if (top + 1 >= maxDepth) throw REFUSED
          let keys: string[] | undefined
          let length: number
          if (Array.isArray(current)) {
            if (typeof (current as { toJSON?: unknown }).toJSON === 'function') throw REFUSED
            length = current.length
            if (isOverlongProxy(current, length)) throw REFUSED
            this.#byte(0x5b)
          } else {
            const proto = Object.getPrototypeOf(current)
            if (proto !== objectPrototype && proto !== null) throw REFUSED
            if (typeof (current as { toJSON?: unknown }).toJSON === 'function') throw REFUSED
            keys = Object.keys(current)
            length = keys.length
            if (length <= INSERTION_SORT_MAX) insertionSort(keys)
            else keys.sort()
            this.#byte(0x7b)
          }
          top++
          const level = levels[top]
          if (level === undefined) levels.push({ container: current, keys, length, index: 0, written: 0 })
          else {
            level.container = current
            level.keys = keys
            level.length = length
            level.index = 0
            level.written = 0
          }
          break
        }
        default:
          throw REFUSED
      }
      // The next child to write, closing the containers that are done.
      for (;;) {
        if (top < 0) return
        const level = levels[top]!
        if (top === 0 && skipFrom >= 0) {
          this.length = skipFrom
          skipFrom = -1
        }
        const i = level.index
        if (i >= level.length) {
          this.#byte(level.keys === undefined ? 0x5d : 0x7d)
          level.container = undefined
          level.keys = undefined
          top--
          continue
        }
        level.index = i + 1
        const container = level.container as Record<string | number, unknown>
        const keys = level.keys
        if (keys === undefined) {
          // A hole fails here, at its index: nothing is done per element past it.
          if (!(i in container)) throw REFUSED
          if (i > 0) this.#byte(0x2c)
          current = container[i]
        } else {
          const key = keys[i]!
          if (top === 0 && key === skipRootKey) skipFrom = this.length
          else level.written++
          if (level.written > 1 || (skipFrom >= 0 && level.written > 0)) this.#byte(0x2c)
          this.#quote(key)
          this.#byte(0x3a)
          current = container[key]
        }
        break
      }
    }
  }

  #reserve(count: number): void {
    if (this.length + count <= this.bytes.length) return
    const next = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + count))
    this.bytes.copy(next, 0, 0, this.length)
    this.bytes = next
  }

  #byte(code: number): void {
    if (this.length >= this.bytes.length) this.#reserve(1)
    this.bytes[this.length++] = code
  }

  /** Text known to be ASCII (numbers, literals). */
  #ascii(text: string): void {
    this.#reserve(text.length)
    const bytes = this.bytes
    let at = this.length
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i)
    this.length = at
  }

  /**
   * The JSON string literal of `text` as `JSON.stringify` writes it (`\"`, `\\`, `\b \f \n \r \t`,
   * other control characters as `\u00xx`; everything else as it is), in UTF-8; refuses a lone
   * surrogate.
   */
  #quote(text: string): void {
    const n = text.length
    // Every code unit takes at most 3 bytes (a surrogate pair 4 for two), except the escapes of
    // control characters (6), which reserve their extra room when they occur.
    this.#reserve(3 * n + 2)
    let bytes = this.bytes
    let at = this.length
    bytes[at++] = 0x22
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i)
      if (c < 0x80) {
        if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
          bytes[at++] = c
          continue
        }
        if (at + 6 + 3 * (n - i) + 1 > bytes.length) {
          this.length = at
          this.#reserve(6 + 3 * (n - i) + 1)
          bytes = this.bytes
        }
        bytes[at++] = 0x5c
        switch (c) {
          case 0x22:
          case 0x5c:
            bytes[at++] = c
            break
          case 0x08:
            bytes[at++] = 0x62
            break
          case 0x0c:
            bytes[at++] = 0x66
            break
          case 0x0a:
            bytes[at++] = 0x6e
            break
          case 0x0d:
            bytes[at++] = 0x72
            break
          case 0x09:
            bytes[at++] = 0x74
            break
          default:
            bytes[at++] = 0x75
            bytes[at++] = 0x30
            bytes[at++] = 0x30
            bytes[at++] = HEX.charCodeAt(c >> 4)
            bytes[at++] = HEX.charCodeAt(c & 15)
        }
      } else if (c < 0x800) {
        bytes[at++] = 0xc0 | (c >> 6)
        bytes[at++] = 0x80 | (c & 63)
      } else if (c < 0xd800 || c > 0xdfff) {
        bytes[at++] = 0xe0 | (c >> 12)
        bytes[at++] = 0x80 | ((c >> 6) & 63)
        bytes[at++] = 0x80 | (c & 63)
      } else {
        // A high surrogate followed by a low one is one code point; anything else is refused.
        const d = c <= 0xdbff && i + 1 < n ? text.charCodeAt(i + 1) : 0
        if (d < 0xdc00 || d > 0xdfff) throw REFUSED
        i++
        const point = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000
        bytes[at++] = 0xf0 | (point >> 18)
        bytes[at++] = 0x80 | ((point >> 12) & 63)
        bytes[at++] = 0x80 | ((point >> 6) & 63)
        bytes[at++] = 0x80 | (point & 63)
      }
    }
    bytes[at++] = 0x22
    this.length = at
  }
}

/** Sorts strings by UTF-16 code units in place, as `Array.prototype.sort()` without a comparator does. */
function insertionSort(keys: string[]): void {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!
    let j = i - 1
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!
      j--
    }
    keys[j + 1] = key
  }
}

let idle: CanonicalWriter | undefined

/**
 * Runs `use` with a writer: the idle one when there is one, a new one when a call is already
 * using it (a getter of the value being written may itself ask for canonical JSON).
 */
export function withCanonicalWriter<T>(use: (writer: CanonicalWriter) => T): T {
  const writer = idle ?? new CanonicalWriter()
  idle = undefined
  try {
    return use(writer)
  } finally {
    writer.shrink()
    idle = writer
  }
}
