import { UsageError } from '../errors/usage-error.js'
import { usageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown by `createDispatcher` for an options object it cannot run with (misuse of the library).
 * A `UsageError` with `code: 'dispatcher_options_invalid'`: `problems` lists every problem at
 * once, each with a JSON Pointer into the options and a problem code of the one options
 * vocabulary: `unknown_option` (a key `createDispatcher` does not know, naming the one it was
 * likely meant to be: a misspelt `policy` would otherwise allow every tool), `unreadable_option`
 * (a getter or a Proxy threw), `invalid_option` (options that are not an object, a `clock` that
 * is not a function, a `logger` without `debug`/`info`/`warn`/`error` functions, a
 * `handlerTimeoutMs` that is not a positive number of milliseconds up to 2,147,483,647 or
 * `Infinity`). See `docs/errors.md` "Misuse errors".
 */
export const DispatcherOptionsError = usageErrorClass(UsageError, 'dispatcher_options_invalid')

/** An error of the class DispatcherOptionsError (`new DispatcherOptionsError(problems, cause?)`; `code: 'dispatcher_options_invalid'`). */
export type DispatcherOptionsError = CodedUsageError<'dispatcher_options_invalid'>

/** True for a {@link DispatcherOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isDispatcherOptionsError = DispatcherOptionsError.is
