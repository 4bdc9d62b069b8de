// docs/http.md: every request/response pair of ```http blocks is replayed, in order, against the
// example server; the status, each header shown and the body shown must match what it answers.
// "…" matches any value (and ends a list that has more items); {approval_id}, {grant_id} and
// {approval_token} stand for the values of the steps before.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXAMPLE_SCOPE, exampleHttpDispatcher, startExampleServers, type ExampleServers } from '../../examples/http-server.js'
import { documentMatches } from '../support/doc-match.js'

const page = readFileSync(new URL('../../docs/http.md', import.meta.url), 'utf8')
const blocks = [...page.matchAll(/^```http\n([\s\S]*?)^```$/gm)].map((match) => match[1]!)

interface Message {
  readonly start: string
  readonly headers: [string, string][]
  readonly body: string
}

function messageOf(block: string): Message {
  const [head = '', ...rest] = block.split('\n\n')
  const [start = '', ...headerLines] = head.split('\n')
  const headers = headerLines.filter(Boolean).map((line) => {
    const at = line.indexOf(':')
    return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()] as [string, string]
  })
  return { start, headers, body: rest.join('\n\n').trim() }
}

const dispatcher = exampleHttpDispatcher()
let servers: ExampleServers
beforeAll(async () => {
  servers = await startExampleServers(dispatcher)
})
afterAll(() => servers.close())

describe('docs/http.md examples', () => {
  it('has request and response blocks in pairs', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(40)
    expect(blocks.length % 2).toBe(0)
  })

  it('answers every example request as the page shows', async () => {
    const values: Record<string, string> = {}
    const fill = (text: string) => text.replace(/\{(approval_id|grant_id|approval_token)\}/g, (whole, name: string) => values[name] ?? whole)
    for (let index = 0; index < blocks.length; index += 2) {
      const request = messageOf(blocks[index]!)
      const response = messageOf(blocks[index + 1]!)
      const [method = '', target = ''] = request.start.split(' ')
      if (request.body.includes('{approval_token}') && values.approval_token === undefined) {
        values.approval_token = (await dispatcher.approvals.mintApprovalToken({ tool_id: 'compozy__session_archive', scope: EXAMPLE_SCOPE, input: { session_id: 'sess-example' } })).token
      }
      const init: RequestInit = { method, headers: Object.fromEntries(request.headers) }
      if (request.body.length > 0) init.body = fill(request.body)
      const answer = await fetch(servers.url + fill(target), init)
      const what = `${request.start} (example ${index / 2 + 1})`
      expect(answer.status, what).toBe(Number(response.start.split(' ')[1]))
      for (const [name, value] of response.headers) expect(answer.headers.get(name), `${what}: ${name}`).toBe(value)
      const body = (await answer.json()) as any
      if (response.body.length > 0) expect(documentMatches(body, JSON.parse(fill(response.body))), `${what}\n${JSON.stringify(body)}`).toBe(true)
      const approvalId = body.approval_id ?? body.approval?.approval_id
      if (typeof approvalId === 'string') values.approval_id = approvalId
      if (typeof body.grant?.grant_id === 'string') values.grant_id = body.grant.grant_id
    }
  })
})
