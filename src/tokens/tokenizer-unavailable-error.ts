import { UsageError } from 'result-views'
import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.TokenizerUnavailableError')

/**
 * Thrown when tokens must be counted, no `countTokens` function was passed, and the optional peer
 * dependency `gpt-tokenizer` (4.x, o200k) cannot be loaded. A `UsageError` (root entry) with
 * `code: 'tokenizer_unavailable'`: one problem at `/countTokens` (`tokenizer_missing`) says how to
 * fix it (install `gpt-tokenizer`, or pass `countTokens`); the loader's error is the `cause`. See
 * `docs/contracts.md` "Token budgets".
 */
export class TokenizerUnavailableError extends UsageError {
  /** Always `'TokenizerUnavailableError'`. */
  override readonly name = 'TokenizerUnavailableError'
  /** Always `'tokenizer_unavailable'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'tokenizer_unavailable'

  /**
   * @param subject - what needed the tokens, e.g. `measureViews options`.
   * @param cause - what loading `gpt-tokenizer` threw.
   */
  constructor(subject: string, cause: unknown) {
    const message = 'no countTokens function was given and the optional peer dependency gpt-tokenizer (4.x) could not be loaded: run `npm install gpt-tokenizer@4`, or pass countTokens'
    super({
      code: 'tokenizer_unavailable',
      subject,
      problems: [{ path: '/countTokens', code: 'tokenizer_missing', message }],
      // One line that names the missing package first ("<subject> is invalid" said nothing about it).
      message: `cannot count tokens for ${subject}: ${message}`,
      cause,
    })
    brand.mark(this)
  }
}

/** True for a {@link TokenizerUnavailableError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isTokenizerUnavailableError(value: unknown): value is TokenizerUnavailableError {
  return brand.has(value)
}
