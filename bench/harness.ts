/**
 * The benchmark harness: candidates measured with tinybench in interleaved rounds, so that a
 * slow moment of this shared machine hits every candidate alike, after a long warm-up so the
 * optimizing compiler has finished with large generated functions before anything is timed.
 *
 * Each candidate runs `batch` operations per sample (timer overhead must not dominate
 * sub-microsecond work); a figure is the median over every sample of every round, per operation.
 * Ratios are medians of one run against medians of the same run, never absolute times.
 */
import { Bench } from 'tinybench'

/** One thing to time: `run` is one operation (sync, or async when it returns a promise). */
export interface Candidate {
  readonly name: string
  readonly run: () => unknown
  /** Operations per sample. */
  readonly batch: number
  readonly async?: boolean
}

/** How long to warm up and measure. */
export interface RoundOptions {
  /** Warm-up time per candidate, in milliseconds, spread over {@link warmupRounds} rounds. */
  readonly warmupMs: number
  readonly warmupRounds: number
  /** Measured rounds; each runs every candidate for {@link roundMs}. */
  readonly rounds: number
  readonly roundMs: number
}

/** The rounds of a benchmark: a few seconds of warm-up and eight interleaved rounds, or a smoke run with `--quick` (figures are noise then). */
export function roundsFor(quick: boolean, roundMs = 150, warmupMs = 2000): RoundOptions {
  return quick ? { warmupMs: 200, warmupRounds: 2, rounds: 2, roundMs: 30 } : { warmupMs, warmupRounds: 4, rounds: 8, roundMs }
}

/** What was measured for one candidate: nanoseconds per operation. */
export interface Measured {
  readonly name: string
  readonly medianNs: number
  readonly p25Ns: number
  readonly p75Ns: number
  readonly samples: number
}

function batched(candidate: Candidate): () => unknown {
  const { run, batch } = candidate
  if (candidate.async === true) {
    return async () => {
      for (let i = 0; i < batch; i++) await run()
    }
  }
  return () => {
    for (let i = 0; i < batch; i++) run()
  }
}

async function runRound(candidates: readonly Candidate[], timeMs: number, offset: number, retain: boolean): Promise<Map<string, readonly number[]>> {
  const bench = new Bench({ time: timeMs, iterations: 4, warmup: false, retainSamples: retain, throws: true })
  // Rotate the order every round: no candidate always runs right after the same other one.
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[(i + offset) % candidates.length]!
    bench.add(candidate.name, batched(candidate))
  }
  await bench.run()
  const out = new Map<string, readonly number[]>()
  if (!retain) return out
  for (const candidate of candidates) {
    const result = bench.getTask(candidate.name)?.result as { latency?: { samples?: readonly number[] } } | undefined
    const samples = result?.latency?.samples
    if (samples === undefined) throw new Error(`benchmark task "${candidate.name}" has no samples`)
    out.set(candidate.name, samples.map((ms) => (ms * 1e6) / candidate.batch))
  }
  return out
}

function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q
  const lo = Math.floor(at)
  const hi = Math.ceil(at)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo)
}

/** Warms every candidate up, then measures them in interleaved rounds. */
export async function measureInRounds(candidates: readonly Candidate[], options: RoundOptions): Promise<Map<string, Measured>> {
  const names = new Set(candidates.map((c) => c.name))
  if (names.size !== candidates.length) throw new Error('benchmark candidates need distinct names')
  for (let r = 0; r < options.warmupRounds; r++) await runRound(candidates, options.warmupMs / options.warmupRounds, r, false)
  const samples = new Map<string, number[]>(candidates.map((c) => [c.name, []]))
  for (let r = 0; r < options.rounds; r++) {
    for (const [name, list] of await runRound(candidates, options.roundMs, r, true)) samples.get(name)!.push(...list)
  }
  const out = new Map<string, Measured>()
  for (const [name, list] of samples) {
    const sorted = [...list].sort((a, b) => a - b)
    out.set(name, { name, medianNs: quantile(sorted, 0.5), p25Ns: quantile(sorted, 0.25), p75Ns: quantile(sorted, 0.75), samples: sorted.length })
  }
  return out
}

/** The median of `name`, in nanoseconds per operation. */
export function median(measured: ReadonlyMap<string, Measured>, name: string): number {
  const m = measured.get(name)
  if (m === undefined) throw new Error(`no measurement named "${name}"`)
  return m.medianNs
}

const ns = (value: number): string => (value >= 10_000 ? `${(value / 1000).toFixed(1)} µs` : value >= 1000 ? `${(value / 1000).toFixed(2)} µs` : `${value.toFixed(0)} ns`)

/** A plain-text table of the measurements: median and interquartile range per operation. */
export function formatMeasured(title: string, measured: ReadonlyMap<string, Measured>): string {
  const rows = [...measured.values()].map((m) => [m.name, ns(m.medianNs), `${ns(m.p25Ns)} – ${ns(m.p75Ns)}`, String(m.samples)])
  return formatTable(title, ['candidate', 'median / op', 'p25 – p75', 'samples'], rows)
}

/** A plain-text table: first column left-aligned, the others right-aligned. */
export function formatTable(title: string, header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)))
  const line = (row: readonly string[]): string => '  ' + row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')
  return [title, line(header), '  ' + widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}
