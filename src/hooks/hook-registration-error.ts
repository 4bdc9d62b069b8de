import { defineBrand } from '../errors/brand.js'
import { UsageError, type UsageProblem } from '../errors/usage-error.js'

const brand = defineBrand('result-views.HookRegistrationError')

/**
 * Thrown by `dispatcher.hook`, `hookTool` and `createDispatcher({ hooks, hookTimeoutMs })` for misuse. A
 * {@link UsageError} with `code: 'hook_registration_invalid'`: `problems` lists every problem,
 * each with a problem code and a JSON Pointer: into the `createDispatcher` options
 * (`/hooks/tool.bogus`, `/hooks/tool.pre_call/1`, `/hookTimeoutMs`), or naming the argument of
 * `dispatcher.hook(event, handler)` (`/event`, `/handler`). Problem codes: `invalid_hooks` (not an
 * object of handlers per event), `unknown_event`, `invalid_handler`, `invalid_timeout`, and from
 * `hookTool` `not_a_dispatcher`, `not_a_defined_tool`, `tool_not_held` (`/dispatcher`, `/tool`).
 */
export class HookRegistrationError extends UsageError {
  /** Always `'HookRegistrationError'`. */
  override readonly name = 'HookRegistrationError'
  /** Always `'hook_registration_invalid'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'hook_registration_invalid'

  /** @param problems - every problem found, at least one. */
  constructor(problems: readonly UsageProblem[]) {
    super({ code: 'hook_registration_invalid', subject: 'hook registration', problems })
    brand.mark(this)
  }
}

/** True for a {@link HookRegistrationError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isHookRegistrationError(value: unknown): value is HookRegistrationError {
  return brand.has(value)
}
