// A reply nested deeper than JSON.stringify can write (a tool echoing 4,500-deep input) is
// answered like any other, over a real Node listener and through the fetch handler.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createFetchHandler, createHttpHandler } from 'result-views/http'
import { dispatcher } from '../cli/fixtures/echo-catalog.js'

const deep = `${'['.repeat(4_500)}${']'.repeat(4_500)}`
const body = `{"input":{"v":${deep}}}`

describe('http-deep-reply-stack-overflow', () => {
  it('answers 200 with the deep result through createFetchHandler', async () => {
    const response = await createFetchHandler(dispatcher)(new Request('http://local.invalid/api/tools/echo/invoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body }), { local: true })
    expect(response.status).toBe(200)
    expect(await response.text()).toContain(`"structured":{"d":${deep}}`)
  })

  it('answers 200 with the deep result over a loopback listener', async () => {
    const server = createServer(createHttpHandler(dispatcher))
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tools/echo/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      expect(response.status).toBe(200)
      expect(await response.text()).toContain(`"structured":{"d":${deep}}`)
    } finally {
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
    }
  })
})
