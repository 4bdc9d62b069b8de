// The request target of the Node listener: a plain path is read as it is, any other target goes
// through `new URL`. Held against the fetch handler, which always parses an absolute URL with
// `new URL`: for any target, the Node listener answers what the fetch handler answers for the
// same target resolved against a base, status, body and `Allow` alike.
import { Agent, request as httpRequest } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFetchHandler, createHttpHandler } from 'result-views/http'
import { exampleHttpDispatcher } from '../../examples/http-server.js'
import { serve, type Served } from './support.js'

interface Seen {
  readonly status: number
  readonly allow: string | null
  readonly body: unknown
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const dispatcher = exampleHttpDispatcher()
const fetchHandler = createFetchHandler(dispatcher)
let served: Served
beforeAll(async () => {
  served = await serve(createHttpHandler(dispatcher))
})
afterAll(async () => {
  agent.destroy()
  await served.close()
})

/** A GET of `target` as sent, or `undefined` when Node's own parser refused it (not our answer). */
function nodeGet(target: string): Promise<Seen | undefined> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port: served.port, path: target, method: 'GET', agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) return done(undefined)
        done({ status: res.statusCode ?? 0, allow: (res.headers.allow as string | undefined) ?? null, body: JSON.parse(text) })
      })
    })
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'ERR_INVALID_CHAR' ? done(undefined) : fail(error)))
    req.end()
  })
}

/** The same target through the fetch handler, as the old listener parsed it: resolved against a base. */
async function fetchGet(target: string): Promise<Seen> {
  const response = await fetchHandler(new Request(new URL(target, 'http://127.0.0.1').href), { local: true })
  return { status: response.status, allow: response.headers.get('allow'), body: await response.json() }
}

const PIECES = ['api', 'tools', 'search', 'compozy__session_status', 'approvals', 'tool-approval-grants', 'invoke', 'a.b', '.', '..', '%2e', '%2E%2e', '%41', '%zz', '%e2%82%ac', '%ff', '', 'x y'.replace(' ', '%20'), '@', ':id', "!$&'()*+,;=", '~', '\\', '?q=a', '?workspace_id=ws_example', '#frag', '^', '|', '[', ']', '{', '"']

describe('request targets of the Node listener', () => {
  it('answer as the same target parsed by new URL does, for plain paths and every other shape', async () => {
    const known = ['/api/tools', '/api/tools/', '/api//tools', '/api/tools/./compozy__session_status', '/api/tools/%2e%2e/tools', '/api/a/../tools', '//api/tools', '/api/tools?x=1', '/api', '/apix', '/', '/api/tools/search?q=session', '/api/tools/compozy__session_status/invoke']
    for (const target of known) {
      const seen = await nodeGet(target)
      if (seen !== undefined) expect(seen, target).toEqual(await fetchGet(target))
    }
    // A target no URL has (found by this property: `/\\` reads as `//` with an empty host).
    const unparsable = await nodeGet('/\\')
    expect(unparsable?.status).toBe(400)
    expect(JSON.stringify(unparsable?.body)).toContain('path_invalid')
    const target = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.stringMatching(/^[A-Za-z0-9._~-]{1,6}$/)), { maxLength: 5 }).map((parts) => '/' + parts.join('/'))
    await fc.assert(
      fc.asyncProperty(fc.oneof(target, target.map((path) => '/api' + path)), async (path) => {
        const seen = await nodeGet(path)
        fc.pre(seen !== undefined)
        if (!URL.canParse(path, 'http://127.0.0.1')) {
          // No URL has this target (a `\\` after the first `/` reads as `//`, an empty host): no
          // fetch request can carry it, and the listener refuses it as the router always did.
          expect(seen!.status).toBe(400)
          expect(JSON.stringify(seen!.body)).toContain('path_invalid')
          return
        }
        expect(seen).toEqual(await fetchGet(path))
      }),
      { numRuns: 300 },
    )
  })
})

