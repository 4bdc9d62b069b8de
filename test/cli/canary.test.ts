// Sensitive input fields and approval tokens through the command: a canary in input keys and
// values (marked with --sensitive-input-field) and an approval token never reach stdout, stderr or
// the server's log lines, in -o json or -o text, on success, failure, or through an approval.
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDispatcher } from 'result-views'
import { createHttpHandler } from 'result-views/http'
import { findSecretLeak, secretCanaryArbitrary } from 'result-views/testing'
import { approveByMode, CANARY, CANARY_CORE, plantedInput, SENSITIVE_FIELDS, vaultTool } from '../support/canary-catalog.js'
import { recordingLogger, serve, type Served } from '../http/support.js'
import { runCli, type CliRun } from './support.js'

const handlerLog = recordingLogger()
const dispatcherLog = recordingLogger()
const dispatcher = createDispatcher({ tools: [vaultTool], policy: approveByMode, logger: dispatcherLog.logger })
let served: Served
const runs: CliRun[] = []

beforeAll(async () => {
  served = await serve(createHttpHandler(dispatcher, { logger: handlerLog.logger }))
})
afterAll(() => served.close())

const scope = ['--workspace', 'ws-1', '--agent', 'agent', '--profile', 'prof-1']
const sensitive = SENSITIVE_FIELDS.flatMap((field) => ['--sensitive-input-field', field])
async function cli(argv: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const run = await runCli([...argv, '--url', served.origin], { env })
  runs.push(run)
  return run
}
const invoke = (mode: string, format: string, extra: string[] = [], canary: string = CANARY) =>
  cli(['tool', 'invoke', 'vault__use', '--input', JSON.stringify(plantedInput(mode, canary)), ...sensitive, ...scope, '-o', format, ...extra])

it('never prints a sensitive key or value, nor an approval token', async () => {
  for (const format of ['json', 'text']) {
    expect((await invoke('ok', format)).code).toBe(0)
    expect((await invoke('fail', format)).code).toBe(1)
    const pending = await invoke('approve', 'json')
    expect(pending.code).toBe(3)
    const id = JSON.parse(pending.stdout).approval_id
    expect((await cli(['approvals', 'show', id, '--profile', 'prof-1', '-o', format])).code).toBe(0)
    expect((await cli(['approvals', 'resolve', id, '--decision', 'approved', '--profile', 'prof-1', '-o', format])).code).toBe(0)
    const failing = JSON.parse((await invoke('approve-fail', 'json')).stdout).approval_id
    expect((await cli(['approvals', 'resolve', failing, '--decision', 'approved', '--profile', 'prof-1', '-o', format])).code).toBe(0)
  }
  // A token whose text carries the canary: refused as unknown, and never shown, from the flag or the environment.
  const token = `tok-${CANARY}`
  expect((await invoke('ok', 'json', ['--approval-token', token])).code).toBe(1)
  expect((await invoke('ok', 'text', [`--approval-token=${token}`])).code).toBe(1)
  expect((await invoke('ok', 'json', [])).code).toBe(0)
  expect((await cli(['tool', 'invoke', 'vault__use', '--input', '{"mode":"ok"}', '-o', 'json'], { RESULT_VIEWS_APPROVAL_TOKEN: token })).code).toBe(1)

  const everything = [...runs.map((run) => run.stdout + run.stderr), JSON.stringify(handlerLog.lines), JSON.stringify(dispatcherLog.lines)].join('\n')
  expect(runs.length).toBeGreaterThan(12)
  expect(everything).not.toContain(CANARY_CORE)
})

it('property: no part of a generated canary, in any encoding, reaches stdout, stderr or a log line', { timeout: 60_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(secretCanaryArbitrary(), fc.constantFrom('ok', 'fail', 'approve-fail'), fc.constantFrom('json', 'text'), async (canary, mode, format) => {
      runs.length = 0
      handlerLog.lines.length = 0
      dispatcherLog.lines.length = 0
      const run = await invoke(mode, mode.startsWith('approve') ? 'json' : format, [], canary)
      if (mode.startsWith('approve')) {
        const id = JSON.parse(run.stdout).approval_id
        await cli(['approvals', 'resolve', id, '--decision', 'approved', '--profile', 'prof-1', '-o', format])
      }
      const everything = [...runs.map((r) => r.stdout + r.stderr), JSON.stringify(handlerLog.lines), JSON.stringify(dispatcherLog.lines)].join('\n')
      expect(runs.length).toBeGreaterThan(0)
      expect(findSecretLeak(everything, canary)).toBeUndefined()
    }),
    { numRuns: 25 },
  )
})
