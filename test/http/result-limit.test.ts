// Result size limits over real HTTP (`maxResultBytes`): the first part from `POST …/invoke`, the
// next ones from `POST …/results/continue`, bound to the scope that made the result.
import Type from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'
import { createHttpHandler, isHttpOptionsError } from 'result-views/http'
import { fetchJson, serve, type Served } from './support.js'

const Item = Type.Object({ id: Type.Integer(), text: Type.String() }, { additionalProperties: false })
const ItemFull = Type.Object({ id: Type.Integer(), text: Type.String(), secret: Type.String() })

const dumpTool = defineTool({
  id: 'docs__dump',
  description: 'Dump documents.',
  input: Type.Object({ count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  output: { compact: Type.Object({ items: Type.Array(Item) }, { additionalProperties: false }), full: Type.Object({ items: Type.Array(ItemFull) }) },
  handler: ({ count }) => ({ items: Array.from({ length: count }, (_, id) => ({ id, text: `“${id}” \\ 😀\n é 中`, secret: `s3cr3t-${id}` })) }),
})

const INVOKE = '/api/tools/docs__dump/invoke'
const CONTINUE = '/api/results/continue'

describe('createHttpHandler maxResultBytes', () => {
  let served: Served
  let plain: Served
  beforeAll(async () => {
    const dispatcher = createDispatcher({ tools: [dumpTool] })
    served = await serve(createHttpHandler(dispatcher, { maxResultBytes: 4096, continuations: { maxEntries: 10 } }))
    plain = await serve(createHttpHandler(dispatcher))
  })
  afterAll(async () => {
    await served.close()
    await plain.close()
  })

  it('answers a large result with its first part and serves the rest from /results/continue, joining to the exact JSON', async () => {
    const whole = await fetchJson(plain.origin, 'POST', INVOKE, { input: { count: 500, result_view: 'full' } })
    const json = JSON.stringify(whole.body.result.structured)
    const first = await fetchJson(served.origin, 'POST', INVOKE, { input: { count: 500, result_view: 'full' }, scope: { workspace_id: 'ws-a' } })
    expect(first.status).toBe(200)
    expect(first.body.result).toEqual({ preview: whole.body.result.preview })
    expect(first.body.result_view).toBe('full')
    let part = first.body.result_part
    expect(part).toMatchObject({ part: 1, bytes_from: 0, total_bytes: Buffer.byteLength(json), result_view: 'full' })
    expect(part.note).toContain('Call POST /api/results/continue with {"continuation":')
    const texts: string[] = [part.result_part]
    while (part.continuation !== undefined) {
      const next = await fetchJson(served.origin, 'POST', CONTINUE, { continuation: part.continuation, scope: { workspace_id: 'ws-a' } })
      expect(next.status).toBe(200)
      part = next.body.result_part
      texts.push(part.result_part)
    }
    for (const text of texts) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096)
    expect(texts.join('')).toBe(json)
    expect(JSON.parse(texts.join(''))).toEqual(whole.body.result.structured)
  })

  it('keeps a result that fits as it was, and compact parts never hold a full-only field', async () => {
    const small = await fetchJson(served.origin, 'POST', INVOKE, { input: { count: 2 } })
    expect(small.body).toEqual((await fetchJson(plain.origin, 'POST', INVOKE, { input: { count: 2 } })).body)
    let part = (await fetchJson(served.origin, 'POST', INVOKE, { input: { count: 300 } })).body.result_part
    const seen = [JSON.stringify(part)]
    while (part.continuation !== undefined) {
      part = (await fetchJson(served.origin, 'POST', CONTINUE, { continuation: part.continuation })).body.result_part
      seen.push(JSON.stringify(part))
    }
    expect(seen.length).toBeGreaterThan(2)
    expect(seen.join('')).not.toContain('s3cr3t')
  })

  it('refuses another scope (403 tool_denied), an unknown handle (400) and a bad body (400), and is 404 without the option', async () => {
    const first = await fetchJson(served.origin, 'POST', INVOKE, { input: { count: 300 }, scope: { workspace_id: 'ws-a' } })
    const handle = first.body.result_part.continuation
    const foreign = await fetchJson(served.origin, 'POST', CONTINUE, { continuation: handle, scope: { workspace_id: 'ws-b' } })
    expect(foreign.status).toBe(403)
    expect(foreign.body.error).toMatchObject({ code: 'tool_denied', reason: 'continuation_scope_mismatch' })
    const unknown = await fetchJson(served.origin, 'POST', CONTINUE, { continuation: 'rvc_nope' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toMatchObject({ code: 'tool_invalid_input', reason: 'continuation_unknown' })
    const extra = await fetchJson(served.origin, 'POST', CONTINUE, { continuation: handle, page: 2 })
    expect(extra.body.error).toMatchObject({ code: 'tool_invalid_input', reason: 'request_invalid' })
    const off = await fetchJson(plain.origin, 'POST', CONTINUE, { continuation: handle })
    expect(off.status).toBe(404)
    expect(off.body.error).toMatchObject({ code: 'http_request_invalid', reason: 'unknown_route' })
  })

  it('refuses bad limit options with HttpOptionsError at /options/…', () => {
    const dispatcher = createDispatcher({ tools: [dumpTool] })
    for (const [options, path] of [
      [{ maxResultBytes: 0 }, '/options/maxResultBytes'],
      [{ continuations: { ttlMs: 10 } }, '/options/continuations'],
      [{ maxResultBytes: 4096, continuations: { maxBytes: -1 } }, '/options/continuations/maxBytes'],
    ] as const) {
      let thrown: unknown
      try {
        createHttpHandler(dispatcher, options as never)
      } catch (error) {
        thrown = error
      }
      expect(isHttpOptionsError(thrown)).toBe(true)
      expect((thrown as { problems: Array<{ path: string }> }).problems.map((p) => p.path)).toEqual([path])
    }
  })
})
