// Tools, scopes and helpers shared by the approval tests: named after what they hold.
import Type from 'typebox'
import { expect } from 'vitest'
import {
  createMemoryApprovalStores,
  defineApprovalTools,
  defineTool,
  isToolDefinitionError,
  isToolError,
  type ApprovalStores,
  type ApprovalToolsOptions,
  type InvokeOutcome,
  type ToolDefinitionError,
  type ToolError,
} from 'result-views'

/** The scope of a managed session's call. */
export const SCOPE = Object.freeze({ workspace_id: 'ws-1', session_id: 'sess-1', agent_name: 'reviewer', profile_id: 'prof-owner' })

/** A native viewed tool that needs approval and records every input its handler got. */
export function deployTool(calls: unknown[] = []) {
  return defineTool({
    id: 'ops__deploy',
    description: 'Deploy a target.',
    approval: 'required',
    risk: 'write',
    toolsets: ['ops'],
    input: Type.Object({ target: Type.String(), note: Type.Optional(Type.String()) }, { additionalProperties: false }),
    output: {
      compact: Type.Object({ target: Type.String() }, { additionalProperties: false }),
      full: Type.Object({ target: Type.String(), log: Type.String() }, { additionalProperties: false }),
    },
    handler: (input) => {
      calls.push(input)
      return { target: input.target, log: `deployed ${input.target}` }
    },
  })
}

/** A read-only single-result tool that needs no approval. */
export function statusTool(calls: unknown[] = []) {
  return defineTool({
    id: 'ops__status',
    description: 'Read the status of a target.',
    risk: 'read',
    toolsets: ['ops', 'read'],
    input: Type.Object({ target: Type.String() }, { additionalProperties: false }),
    output: Type.Object({ status: Type.String() }, { additionalProperties: false }),
    handler: (input) => {
      calls.push(input)
      return { status: `${input.target} is up` }
    },
  })
}

/** A write tool that declares no approval (a policy may still ask for one). */
export function writeTool(calls: unknown[] = []) {
  return defineTool({
    id: 'notes__write',
    description: 'Write a note.',
    risk: 'write',
    toolsets: ['notes'],
    input: Type.Object({ text: Type.String() }, { additionalProperties: false }),
    output: Type.Object({ written: Type.Boolean() }, { additionalProperties: false }),
    handler: (input) => {
      calls.push(input)
      return { written: true }
    },
  })
}

/** An extension tool that needs approval and has its own `result_view` input (never stripped). */
export function extensionTool(calls: unknown[] = []) {
  return defineTool({
    id: 'ext__render',
    description: 'An extension tool with its own result_view input.',
    origin: 'extension',
    approval: 'required',
    input: Type.Object({ result_view: Type.Number() }, { additionalProperties: false }),
    output: Type.Object({ echoed: Type.Number() }, { additionalProperties: false }),
    handler: (input) => {
      calls.push(input)
      return { echoed: input.result_view }
    },
  })
}

/** The error of an outcome, checked to be a ToolError. */
export function errorOf(outcome: InvokeOutcome): ToolError {
  expect(outcome.status, JSON.stringify(outcome)).toBe('error')
  const error = (outcome as { error: ToolError }).error
  expect(isToolError(error)).toBe(true)
  return error
}

/** `[code, reason]` of an outcome's error. */
export function codeOf(outcome: InvokeOutcome): [string, string] {
  const error = errorOf(outcome)
  return [error.code, error.reason]
}

/** The approval ID of a pending outcome. */
export function approvalIdOf(outcome: InvokeOutcome): string {
  expect(outcome.status, JSON.stringify(outcome)).toBe('approval_pending')
  return (outcome as { approval_id: string }).approval_id
}

/** `[code, reason]` of a rejected promise's ToolError. */
export async function rejectionOf(promise: Promise<unknown>): Promise<[string, string]> {
  try {
    await promise
  } catch (error) {
    expect(isToolError(error), String(error)).toBe(true)
    return [(error as ToolError).code, (error as ToolError).reason]
  }
  throw new Error('expected a rejection')
}

/** A clock tests move by hand. */
export function manualClock(start = Date.parse('2026-11-10T14:00:00.000Z')) {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

/** Memory stores wrapped so every argument and every answer is recorded (for canary searches and call counts). */
export function recordingStores(inner: ApprovalStores = createMemoryApprovalStores()) {
  const seen: unknown[] = []
  const calls: string[] = []
  const wrap = <T extends object>(name: string, store: T): T =>
    new Proxy(store, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          calls.push(`${name}.${String(key)}`)
          seen.push(args)
          const answer = (value as (...a: unknown[]) => unknown).apply(target, args)
          return Promise.resolve(answer).then((resolved) => (seen.push(resolved), resolved))
        }
      },
    })
  const stores: ApprovalStores = { tokens: wrap('tokens', inner.tokens), grants: wrap('grants', inner.grants), pending: wrap('pending', inner.pending) }
  return { stores, seen, calls }
}

/** The ToolDefinitionError `defineApprovalTools` throws for `options`. */
export function definitionError(options: unknown): ToolDefinitionError {
  try {
    defineApprovalTools(options as ApprovalToolsOptions)
  } catch (error) {
    expect(isToolDefinitionError(error), String(error)).toBe(true)
    return error as ToolDefinitionError
  }
  throw new Error('expected a ToolDefinitionError')
}
