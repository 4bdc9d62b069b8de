// A catalog for sensitive-field canary tests over the HTTP and CLI surfaces: one tool whose
// failure message quotes its whole input, and a policy that asks for approval when `mode` starts
// with "approve".
import Type from 'typebox'
import { defineTool, type ToolPolicy } from 'result-views'

/** A canary with "/", "~", quotes and backslashes; its core `c4n4ry` survives every encoding (raw, JSON-escaped, JSON-Pointer-escaped, percent-encoded). */
export const CANARY = 'c4n4ry/~0"\\\'secret~1'
/** What to search for: any leak of {@link CANARY}, in any of those encodings, contains it. */
export const CANARY_CORE = 'c4n4ry'

/** `vault__use`: succeeds (returning nothing of its input) unless `mode` contains "fail", then throws with its whole input in the message. */
export const vaultTool = defineTool({
  id: 'vault__use',
  description: 'Use a secret.',
  input: Type.Object({ mode: Type.String(), secret_ref: Type.Optional(Type.String()), nested: Type.Optional(Type.Unknown()) }, { additionalProperties: false }),
  output: Type.Object({ ok: Type.Boolean() }, { additionalProperties: false }),
  handler: (input) => {
    if (input.mode.includes('fail')) throw new Error(`could not use ${JSON.stringify(input)}`)
    return { ok: true }
  },
})

/** Approval for `mode: "approve…"`, allow otherwise. */
export const approveByMode: ToolPolicy = {
  decide: ({ input }) => ((input as { mode?: string }).mode?.startsWith('approve') ? { decision: 'approval_required' } : { decision: 'allow' }),
}

/** The sensitive fields of every canary call. */
export const SENSITIVE_FIELDS = ['secret_ref', 'nested']

/** An input with the canary (by default {@link CANARY}) in sensitive values and in the keys of a sensitive object. */
export function plantedInput(mode: string, canary: string = CANARY): Record<string, unknown> {
  return { mode, secret_ref: canary, nested: { [canary]: canary, list: [canary, { [`k${canary}`]: canary }] } }
}
