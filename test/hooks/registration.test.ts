// Registering hooks: createDispatcher({ hooks, hookTimeoutMs }) and dispatcher.hook, and their misuse.
import { describe, expect, it } from 'vitest'
import { HookRegistrationError, createDispatcher, isHookRegistrationError, isUsageError } from 'result-views'
import { noteTool } from '../support/tools.js'

function registrationError(run: () => unknown): HookRegistrationError {
  try {
    run()
  } catch (error) {
    expect(isHookRegistrationError(error)).toBe(true)
    expect(isUsageError(error)).toBe(true)
    return error as HookRegistrationError
  }
  throw new Error('expected a HookRegistrationError')
}

describe('hook registration misuse (HookRegistrationError)', () => {
  it('lists every problem of createDispatcher hooks at once, each at its JSON Pointer', () => {
    const error = registrationError(() =>
      createDispatcher({
        tools: [],
        hookTimeoutMs: 0,
        hooks: { 'tool.bogus': () => undefined, 'tool.pre_call': [() => undefined, 'x'], 'tool.post_call': 5 } as never,
      }),
    )
    expect(error.code).toBe('hook_registration_invalid')
    expect(error.problems.map((p) => [p.path, p.code])).toEqual([
      ['/hookTimeoutMs', 'invalid_timeout'],
      ['/hooks/tool.bogus', 'unknown_event'],
      ['/hooks/tool.pre_call/1', 'invalid_handler'],
      ['/hooks/tool.post_call', 'invalid_handler'],
    ])
    expect(error.message).toContain('hook registration is invalid (4 problems)')
  })

  it('names the argument of dispatcher.hook that is wrong', () => {
    const dispatcher = createDispatcher({ tools: [noteTool()] })
    expect(registrationError(() => dispatcher.hook('tool.pre' as never, (() => {}) as never)).problems).toEqual([
      { path: '/event', code: 'unknown_event', message: 'unknown hook event "tool.pre"; expected one of tool.pre_call, tool.post_call, tool.post_error' },
    ])
    expect(registrationError(() => dispatcher.hook('tool.pre_call', 'x' as never)).problems).toEqual([
      { path: '/handler', code: 'invalid_handler', message: 'the handler of tool.pre_call must be a function' },
    ])
  })

  it('refuses a sparse handler list of 2^32 - 1 holes at its first hole, without walking it', () => {
    const holes: unknown[] = []
    holes.length = 2 ** 32 - 1
    const error = registrationError(() => createDispatcher({ tools: [], hooks: { 'tool.post_error': holes } as never }))
    expect(error.problems).toEqual([expect.objectContaining({ path: '/hooks/tool.post_error/0', code: 'invalid_handler' })])
  })

  it('refuses hooks it cannot read (a throwing getter) as a typed error, registering nothing', () => {
    const hooks = {
      get 'tool.pre_call'(): never {
        throw new Error('getter boom')
      },
    }
    expect(registrationError(() => createDispatcher({ tools: [], hooks: hooks as never })).problems).toEqual([
      expect.objectContaining({ path: '/hooks', code: 'invalid_hooks' }),
    ])
  })

  it('escapes event names in pointers (RFC 6901)', () => {
    const error = registrationError(() => createDispatcher({ tools: [], hooks: { 'a/b~c': () => undefined } as never }))
    expect(error.problems[0]!.path).toBe('/hooks/a~1b~0c')
  })
})

describe('hook registration misuse, by code', () => {
  it('refuses unknown hook events given to createDispatcher', () => {
    expect(() => createDispatcher({ tools: [], hooks: { 'tool.bogus': () => undefined } as never })).toThrow(expect.objectContaining({ code: 'hook_registration_invalid' }))
    expect(() => createDispatcher({ tools: [], hooks: 'x' as never })).toThrow(expect.objectContaining({ code: 'hook_registration_invalid' }))
  })

  it('refuses a hookTimeoutMs that is not a positive number', () => {
    expect(() => createDispatcher({ tools: [], hookTimeoutMs: 0 })).toThrow(expect.objectContaining({ code: 'hook_registration_invalid' }))
  })
})
