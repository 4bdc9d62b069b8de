/**
 * Whether the AI SDK's own approval step approved the call `toolCallId`: the message history the
 * SDK hands to `execute` holds an assistant `tool-approval-request` for that call and a tool
 * `tool-approval-response` with `approved: true` for the same `approvalId`. The SDK runs an
 * approved call only after checking exactly this (and, with `experimental_toolApprovalSecret`, the
 * request's signature), so the adapter reads the same evidence. Anything unreadable or malformed
 * reads as not approved: the call then goes to the dispatcher without a token, which never runs a
 * call that needs approval.
 */
export function approvedBySdk(messages: unknown, toolCallId: string): boolean {
  try {
    if (!Array.isArray(messages)) return false
    const approvalIds = new Set<string>()
    for (const part of partsOf(messages, 'assistant')) {
      if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId && typeof part.approvalId === 'string') approvalIds.add(part.approvalId)
    }
    if (approvalIds.size === 0) return false
    for (const part of partsOf(messages, 'tool')) {
      if (part.type === 'tool-approval-response' && part.approved === true && approvalIds.has(part.approvalId as string)) return true
    }
    return false
  } catch {
    return false
  }
}

function* partsOf(messages: readonly unknown[], role: 'assistant' | 'tool'): Generator<Record<string, unknown>> {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Record<string, unknown> | null | undefined
    if (typeof message !== 'object' || message === null || message.role !== role || !Array.isArray(message.content)) continue
    const content: readonly unknown[] = message.content
    for (let j = 0; j < content.length; j++) {
      const part = content[j]
      if (typeof part === 'object' && part !== null) yield part as Record<string, unknown>
    }
  }
}
