// A tool whose handler waits until its `context.signal` aborts: for the cancellation tests of every surface.
import Type from 'typebox'
import { defineTool } from 'result-views'

/** The tool, a promise that settles once its handler runs, and one that settles with the abort reason it saw. */
export function waitingTool() {
  let started!: () => void
  let aborted!: (reason: unknown) => void
  const running = new Promise<void>((resolve) => (started = resolve))
  const abortSeen = new Promise<unknown>((resolve) => (aborted = resolve))
  const tool = defineTool({
    id: 'slow__wait',
    description: 'Waits until cancelled.',
    input: Type.Object({}),
    output: Type.Object({}),
    handler: (_input, context) =>
      new Promise<never>(() => {
        context.signal.addEventListener('abort', () => aborted(context.signal.reason))
        started()
      }),
  })
  return { tool, running, abortSeen }
}
