import { UsageError } from '../errors/usage-error.js'
import { usageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown by `dispatcher.hook`, `hookTool` and `createDispatcher({ hooks, hookTimeoutMs })` for misuse. A
 * {@link UsageError} with `code: 'hook_registration_invalid'`: `problems` lists every problem,
 * each with a problem code and a JSON Pointer: into the `createDispatcher` options
 * (`/hooks/tool.bogus`, `/hooks/tool.pre_call/1`, `/hookTimeoutMs`), or naming the argument of
 * `dispatcher.hook(event, handler)` (`/event`, `/handler`). Problem codes: `invalid_hooks` (not an
 * object of handlers per event), `unknown_event`, `invalid_handler`, `invalid_timeout`, and from
 * `hookTool` `not_a_dispatcher`, `not_a_defined_tool`, `tool_not_held` (`/dispatcher`, `/tool`).
 */
export const HookRegistrationError = usageErrorClass(UsageError, 'hook_registration_invalid')

/** An error of the class HookRegistrationError (`new HookRegistrationError(problems, cause?)`; `code: 'hook_registration_invalid'`). */
export type HookRegistrationError = CodedUsageError<'hook_registration_invalid'>

/** True for an {@link HookRegistrationError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isHookRegistrationError = HookRegistrationError.is
