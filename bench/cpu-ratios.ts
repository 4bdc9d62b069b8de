/**
 * The headline invoke ratios again, in CPU time: each candidate runs a block of calls between two
 * `process.cpuUsage()` readings, candidates interleaved in rounds (the order rotated every round),
 * and a figure is the median over rounds of CPU microseconds per call. CPU time leaves out the
 * time this process waits while other processes on a loaded machine run, which wall-clock medians
 * (bench/harness.ts) include; the ratios of both are printed, both from one run.
 */
import { createDispatcher } from 'result-views'
import { realisticSessionFull, realisticSessionInput } from './fixtures/realistic-session.js'
import { RealisticCompactResult, RealisticFullResult, RealisticSessionInput, withoutFormats } from './fixtures/realistic-session-schema.js'
import { formatTable } from './harness.js'
import { handwrittenRealisticProjection } from './handwritten.js'
import { hostCase, ok, sessionCase, toolsOf } from './hot-paths.js'

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** CPU microseconds per call of `run`, over `calls` calls. */
async function cpuPerCall(run: () => Promise<unknown>, calls: number): Promise<number> {
  const start = process.cpuUsage()
  for (let i = 0; i < calls; i++) await run()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / calls
}

/** Runs the CPU-time candidates, prints their table, returns the `cpu_` figures. */
export async function cpuRatiosBench(quick = false): Promise<Record<string, number>> {
  const schemas = { input: RealisticSessionInput, compact: withoutFormats(json(RealisticCompactResult)), full: withoutFormats(json(RealisticFullResult)) }
  const full = structuredClone(realisticSessionFull)
  const plain = sessionCase('plain', schemas, full, realisticSessionInput, handwrittenRealisticProjection)
  const dispatcher = createDispatcher({ tools: toolsOf('plain', schemas, full) })
  const scope = { workspace_id: 'ws_storage', session_id: 'sess-coordinator-01', agent_name: 'general', profile_id: 'prof_backend' }
  const host = hostCase(schemas, full, scope)
  const fullInput = { ...plain.input, result_view: 'full' }
  const candidates: Record<string, () => Promise<unknown>> = {
    baseline: plain.baseline,
    'invoke compact': async () => ok(await dispatcher.invoke({ tool_id: 'bench__plain', input: plain.input, scope })),
    'invoke compact, no scope': async () => ok(await dispatcher.invoke({ tool_id: 'bench__plain', input: plain.input })),
    'invoke compact, tool preview': async () => ok(await dispatcher.invoke({ tool_id: 'bench__plain_preview', input: plain.input, scope })),
    'invoke full': async () => ok(await dispatcher.invoke({ tool_id: 'bench__plain', input: fullInput, scope })),
    'baseline + policy check': host.baseline,
    'invoke, host configuration': async () => ok(await host.dispatcher.invoke(host.request)),
  }
  const names = Object.keys(candidates)
  const calls = quick ? 200 : 5000
  const warmupRounds = quick ? 1 : 4
  const rounds = quick ? 2 : 15
  const samples = new Map<string, number[]>(names.map((name) => [name, []]))
  for (let round = 0; round < warmupRounds + rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!
      const perCall = await cpuPerCall(candidates[name]!, calls)
      if (round >= warmupRounds) samples.get(name)!.push(perCall)
    }
  }
  const median = (name: string): number => {
    const sorted = [...samples.get(name)!].sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)]!
  }
  const baseline = median('baseline')
  const policyBaseline = median('baseline + policy check')
  console.log(
    '\n' +
      formatTable(
        `invoke in CPU time (median of ${rounds} interleaved rounds of ${calls} calls, realistic record without formats, a scope on every call but one)`,
        ['candidate', 'CPU µs / call', 'vs its plain limit'],
        names.map((name) => [name, median(name).toFixed(2), name.startsWith('baseline') ? '' : `${(median(name) / (name.includes('host') ? policyBaseline : baseline)).toFixed(2)}×`]),
      ),
  )
  return {
    cpu_invoke_no_formats_vs_baseline: median('invoke compact') / baseline,
    cpu_invoke_full_no_formats_vs_baseline: median('invoke full') / baseline,
    cpu_invoke_scope_vs_no_scope: median('invoke compact') / median('invoke compact, no scope'),
    cpu_host_config_vs_baseline: median('invoke, host configuration') / policyBaseline,
    cpu_baseline_no_formats_us: baseline,
    cpu_invoke_no_formats_us: median('invoke compact'),
    cpu_invoke_full_no_formats_us: median('invoke full'),
    cpu_host_config_us: median('invoke, host configuration'),
    cpu_default_preview_us: median('invoke compact') - median('invoke compact, tool preview'),
  }
}
