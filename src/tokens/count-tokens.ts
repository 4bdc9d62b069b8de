import { createRequire } from 'node:module'
import type { UsageProblem } from 'result-views'
import { TokenizerUnavailableError } from './tokenizer-unavailable-error.js'

/**
 * Counts the tokens of a text, synchronously: a non-negative integer. The default is
 * `gpt-tokenizer`'s o200k encoding (the one GPT-4o and later models use), with special-token
 * text such as `<|endoftext|>` counted as ordinary text.
 */
export type CountTokens = (text: string) => number

/** The module of the default tokenizer (an optional peer dependency, loaded on first use). */
const TOKENIZER_MODULE = 'gpt-tokenizer/encoding/o200k_base'

/** The name recorded for the default tokenizer; `'custom'` names a caller's `countTokens`. */
export const DEFAULT_TOKENIZER = 'o200k_base'

let loaded: CountTokens | undefined

/**
 * The default counter, loading `gpt-tokenizer` on first use (about 0.3 s, then cached).
 *
 * @throws TokenizerUnavailableError (`tokenizer_unavailable`) when it cannot be loaded.
 */
export function defaultCountTokens(subject: string): CountTokens {
  if (loaded !== undefined) return loaded
  let count: unknown
  try {
    count = (createRequire(import.meta.url)(TOKENIZER_MODULE) as { countTokens?: unknown }).countTokens
  } catch (error) {
    throw new TokenizerUnavailableError(subject, error)
  }
  if (typeof count !== 'function') throw new TokenizerUnavailableError(subject, new TypeError(`${TOKENIZER_MODULE} has no countTokens function`))
  // Special tokens are text here: the default options throw on "<|endoftext|>" inside a record.
  const options = { disallowedSpecial: new Set<string>() }
  const counter: CountTokens = (text) => (count as (text: string, options: object) => number)(text, options)
  loaded = counter
  return counter
}

/** Throws the caller's misuse error for a problem of its `countTokens` (`cause`: what it threw). */
export type CountTokensFailure = (problem: UsageProblem, cause?: unknown) => never

/**
 * The counter a measuring function uses: the caller's `countTokens`, each answer checked (a
 * non-negative safe integer, returned synchronously; a throw is reported with its cause), or the
 * default when `countTokens` is `undefined`. `fail` throws the caller's error class.
 *
 * @throws TokenizerUnavailableError when the default is needed and cannot be loaded.
 */
export function tokenCounter(countTokens: unknown, subject: string, fail: CountTokensFailure): CountTokens {
  if (countTokens === undefined) return defaultCountTokens(subject)
  if (typeof countTokens !== 'function') {
    fail({ path: '/countTokens', code: 'invalid_count_tokens', message: 'countTokens must be a function from text to a token count' })
  }
  return (text) => {
    let count: unknown
    try {
      count = countTokens(text)
    } catch (error) {
      return fail({ path: '/countTokens', code: 'count_tokens_threw', message: `countTokens threw: ${describeThrown(error)}` }, error)
    }
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
      return fail({ path: '/countTokens', code: 'invalid_token_count', message: 'countTokens must return a non-negative integer, synchronously' })
    }
    return count
  }
}

/** The message of a thrown value, cut to 200 characters, without ever throwing itself. */
export function describeThrown(error: unknown): string {
  try {
    const text = error instanceof Error ? String(error.message) : 'a value that is not an Error'
    return text.length > 200 ? `${text.slice(0, 200)}…` : text
  } catch {
    return 'an error whose message cannot be read'
  }
}
