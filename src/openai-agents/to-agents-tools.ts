import { tool, type FunctionTool, type RunContext } from '@openai/agents'
import { toModelSchema, type Dispatcher, type ToolDescriptor, type UsageProblem } from 'result-views'
import { needsFrameworkApproval, runFrameworkCall } from '../framework-call/framework-call.js'
import { checkFrameworkOptions, frameworkCatalog, type FrameworkToolsOptions, type ResolvedFrameworkOptions } from '../framework-call/framework-options.js'
import { AgentsOptionsError } from './agents-options-error.js'

/** Options of {@link toAgentsTools} (`docs/adapters.md` "Options"). */
export interface AgentsToolsOptions extends FrameworkToolsOptions {}

/** One tool of {@link toAgentsTools}: an OpenAI Agents function tool whose output is the text the model reads. */
export type AgentsTool = FunctionTool<unknown, any, string>

/**
 * The dispatcher's catalog as OpenAI Agents function tools (`@openai/agents` 0.20), in catalog
 * order, for `new Agent({ tools })`: one `tool()` per descriptor of `dispatcher.list()`.
 *
 * - `name`: the tool ID as OpenAI Agents writes function names (letters and digits kept, every
 *   other character `_`); `description`: the descriptor's; `parameters`:
 *   `toModelSchema(input_schema)`, which lists `result_view` for tools with views, with
 *   `strict: false` (`result_view` is optional, and strict mode would require every property).
 * - `execute(input, runContext, details)` calls `dispatcher.invoke({ tool_id, input, scope,
 *   tool_call_id: details.toolCall.callId, signal: details.signal })` (the run's cancellation and
 *   the tool's own timeout cancel the call) and returns the text of `outcomeForModel`: the
 *   selected view's record as JSON, `"<code> (<reason>): <message>"`, or the pending text (never
 *   retry; runs once approved). It never throws for anything the dispatcher answers, so the
 *   SDK's generic "An error occurred" text never replaces a typed error; `errorFunction` is
 *   `null`, so a misuse (a dispatcher that throws) rejects `run()` instead of reaching the model.
 *   A scope resolver that throws is a typed error the model reads.
 * - `approvals: 'framework'` adds `needsApproval`, so `run()` stops with an interruption on calls
 *   whose tool needs approval in the call's scope; once the host calls `result.state.approve(item)`
 *   and runs the state again, `execute` mints a single-use approval token bound to the tool,
 *   scope and input and invokes with it.
 *
 * @throws AgentsOptionsError (`code: 'openai_agents_options_invalid'`) for a dispatcher that is not
 *   one, bad options, or two tool IDs that become one function name; `problems` lists every problem.
 */
export function toAgentsTools(dispatcher: Dispatcher, options?: AgentsToolsOptions): AgentsTool[] {
  const check = checkFrameworkOptions(dispatcher, options)
  if (!check.ok) throw new AgentsOptionsError(check.problems)
  const catalog = frameworkCatalog(dispatcher)
  if (!catalog.ok) throw new AgentsOptionsError(catalog.problems)
  const descriptors = catalog.descriptors
  const tools = descriptors.map((descriptor) => agentsTool(dispatcher, check.options, descriptor))
  const collisions = nameCollisions(descriptors, tools)
  if (collisions.length > 0) throw new AgentsOptionsError(collisions)
  return tools
}

function agentsTool(dispatcher: Dispatcher, options: ResolvedFrameworkOptions, descriptor: ToolDescriptor): AgentsTool {
  const toolId = descriptor.tool_id
  const framework = options.approvals === 'framework'
  const created: AgentsTool = tool({
    name: toolId,
    description: descriptor.description,
    // Any JSON Schema object goes to the model as is with strict: false; the SDK's type wants its own object shape.
    parameters: toModelSchema(descriptor.input_schema) as never,
    strict: false,
    errorFunction: null,
    execute: async (input: unknown, runContext?: RunContext<unknown>, details?: { toolCall?: { callId?: string }; signal?: AbortSignal }): Promise<string> => {
      const callId = details?.toolCall?.callId
      const model = await runFrameworkCall(dispatcher, options, {
        tool_id: toolId,
        tool_call_id: callId,
        context: runContext?.context,
        input,
        approved: framework && callId !== undefined && runContext?.isToolApproved({ toolName: created.name, callId }) === true,
        signal: details?.signal,
      })
      return model.text
    },
    ...(framework
      ? {
          needsApproval: (runContext: RunContext, _input: unknown, callId?: string) =>
            needsFrameworkApproval(dispatcher, options, { tool_id: toolId, tool_call_id: callId, context: runContext.context }),
        }
      : {}),
  }) as AgentsTool
  return created
}

function nameCollisions(descriptors: readonly ToolDescriptor[], tools: readonly AgentsTool[]): UsageProblem[] {
  const problems: UsageProblem[] = []
  const first = new Map<string, number>()
  for (let index = 0; index < tools.length; index++) {
    const name = tools[index]!.name
    const earlier = first.get(name)
    if (earlier === undefined) first.set(name, index)
    else {
      problems.push({
        path: `/dispatcher/list/${index}`,
        code: 'tool_name_collision',
        message: `tool ${JSON.stringify(descriptors[index]!.tool_id)} and tool ${JSON.stringify(descriptors[earlier]!.tool_id)} both become the function name ${JSON.stringify(name)}`,
      })
    }
  }
  return problems
}
