/**
 * Hooks and redaction (spec 000 "Hooks", spec 001 "Sensitive input fields"): a pre-call hook asks
 * for the full record (so the agent gets it too), a post-call observer sees which view the result
 * holds, and a secret marked sensitive reaches the handler but no event.
 *
 * Run alone: `npx tsx examples/hooks.ts` (or all examples: `npm run demo`).
 */
import { pathToFileURL } from 'node:url'
import Type from 'typebox'
import { createDispatcher, defineTool } from 'result-views'
import { exampleTools } from './tools/catalog.js'
import { heading, json, line } from './print.js'

/** A small tool that needs a credential: the handler gets it, every other surface sees "[REDACTED]". */
const deployTool = defineTool({
  id: 'example__deploy',
  description: 'Deploy a branch with a vault credential.',
  input: Type.Object({ branch: Type.String(), credential: Type.Object({ ref: Type.String(), token: Type.String() }) }, { additionalProperties: false }),
  output: Type.Object({ deployed: Type.String(), used_token_suffix: Type.String() }, { additionalProperties: false }),
  sensitiveInputFields: ['credential.token'],
  risk: 'write',
  handler: (input) => ({ deployed: input.branch, used_token_suffix: input.credential.token.slice(-4) }),
})

export async function hooks(): Promise<void> {
  const dispatcher = createDispatcher({ tools: [...exampleTools(), deployTool] })

  heading('A pre-call hook requests the full record for the calls it cares about')
  const off = dispatcher.hook('tool.pre_call', (payload) => {
    // Skip calls that carry pinned_result_view (Loop nodes): their view is fixed by the Loop.
    if (!payload.has_result_views || payload.pinned_result_view !== undefined) return
    return { tool_input: { ...(payload.tool_input as object), result_view: 'full' } }
  })
  dispatcher.hook('tool.post_call', (payload) => line(`tool.post_call: ${payload.tool_id} result_view=${payload.result_view} preview=${payload.tool_result.preview}`))
  const outcome = await dispatcher.invoke({ tool_id: 'compozy__session_status', input: { session_id: 'sess-example' }, tool_call_id: 'call-31' })
  if (outcome.status === 'ok') {
    line(`the agent got result_view=${outcome.result_view}, with lineage.permission_policy: ${json((outcome.result.structured as { session: { lineage: object } }).session.lineage)}`)
  }

  heading('The same patch on a call a Loop node pinned to compact is skipped by the hook above; forcing it is denied')
  off()
  dispatcher.hook('tool.pre_call', (payload) => ({ tool_input: { ...(payload.tool_input as object), result_view: 'full' } }))
  const pinned = await dispatcher.invoke({ tool_id: 'compozy__session_status', input: { session_id: 'sess-example' }, pinned_result_view: 'compact' })
  if (pinned.status === 'error') line(`${pinned.error.code} | ${pinned.error.reason} | ${pinned.error.message}`)

  heading('A sensitive field: the handler gets the real value, events see "[REDACTED]"')
  const secrets = createDispatcher({ tools: [deployTool] })
  secrets.hook('tool.pre_call', (payload) => line(`tool.pre_call tool_input: ${json(payload.tool_input)}`))
  const deployed = await secrets.invoke({
    tool_id: 'example__deploy',
    input: { branch: 'fix/upload-flake', credential: { ref: 'vault://provider/token', token: 'tok-live-5f2c91' } },
    sensitive_input_fields: ['credential.ref'],
  })
  line(`outcome: ${json(deployed)}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await hooks()
