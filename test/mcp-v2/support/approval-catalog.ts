// A catalog whose one writing tool needs approval, and a read-only tool that says how many times
// the writing tool's handler ran: the approval suites read "nothing ran" and "ran once" from it,
// in process and across a process boundary alike.
import Type from 'typebox'
import { createDispatcher, createMemoryApprovalStores, defineTool, type ApprovalStores, type Dispatcher } from 'result-views'

export const DEPLOY = 'ops__deploy'
export const RUNS = 'ops__runs'

/** A dispatcher over `stores` (shared by every dispatcher given the same ones); `runs` counts the deploy handler's runs. */
export function approvalDispatcher(stores: ApprovalStores = createMemoryApprovalStores(), runs = { count: 0 }): Dispatcher {
  const deploy = defineTool({
    id: DEPLOY,
    description: 'Deploy a build to an environment.',
    input: Type.Object({ env: Type.String() }, { additionalProperties: false }),
    output: Type.Object({ deployed: Type.String(), run: Type.Integer() }),
    risk: 'write',
    handler: ({ env }) => ({ deployed: env, run: ++runs.count }),
  })
  const count = defineTool({
    id: RUNS,
    description: 'How many deploys ran.',
    input: Type.Object({}),
    output: Type.Object({ runs: Type.Integer() }),
    risk: 'read',
    handler: () => ({ runs: runs.count }),
  })
  return createDispatcher({
    tools: [deploy, count],
    policy: { decide: ({ tool }) => (tool.id === DEPLOY ? { decision: 'approval_required', reason: 'deploys need a human' } : { decision: 'allow' }) },
    approvals: stores,
  })
}
