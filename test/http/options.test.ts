// Misuse of the handler factories throws HttpOptionsError, a UsageError listing every problem at a
// JSON Pointer into the arguments; good options are taken as they are.
import { describe, expect, it } from 'vitest'
import { UsageErrorCodes, isUsageError } from 'result-views'
import { createFetchHandler, createHttpHandler, isHttpOptionsError, type HttpOptionsError } from 'result-views/http'
import { exampleHttpDispatcher } from '../../examples/http-server.js'

const dispatcher = exampleHttpDispatcher()

function problemsOf(run: () => unknown): { path: string; code: string }[] {
  try {
    run()
  } catch (error) {
    expect(isHttpOptionsError(error)).toBe(true)
    expect(isUsageError(error)).toBe(true)
    expect((error as HttpOptionsError).code).toBe('http_options_invalid')
    expect((error as HttpOptionsError).name).toBe('HttpOptionsError')
    return (error as HttpOptionsError).problems.map(({ path, code }) => ({ path, code }))
  }
  throw new Error('expected an HttpOptionsError')
}

describe('createHttpHandler / createFetchHandler arguments', () => {
  it('registers http_options_invalid as thrown by HttpOptionsError', () => {
    expect(UsageErrorCodes.http_options_invalid).toEqual({ thrownBy: 'HttpOptionsError', subject: 'http handler configuration' })
  })

  it('lists every problem at once, for both factories', () => {
    const options = {
      basePath: 'api/',
      maxBodyBytes: 0,
      bodyTimeoutMs: -1,
      authenticate: 'yes',
      authenticateTimeoutMs: 2 ** 31,
      challenge: 'Bearer\r\nX-Injected: 1',
      logger: { info: () => {} },
      maxBody: 10,
    }
    const expected = [
      { path: '/options/maxBody', code: 'unknown_option' },
      { path: '/options/basePath', code: 'invalid_base_path' },
      { path: '/options/maxBodyBytes', code: 'invalid_limit' },
      { path: '/options/bodyTimeoutMs', code: 'invalid_timeout' },
      { path: '/options/authenticateTimeoutMs', code: 'invalid_timeout' },
      { path: '/options/authenticate', code: 'invalid_callback' },
      { path: '/options/challenge', code: 'invalid_challenge' },
      { path: '/options/logger', code: 'invalid_logger' },
    ]
    expect(problemsOf(() => createHttpHandler(dispatcher, options as never))).toEqual(expected)
    expect(problemsOf(() => createFetchHandler(dispatcher, options as never))).toEqual(expected)
  })

  it('refuses a dispatcher that is not one, options that are not an object, and unreadable options', () => {
    for (const bad of [undefined, {}, { invoke() {}, describe() {}, list() {} }, new Proxy({}, { get: () => { throw new Error('trap') } })]) {
      expect(problemsOf(() => createHttpHandler(bad as never)).map((p) => p.path)).toEqual(['/dispatcher'])
    }
    expect(problemsOf(() => createHttpHandler(dispatcher, [] as never))).toEqual([{ path: '/options', code: 'invalid_option' }])
    expect(problemsOf(() => createHttpHandler(dispatcher, { get basePath() { throw new Error('getter') } } as never))).toEqual([{ path: '/options/basePath', code: 'unreadable_option' }])
    expect(problemsOf(() => createHttpHandler(dispatcher, { 'a/~b': 1 } as never))).toEqual([{ path: '/options/a~1~0b', code: 'unknown_option' }])
  })

  it('accepts the documented values: an empty base path, Infinity timeouts, a quoted challenge', () => {
    expect(typeof createHttpHandler(dispatcher, { basePath: '', bodyTimeoutMs: Infinity, authenticateTimeoutMs: Infinity })).toBe('function')
    expect(typeof createFetchHandler(dispatcher, { basePath: '/v1/tools-api', maxBodyBytes: 1, challenge: 'Bearer realm="tools"' })).toBe('function')
  })

  it('serves the routes under the base path it is given', async () => {
    const handle = createFetchHandler(dispatcher, { basePath: '' })
    expect((await handle(new Request('http://x/tools'))).status).toBe(200)
    expect((await handle(new Request('http://x/api/tools'))).status).toBe(404)
    const nested = createFetchHandler(dispatcher, { basePath: '/v1/x' })
    expect((await nested(new Request('http://x/v1/x/tools/search?q=skill'))).status).toBe(200)
    expect((await nested(new Request('http://x/v1/xtools'))).status).toBe(404)
  })
})
