// The catalog the approvals console tests serve: a tool that needs approval, takes a secret in a
// sensitive input field, and counts its handler runs.
import Type from 'typebox'
import { createDispatcher, createMemoryApprovalStores, defineTool, type Dispatcher } from 'result-views'

export const CONSOLE_SCOPE = Object.freeze({ workspace_id: 'ws-console', session_id: 'sess-1', agent_name: 'reviewer', profile_id: 'prof-owner' })

/** A dispatcher whose `ops__deploy` needs approval; `runs` holds every input its handler got. */
export function consoleDispatcher(): { dispatcher: Dispatcher; runs: { target: string; token?: string }[] } {
  const runs: { target: string; token?: string }[] = []
  const deploy = defineTool({
    id: 'ops__deploy',
    description: 'Deploy a target.',
    approval: 'required',
    risk: 'write',
    sensitiveInputFields: ['token'],
    input: Type.Object({ target: Type.String(), token: Type.Optional(Type.String()) }, { additionalProperties: false }),
    output: Type.Object({ deployed: Type.String() }, { additionalProperties: false }),
    handler: (input) => {
      runs.push(input)
      return { deployed: input.target }
    },
    preview: (record) => `deployed ${record.deployed}`,
  })
  return { dispatcher: createDispatcher({ tools: [deploy], approvals: createMemoryApprovalStores() }), runs }
}
