import type { InvokeOutcome, InvokeRequest } from '../call/call.js'
import type { HookEvent, HookHandlers } from '../hooks/events.js'
import type { UsageProblem } from '../errors/usage-error.js'
import { isDefinedTool } from '../tool/brand.js'
import type { Tool } from '../tool/types.js'

/** What `invokeTool` and `hookTool` need of a dispatcher `createDispatcher` made: its own parts, not the object's (replaceable) methods. */
export interface HeldDispatcher {
  /** The catalog, by tool ID (the tool objects `defineTool` returned). */
  readonly tools: ReadonlyMap<string, Tool>
  /** The dispatcher's own `invoke`. */
  readonly invoke: (request: InvokeRequest) => Promise<InvokeOutcome>
  /** The dispatcher's own hook registration. */
  readonly hook: <E extends HookEvent>(event: E, handler: HookHandlers[E]) => () => void
}

// Keyed by the object createDispatcher returned. A WeakMap answers without touching its key, so a
// Proxy or a look-alike is simply not found.
const held = new WeakMap<object, HeldDispatcher>()

/** Records the parts of a dispatcher `createDispatcher` made; returns the dispatcher. */
export function holdDispatcher<D extends object>(dispatcher: D, parts: HeldDispatcher): D {
  held.set(dispatcher, parts)
  return dispatcher
}

/** The parts of a dispatcher `createDispatcher` made (in this copy of the library), or `undefined` for anything else. */
export function heldDispatcher(value: unknown): HeldDispatcher | undefined {
  return typeof value === 'object' && value !== null ? held.get(value) : undefined
}

/** What {@link typedCallArguments} found: the parts and the ID when both arguments are usable, and every problem. */
export interface TypedCallArguments {
  /** The dispatcher's parts, when `createDispatcher` made it. */
  readonly held: HeldDispatcher | undefined
  /** The tool's ID, when it is a tool `defineTool` returned. */
  readonly toolId: string | undefined
  /** `/dispatcher` `not_a_dispatcher`, `/tool` `not_a_defined_tool`; empty when both are usable. */
  readonly problems: UsageProblem[]
}

/**
 * Checks the `(dispatcher, tool)` arguments of `invokeTool` and `hookTool`. A tool whose brand or
 * ID cannot be read (a Proxy that throws) is not a defined tool; whether the dispatcher holds this
 * very tool object is for the caller to check, against `held.tools`.
 */
export function typedCallArguments(fn: string, dispatcher: unknown, tool: unknown): TypedCallArguments {
  const held = heldDispatcher(dispatcher)
  const problems: UsageProblem[] = []
  if (held === undefined) {
    problems.push({ path: '/dispatcher', code: 'not_a_dispatcher', message: `${fn} needs a dispatcher createDispatcher returned (a wrapper cannot show which tools it holds)` })
  }
  let toolId: unknown
  try {
    toolId = isDefinedTool(tool) ? tool.id : undefined
  } catch {
    toolId = undefined
  }
  if (typeof toolId !== 'string') problems.push({ path: '/tool', code: 'not_a_defined_tool', message: 'not a tool returned by defineTool' })
  return { held, toolId: typeof toolId === 'string' ? toolId : undefined, problems }
}
