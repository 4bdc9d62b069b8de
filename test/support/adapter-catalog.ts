// The catalog both framework adapters are tested on (result-views/ai, result-views/openai-agents):
// a viewed tool, a single-result tool, an approval-gated tool and a tool whose secret input a
// pre-call hook injects, with the exact texts a model must read.
import Type from 'typebox'
import { createDispatcher, defineTool, type Dispatcher } from 'result-views'
import { deployTool, SCOPE } from '../approval/fixtures.js'
import { noteTool, skillTool } from './tools.js'

export { SCOPE }

/** A secret that must never reach anything a framework records. */
export const CANARY = 'sk-canary-7f3a91c0'

/** The compact and full records of `notes__read` (the full-only `body` must not leak into compact calls). */
export const NOTE_COMPACT = { id: 'n1', title: 'Groceries' }
export const NOTE_FULL = { id: 'n1', title: 'Groceries', body: 'eggs, milk', tags: ['home'] }

/** Spec 000 "Errors", rows 1 and 3, as the model reads them. */
export const UNKNOWN_VIEW_TEXT = 'tool_invalid_input (schema_invalid): tool "notes__read" input "result_view" must be one of "compact", "full"'
export const SINGLE_RESULT_VIEW_TEXT = 'tool_invalid_input (schema_invalid): tool "skills__view" returns a single result and does not accept "result_view"'

/** The pending text of `outcomeForModel` for `ops__deploy`. */
export function pendingText(approvalId: string): string {
  return (
    `approval_pending: approval_id=${approvalId}: tool "ops__deploy" did not run; it is waiting on approval ${approvalId} and will run once ` +
    'when the host approves it, and its result is recorded with the approval. Do not call it again to make it run: a new call opens a new approval'
  )
}

/** What every handler of the catalog received, per tool. */
export interface CatalogCalls {
  readonly notes: unknown[]
  readonly skills: unknown[]
  readonly deploy: unknown[]
  readonly vault: unknown[]
}

/**
 * The catalog's dispatcher. `vault__fetch` declares `api_key` sensitive; a pre-call hook injects
 * the key ({@link CANARY}) so the model never sends or sees it; its handler fails naming the key
 * when asked for a missing item, and the dispatcher must scrub that message.
 */
export function adapterCatalog(): { dispatcher: Dispatcher; calls: CatalogCalls } {
  const calls: CatalogCalls = { notes: [], skills: [], deploy: [], vault: [] }
  const vault = defineTool({
    id: 'vault__fetch',
    description: 'Fetch one item from the vault.',
    input: Type.Object({ item: Type.String(), api_key: Type.Optional(Type.String()) }, { additionalProperties: false }),
    output: Type.Object({ item: Type.String(), found: Type.Boolean() }, { additionalProperties: false }),
    sensitiveInputFields: ['api_key'],
    handler: (input) => {
      calls.vault.push(input)
      if (input.item === 'missing') throw new Error(`vault refused key ${input.api_key} for item "missing"`)
      return { item: input.item, found: true }
    },
  })
  const dispatcher = createDispatcher({
    tools: [noteTool(calls.notes), skillTool(calls.skills), deployTool(calls.deploy), vault],
    hooks: {
      'tool.pre_call': (payload) =>
        payload.tool_id === 'vault__fetch' ? { tool_input: { ...(payload.tool_input as Record<string, unknown>), api_key: CANARY } } : undefined,
    },
  })
  return { dispatcher, calls }
}
