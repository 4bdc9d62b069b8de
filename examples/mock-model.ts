/**
 * An offline AI SDK model for the examples and tests: `MockLanguageModelV3` from `ai/test` playing a
 * script, one turn per model call (tool calls, or a final text). Every call's options, i.e. the
 * prompt the SDK would send a provider, stay in `model.doGenerateCalls`.
 */
import { MockLanguageModelV3 } from 'ai/test'

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>

/** One scripted model turn. */
export type ModelTurn = { readonly calls: ReadonlyArray<{ readonly toolCallId: string; readonly toolName: string; readonly input: unknown }> } | { readonly text: string }

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
}

/** A mock model that answers the turns in order and throws past the last one. */
export function scriptedModel(turns: readonly ModelTurn[]): MockLanguageModelV3 {
  const results: GenerateResult[] = turns.map((turn) =>
    'text' in turn
      ? { content: [{ type: 'text', text: turn.text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }
      : {
          content: turn.calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.toolCallId, toolName: call.toolName, input: JSON.stringify(call.input) })),
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        },
  )
  let next = 0
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const result = results[next++]
      if (result === undefined) throw new Error(`the scripted model has no turn ${next}`)
      return result
    },
  })
}

/** The tool-result parts of the prompt of model call `index`: what the model read of each tool call. */
export function toolResultsShown(model: MockLanguageModelV3, index: number): Array<{ toolCallId: string; output: unknown }> {
  const prompt = model.doGenerateCalls[index]?.prompt ?? []
  return prompt.flatMap((message) =>
    message.role === 'tool' ? message.content.flatMap((part) => (part.type === 'tool-result' ? [{ toolCallId: part.toolCallId, output: part.output }] : [])) : [],
  )
}
