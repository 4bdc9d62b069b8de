// The demo's CLI lines (examples/http-cli.ts), each with the exit code it expects, run in process
// against the example servers: `npm run demo` runs the same steps through child processes.
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { cliDemo } from '../../examples/http-cli.js'
import { exampleHttpDispatcher, startExampleServers, type ExampleServers } from '../../examples/http-server.js'
import { runCli } from '../cli/support.js'

const dispatcher = exampleHttpDispatcher()
let servers: ExampleServers
beforeAll(async () => {
  servers = await startExampleServers(dispatcher)
})
afterAll(() => servers.close())

it('runs every step of the HTTP/CLI demo with the exit codes it expects', async () => {
  const printed: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text))
  try {
    await cliDemo({ run: (argv, env) => runCli(argv, { env: { ...env } }), mint: async (request) => (await dispatcher.approvals.mintApprovalToken(request)).token }, servers)
  } finally {
    log.mockRestore()
  }
  const text = printed.join('\n')
  expect(text).toContain(`$ result-views tool info compozy__session_status -o json | jq '.tool.descriptor.output_views | keys'\n["compact","full"]\n# exit 0`)
  expect(text).toContain('"completed"')
  expect(printed.filter((line) => line.startsWith('# exit '))).toHaveLength(17)
})
