import { UsageError } from 'result-views'
import { optionsTable } from '../options/options.js'
import { readTestingOptions } from './testing-options.js'
import type FC from 'fast-check'
import { escapePointerToken } from '../json/pointer.js'
import { fc, lazy } from './fast-check.js'

/** Shortest part of a canary {@link findSecretLeak} reports by default, in UTF-16 code units. */
export const DEFAULT_LEAK_PART_LENGTH = 8

/** Characters that change a secret's text when it is encoded: JSON (`"`, `\`), JSON Pointer (`/`, `~`), both at once, a quote. */
const SEPARATORS = ['/', '~', '"', '\\', '~0', '~1', "'", '/~', '"\\'] as const

/** Letters and digits of a canary's chunks: upper case, so they stand out from the lower-case text around them. */
const chunk = lazy(() => fc.stringMatching(/^[A-Z0-9]{4,8}$/))

/**
 * Canary secrets for leak tests (`docs/hooks.md` "Sensitive input fields"): 2 to 8 chunks of 4-8
 * upper-case letters and digits, each pair joined by one of `/`, `~`, `"`, `\`, `~0`, `~1`, `'`,
 * `/~`, `"\` (so every encoding the library scrubs changes the text), between 9 and 78 UTF-16
 * code units long. Plant one in input keys and values under a sensitive path, run the
 * surfaces under test, and look for it with {@link findSecretLeak}.
 *
 * @returns a fast-check arbitrary of canary strings; shrinks towards two short chunks. Throws a
 *   `UsageError` (`fast_check_unavailable`) when the optional peer `fast-check` is not installed.
 */
export function secretCanaryArbitrary(): FC.Arbitrary<string> {
  const CHUNK = chunk()
  return fc
    .tuple(CHUNK, fc.array(fc.tuple(fc.constantFrom(...SEPARATORS), CHUNK), { minLength: 1, maxLength: 7 }))
    .map(([first, rest]) => first + rest.map(([separator, chunk]) => separator + chunk).join(''))
}

/** Options of {@link findSecretLeak}. */
export interface FindSecretLeakOptions {
  /** Shortest part of the canary (in any of its forms) that counts as a leak, in UTF-16 code units. Default {@link DEFAULT_LEAK_PART_LENGTH}; at least 1. */
  minPartLength?: number
}

const LEAK_OPTIONS = optionsTable(['minPartLength'])

/** A part of a canary found in text: which form it was found in, and the part itself. */
export interface SecretLeak {
  /**
   * `raw`, `json`, `pointer`, `percent` (`encodeURIComponent`), `urlencoded` (`URLSearchParams`),
   * `uri` (`encodeURI`), one inside another such as `json(pointer)` or `urlencoded(json)`, or a
   * URL-encoded one with lower-case hex digits such as `lowerhex(percent)`.
   */
  readonly form: string
  /** The characters found: `minPartLength` consecutive characters of that form (all of it when shorter). */
  readonly part: string
}

/** JSON-escaped text, as inside a JSON string literal. */
const json = (text: string): string => JSON.stringify(text).slice(1, -1)
/** JSON Pointer token escaping (RFC 6901). */
const pointer = escapePointerToken
/** `encodeURIComponent`, or `undefined` for text it refuses (a lone surrogate): that form is not looked for. */
function percent(text: string): string | undefined {
  try {
    return encodeURIComponent(text)
  } catch {
    return undefined
  }
}
/** `application/x-www-form-urlencoded`, as `URLSearchParams` (and `url.searchParams`) write a value: space → `+`, only `*-._` and ASCII letters and digits left as they are; a lone surrogate as U+FFFD. */
const urlencoded = (text: string): string => new URLSearchParams([['', text]]).toString().slice(1)
/** `encodeURI`, or `undefined` for text it refuses (a lone surrogate). */
function uri(text: string): string | undefined {
  try {
    return encodeURI(text)
  } catch {
    return undefined
  }
}
/** The encodings that put text in a URL: one is not looked for inside another (nothing encodes a URL twice). */
const URL_ENCODINGS: ReadonlySet<string> = new Set(['percent', 'urlencoded', 'uri'])
/** Percent-escapes with their hex digits in lower case (`%2F` → `%2f`). */
const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())

/**
 * The first part of `canary` found in `text` in any of the forms a secret takes in text: as it is,
 * JSON-escaped (`json`), JSON-Pointer-escaped (`pointer`), and in a URL: percent-encoded
 * (`percent`: `encodeURIComponent`), form-encoded (`urlencoded`: `URLSearchParams`, space → `+`)
 * and as `encodeURI` writes it (`uri`); each of these inside each other (a pointer inside JSON,
 * JSON inside JSON, JSON in a URL: `urlencoded(json)`), except one URL encoding inside another;
 * and every form holding a URL encoding also with lower-case hex digits (`lowerhex(percent)`:
 * `%2f`). A part is any run of `minPartLength` consecutive characters of one form, so a secret cut
 * at a length limit is found too. This is written independently of the library's scrubber, as a
 * test oracle.
 *
 * Never throws on the text or canary it checks: a form that cannot be encoded (a canary, or its
 * pointer form, holding a lone surrogate, which `encodeURIComponent` and `encodeURI` refuse) is
 * not looked for in that encoding; every other form still is (form encoding writes a lone
 * surrogate as U+FFFD, as `URLSearchParams` does). It throws only for bad options: a `UsageError`
 * (`testing_argument_invalid`) naming an unknown key or a `minPartLength` that is not an integer ≥ 1.
 *
 * @param text - what a surface wrote (an event's JSON, a log line, an error message, a file's bytes).
 * @param canary - the planted secret, from {@link secretCanaryArbitrary} (or any string at least `minPartLength` long).
 * @returns the first {@link SecretLeak} found, `undefined` when there is none.
 */
export function findSecretLeak(text: string, canary: string, options: FindSecretLeakOptions = {}): SecretLeak | undefined {
  const read = readTestingOptions('findSecretLeak', options, LEAK_OPTIONS)
  const given = read.minPartLength
  if (given !== undefined && (typeof given !== 'number' || !Number.isInteger(given) || given < 1)) {
    throw new UsageError({ code: 'testing_argument_invalid', subject: 'findSecretLeak options', problems: [{ path: '/minPartLength', code: 'invalid_option', message: 'minPartLength must be an integer ≥ 1' }] })
  }
  const min = (given as number | undefined) ?? DEFAULT_LEAK_PART_LENGTH
  const encodings: Array<[string, (value: string) => string | undefined]> = [
    ['json', json],
    ['pointer', pointer],
    ['percent', percent],
    ['urlencoded', urlencoded],
    ['uri', uri],
  ]
  const forms = new Map<string, string>([['raw', canary]])
  const add = (name: string, value: string | undefined): void => {
    if (value !== undefined) forms.set(name, value)
  }
  for (const [name, encode] of encodings) add(name, encode(canary))
  for (const [outer, encodeOuter] of encodings) {
    for (const [inner, encodeInner] of encodings) {
      if (outer === inner && outer !== 'json') continue
      if (URL_ENCODINGS.has(outer) && URL_ENCODINGS.has(inner)) continue
      const innerForm = encodeInner(canary)
      add(`${outer}(${inner})`, innerForm === undefined ? undefined : encodeOuter(innerForm))
    }
  }
  for (const [name, value] of [...forms]) {
    if (name.split(/[()]/).some((encoding) => URL_ENCODINGS.has(encoding))) add(`lowerhex(${name})`, lowerHex(value))
  }
  const length = Math.max(1, Math.trunc(min))
  // The forms share most of their parts (`json(percent)` is `percent`: percent-encoding leaves
  // nothing for JSON to escape; the letters between escapes are the same in every form), and a part
  // not found once is not found again: each is looked for once, so the first form holding it names it.
  const looked = new Set<string>()
  for (const [form, value] of forms) {
    if (value.length <= length) {
      if (!looked.has(value) && text.includes(value)) return { form, part: value }
      looked.add(value)
      continue
    }
    for (let start = 0; start + length <= value.length; start++) {
      const part = value.slice(start, start + length)
      if (looked.has(part)) continue
      if (text.includes(part)) return { form, part }
      looked.add(part)
    }
  }
  return undefined
}
