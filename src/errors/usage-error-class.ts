import { defineBrand } from './brand.js'
import { UsageErrorCodes, type UsageErrorCode } from './codes.js'
import { problemListMessage } from './problem-list.js'
import type { UsageError, UsageProblem } from './usage-error.js'

/** The class name the registry gives a misuse code (`UsageErrorCodes[code].thrownBy`). */
export type UsageErrorName<C extends UsageErrorCode> = (typeof UsageErrorCodes)[C]['thrownBy']

/** A {@link UsageError} of one registered misuse code: its `code` and its class `name` are fixed. */
export interface CodedUsageError<C extends UsageErrorCode> extends UsageError {
  /** The class name the registry gives `code`, e.g. `'HttpOptionsError'`. */
  readonly name: UsageErrorName<C>
  /** The misuse code (`docs/errors.md` "Misuse errors"). */
  readonly code: C
}

/** What every generated class has besides its constructor: a guard that works across bundle copies. */
export interface UsageErrorGuard<C extends UsageErrorCode> {
  /** True for an error of this class from any copy of this library (a global brand, not `instanceof`). */
  readonly is: (value: unknown) => value is CodedUsageError<C>
  /** The prototype of the class's errors (so `instanceof` works within one copy of the library). */
  readonly prototype: CodedUsageError<C>
}

/** A class whose subject (the message's first words) is the registry's: `new X(problems, cause?)`. */
export interface UsageErrorClass<C extends UsageErrorCode> extends UsageErrorGuard<C> {
  /**
   * Builds the error; its message lists every problem under the registry's subject.
   *
   * @param problems - every problem found, at least one, each `{ path, code, message }`.
   * @param cause - the underlying error, kept as the non-enumerable `cause`.
   */
  new (problems: readonly UsageProblem[], cause?: unknown): CodedUsageError<C>
}

/** A class whose caller names the subject: `new X(subject, problems, cause?)`. */
export interface SubjectUsageErrorClass<C extends UsageErrorCode> extends UsageErrorGuard<C> {
  /**
   * Builds the error; its message lists every problem under `subject`.
   *
   * @param subject - what was misused, e.g. `migrate options`, `lock file "x.json"`.
   * @param problems - every problem found, at least one, each `{ path, code, message }`.
   * @param cause - the underlying error, kept as the non-enumerable `cause`.
   */
  new (subject: string, problems: readonly UsageProblem[], cause?: unknown): CodedUsageError<C>
}

/** The base class the generated ones extend: passed in, so a subpath extends the root's own copy. */
type UsageErrorBase = typeof UsageError

/**
 * The class of misuse code `code`, generated from its registry entry (`UsageErrorCodes`: the
 * class name `thrownBy`, the `subject` its message starts with): one line per class, the way
 * fastify's `createError` table builds its errors. Its message lists every problem
 * (`<subject> is invalid (N problems):` then `  - <path>: <message>`; `are` after a subject
 * ending in `options`).
 */
export function usageErrorClass<C extends CodedWithSubject>(base: UsageErrorBase, code: C): UsageErrorClass<C> {
  const subject: string = UsageErrorCodes[code].subject
  return generate(base, code, (args) => [subject, args[0] as readonly UsageProblem[], args[1]]) as unknown as UsageErrorClass<C>
}

/** As {@link usageErrorClass}, for a class whose caller names the subject (`new X(subject, problems, cause?)`). */
export function subjectUsageErrorClass<C extends UsageErrorCode>(base: UsageErrorBase, code: C): SubjectUsageErrorClass<C> {
  return generate(base, code, (args) => [args[0] as string, args[1] as readonly UsageProblem[], args[2]]) as unknown as SubjectUsageErrorClass<C>
}

/** The codes whose registry entry names a subject. */
type CodedWithSubject = { [C in UsageErrorCode]: (typeof UsageErrorCodes)[C] extends { subject: string } ? C : never }[UsageErrorCode]

function generate(base: UsageErrorBase, code: UsageErrorCode, split: (args: unknown[]) => [string, readonly UsageProblem[], unknown]): UsageErrorBase {
  const name = UsageErrorCodes[code].thrownBy
  const brand = defineBrand(`result-views.${name}`)
  const generated = class extends base {
    static readonly is = (value: unknown): boolean => brand.has(value)
    constructor(...args: unknown[]) {
      const [subject, problems, cause] = split(args)
      super({ code, subject, problems, cause, message: problemListMessage(subject, subject.endsWith('options') ? 'are' : 'is', problems) })
      ;(this as { name: string }).name = name
      brand.mark(this)
    }
  }
  Object.defineProperty(generated, 'name', { value: name })
  return generated as unknown as UsageErrorBase
}
