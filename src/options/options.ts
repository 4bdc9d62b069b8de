import { quoted } from '../errors/quote.js'
import { likelyName } from '../errors/spelling.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { appendPointer } from '../json/pointer.js'

/**
 * The one vocabulary of problems every options object and request shares (`docs/errors.md`
 * "Misuse errors", "Options problems"):
 *
 * - `unknown_option`: a key the object does not know, named with the key it was likely meant to
 *   be ("did you mean …?"): a misspelt `policy` must never leave every tool allowed;
 * - `unreadable_option`: reading the object's keys or one member threw (a getter or a Proxy trap);
 * - `invalid_option`: the object is not an object, or a member has the wrong type or value.
 */
export type OptionProblemCode = 'unknown_option' | 'unreadable_option' | 'invalid_option'

/** Unknown keys reported one by one; past this many, one more problem counts the rest. */
const MAX_UNKNOWN_KEYS = 20

/**
 * The declarative table of one options object or request shape: its known keys, in the order
 * "did you mean" prefers them, and the word a message calls a key (`option`, `field`, `flag`).
 */
export interface OptionsTable<K extends string = string> {
  /** Every key the object knows. */
  readonly keys: readonly K[]
  /** The same keys, for a constant-time look-up. */
  readonly known: ReadonlySet<string>
  /** What a message calls one key: `option` for options objects, `field` for requests. */
  readonly noun: string
  /** What a message calls the whole object: `the options`, `the request`. */
  readonly whole: string
  /**
   * Reads every known member of `value` once, by name, into `read` (those that are not
   * `undefined`); returns the keys whose read threw, in table order, or `undefined` for none.
   */
  readonly readMembers: MemberReader
}

/** What {@link OptionsTable.readMembers} is: one read per known key, each in its own guard. */
type MemberReader = (value: object, read: Record<string, unknown>) => string[] | undefined

/** The members of an options object as the reader read them: only the known keys that were present. */
export type OptionValues<K extends string> = { readonly [P in K]?: unknown }

/**
 * Builds the table of an options object or request shape (once, at module load). Keys are plain
 * names; `__proto__` is refused (a table key is stored by assignment).
 */
export function optionsTable<const K extends string>(keys: readonly K[], noun = 'option', whole = 'the options'): OptionsTable<K> {
  if (keys.includes('__proto__' as K)) throw new TypeError('an options table cannot list __proto__')
  return Object.freeze({ keys: Object.freeze([...keys]), known: new Set<string>(keys), noun, whole, readMembers: memberReader(keys) })
}

/**
 * The member reader of a table's keys: generated code reading each key at a site of its own
 * (`value["tool_id"]`), which the engine answers from the object's shape as a plain property read,
 * where one read site shared by every key of every table (`value[key]` in a loop) costs a generic
 * look-up per key; requests are read on every call. The same reads in the same order, each in its
 * own guard; a loop over the keys where code generation is not available.
 */
function memberReader(keys: readonly string[]): MemberReader {
  const reads = keys.map((key) => {
    const name = JSON.stringify(key)
    return `try { m = v[${name}]; } catch { m = undefined; (failed ??= []).push(${name}); }\nif (m !== undefined) r[${name}] = m;`
  })
  try {
    return new Function(`"use strict";\nreturn function readMembers(v, r) {\nlet m, failed;\n${reads.join('\n')}\nreturn failed;\n};`)() as MemberReader
  } catch {
    return (value, read) => {
      let failed: string[] | undefined
      for (const key of keys) {
        try {
          const member = (value as Record<string, unknown>)[key]
          if (member !== undefined) read[key] = member
        } catch {
          ;(failed ??= []).push(key)
        }
      }
      return failed
    }
  }
}

/**
 * Reads `value` as the options object (or request) `table` describes, reporting every problem to
 * `problems` at once, each `{ path, code, message }` with `path` a JSON Pointer under `at`:
 *
 * - `undefined`: no options, an empty record;
 * - not an object (or an array): `invalid_option` at `at`;
 * - an own key the table does not know (enumerable or not), or one on a prototype of `value` below
 *   `Object.prototype` (a class getter, an `Object.create` parent): `unknown_option` at `<at>/<key>`, naming the
 *   key it was likely meant to be (case, `_`/`-` and up to a third of its letters apart); past 20
 *   unknown keys one more problem counts the rest;
 * - listing the keys (a Proxy `ownKeys` trap) or reading a known member (a getter, a Proxy `get`
 *   trap) threw: `unreadable_option` at `at` or `<at>/<key>`, never the host's exception.
 *
 * Each known member is read exactly once, by name (so a getter inherited from a class, or a Proxy
 * `get` trap, counts), and kept when it is not `undefined`; nothing else is read. Own keys,
 * enumerable or not, are listed (a Proxy `ownKeys` trap) only to find the unknown ones.
 *
 * @returns the members read, a fresh object holding only known keys.
 */
export function readOptions<K extends string>(value: unknown, table: OptionsTable<K>, at: string, problems: UsageProblem[]): OptionValues<K> {
  const read: Record<string, unknown> = {}
  const values = read as OptionValues<K>
  if (value === undefined) return values
  let keys: string[]
  try {
    // `Array.isArray` of a revoked Proxy throws: inside the guard, as every read of the value.
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push({ path: at, code: 'invalid_option', message: `${at === '' ? table.whole : at.slice(1)} must be an object` })
      return values
    }
    keys = Object.getOwnPropertyNames(value)
    inheritedKeys(value, keys)
  } catch {
    problems.push({ path: at, code: 'unreadable_option', message: `${at === '' ? table.whole : at.slice(1)} could not be read (a Proxy threw)` })
    return values
  }
  for (let index = 0; index < keys.length; index++) {
    if (!table.known.has(keys[index]!)) {
      unknownKeys(keys, table, at, problems)
      break
    }
  }
  // Every known member by name, as destructuring would: a getter inherited from a class, or a
  // Proxy `get` trap for a key its `ownKeys` does not list, is read too (never silently missed).
  const failed = table.readMembers(value, read)
  if (failed !== undefined) {
    for (const key of failed) problems.push({ path: appendPointer(at, key), code: 'unreadable_option', message: `${key} could not be read (a getter or a Proxy threw)` })
  }
  return values
}

/** How many prototypes above an options object are looked at, at most (a class hierarchy is a few). */
const MAX_PROTOTYPE_DEPTH = 32

/**
 * Adds to `keys` the property names of the prototypes of `value`, up to its realm's
 * `Object.prototype` (`constructor` left out): a known key is read through the prototype (a class
 * getter), so an unknown one there must be refused too, or a misspelt getter fails open. Throws
 * what a Proxy's `getPrototypeOf` or `ownKeys` trap throws: call it inside the guard.
 */
function inheritedKeys(value: object, keys: string[]): void {
  let prototype = Object.getPrototypeOf(value) as object | null
  if (prototype === null || prototype === Object.prototype) return
  const seen = new Set(keys)
  for (let depth = 0; prototype !== null && !isObjectPrototype(prototype); depth++) {
    if (depth === MAX_PROTOTYPE_DEPTH) {
      keys.push('[prototype chain deeper than 32]')
      return
    }
    for (const key of Object.getOwnPropertyNames(prototype)) {
      if (key === 'constructor' || seen.has(key)) continue
      seen.add(key)
      keys.push(key)
    }
    prototype = Object.getPrototypeOf(prototype) as object | null
  }
}

/** `Object.prototype` of this realm or another one (a `vm` context's): the end of an options object's own chain. */
function isObjectPrototype(prototype: object): boolean {
  return prototype === Object.prototype || (Object.getPrototypeOf(prototype) === null && Object.hasOwn(prototype, 'isPrototypeOf'))
}

/** Reports each of `keys` the table does not know (`unknown_option`), at most 20 one by one. */
function unknownKeys(keys: readonly string[], table: OptionsTable, at: string, problems: UsageProblem[]): void {
  let count = 0
  for (const key of keys) {
    if (table.known.has(key)) continue
    if (++count <= MAX_UNKNOWN_KEYS) problems.push(unknownOption(key, table, at))
  }
  if (count > MAX_UNKNOWN_KEYS) problems.push({ path: at, code: 'unknown_option', message: `${count - MAX_UNKNOWN_KEYS} more unknown ${table.noun}s` })
}

/**
 * The problem of one unknown key: `unknown option "polices"; did you mean "policy"?`, or the known
 * keys when none is near.
 */
export function unknownOption(key: string, table: OptionsTable, at: string): UsageProblem {
  const meant = likelyName(key, table.keys)
  const hint = meant === undefined ? ` (known: ${table.keys.join(', ')})` : `; did you mean "${meant}"?`
  return { path: appendPointer(at, key), code: 'unknown_option', message: `unknown ${table.noun} ${quoted(key, 64)}${hint}` }
}

/** An `invalid_option` problem at `<at>/<key>`: `message` says what the member must be. */
export function invalidOption(at: string, key: string, message: string): UsageProblem {
  return { path: appendPointer(at, key), code: 'invalid_option', message }
}
