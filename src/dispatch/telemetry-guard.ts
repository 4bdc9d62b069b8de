import type { CallTelemetry, DispatchTelemetry, TelemetryCallEnd, TelemetryCallStart, TelemetryResultSizes, TelemetryStage, TelemetryStageFacts, TraceContext } from '../telemetry/telemetry.js'

/**
 * Starts a call's recorder behind a guard (`docs/telemetry.md` "A failing recorder"): a host's
 * recorder (or the tracer, meter or context manager under it) that throws is dropped for the rest
 * of the call, which runs as if untraced; telemetry never changes an outcome.
 *
 * @returns the guarded recorder, or `undefined` when `startCall` threw (the call runs untraced).
 */
export function startGuarded(telemetry: DispatchTelemetry, start: TelemetryCallStart): CallTelemetry | undefined {
  try {
    const recorder = telemetry.startCall(start)
    if (typeof recorder !== 'object' || recorder === null) return undefined
    return new GuardedCall(recorder)
  } catch {
    return undefined
  }
}

/** Tells `telemetry` an approval is settled; a throw is dropped. */
export function settleGuarded(telemetry: DispatchTelemetry, approvalId: string): void {
  try {
    telemetry.approvalSettled(approvalId)
  } catch {
    // Telemetry is best effort.
  }
}

/** A recorder whose every method is guarded; after its first throw it records nothing more. */
class GuardedCall implements CallTelemetry {
  readonly trace_context: TraceContext | undefined
  readonly recordSizes: boolean
  #recorder: CallTelemetry | undefined

  constructor(recorder: CallTelemetry) {
    this.#recorder = recorder
    // Each read once, here: a getter that throws drops the recorder.
    let context: TraceContext | undefined
    let sizes = false
    try {
      context = recorder.trace_context
      sizes = recorder.recordSizes === true
    } catch {
      this.#recorder = undefined
      context = undefined
      sizes = false
    }
    this.trace_context = context
    this.recordSizes = sizes
  }

  #each(record: (recorder: CallTelemetry) => void): void {
    const recorder = this.#recorder
    if (recorder === undefined) return
    try {
      record(recorder)
    } catch {
      this.#recorder = undefined
    }
  }

  stage(stage: TelemetryStage, facts?: TelemetryStageFacts): void {
    this.#each((recorder) => recorder.stage(stage, facts))
  }

  inputDigest(digest: string): void {
    this.#each((recorder) => recorder.inputDigest(digest))
  }

  sizes(sizes: TelemetryResultSizes): void {
    this.#each((recorder) => recorder.sizes(sizes))
  }

  end(end: TelemetryCallEnd): void {
    this.#each((recorder) => recorder.end(end))
    this.#recorder = undefined
  }

  /**
   * Runs `run` in the recorder's active context. When the recorder throws before it called `run`,
   * `run` is called directly (once); when it throws after, `run`'s own answer or throw stands: the
   * handler never runs twice, nor loses what it answered.
   */
  runActive<T>(run: () => T): T {
    const recorder = this.#recorder
    if (recorder === undefined) return run()
    let ran = false
    let threw = false
    let thrown: unknown
    let answer: T | undefined
    try {
      recorder.runActive(() => {
        ran = true
        try {
          answer = run()
        } catch (error) {
          threw = true
          thrown = error
          throw error
        }
        return answer
      })
    } catch (error) {
      // A throw other than the handler's own is the recorder's.
      if (!threw || error !== thrown) this.#recorder = undefined
    }
    if (!ran) {
      // The recorder never called `run` (it threw first, or returned without): run it directly, once.
      this.#recorder = undefined
      return run()
    }
    if (threw) throw thrown
    // The handler's own answer, whatever the recorder returned.
    return answer as T
  }
}
