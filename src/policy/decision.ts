import type { PolicyDecision } from './policy.js'

/**
 * The decision if `value` is a well-formed {@link PolicyDecision}: `allow`, `deny` with a string
 * `reason`, or `approval_required` (optional string `reason`); `undefined` for anything else,
 * which callers treat as a failed policy (never as an allow).
 */
export function checkDecision(value: unknown): PolicyDecision | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const d = value as Record<string, unknown>
  const owner = d.owner === undefined || typeof d.owner === 'string'
  switch (d.decision) {
    case 'allow':
      return { decision: 'allow' }
    case 'deny':
      if (typeof d.reason !== 'string' || !owner) return undefined
      return d.owner === undefined ? { decision: 'deny', reason: d.reason } : { decision: 'deny', reason: d.reason, owner: d.owner as string }
    case 'approval_required':
      if ((d.reason !== undefined && typeof d.reason !== 'string') || !owner) return undefined
      return {
        decision: 'approval_required',
        ...(d.reason === undefined ? {} : { reason: d.reason as string }),
        ...(d.owner === undefined ? {} : { owner: d.owner as string }),
      }
    default:
      return undefined
  }
}
