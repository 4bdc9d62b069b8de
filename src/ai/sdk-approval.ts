import { canonicalJson } from 'result-views'

/**
 * Whether the AI SDK's own approval step approved this very call: the message history the SDK
 * hands to `execute` holds an assistant message with a `tool-approval-request` for `toolCallId`
 * AND, in the same message, the `tool-call` it asks about, of the tool `toolId` with the same
 * input (RFC 8785 canonical JSON equal to `input`); and a tool `tool-approval-response` with
 * `approved: true` for that `approvalId`. Call IDs come from the provider and may repeat across
 * turns, so an approval of another tool or another input under the same ID never counts. Anything
 * unreadable or malformed reads as not approved: the call then goes to the dispatcher without a
 * token, which never runs a call that needs approval.
 */
export function approvedBySdk(messages: unknown, toolCallId: string, toolId: string, input: unknown): boolean {
  try {
    if (!Array.isArray(messages) || messages.length > MAX_ITEMS) return false
    const wanted = canonicalJson(input)
    const approvalIds = new Set<string>()
    for (const content of contentsOf(messages, 'assistant')) {
      const asked = content.filter((part) => part.type === 'tool-approval-request' && part.toolCallId === toolCallId && typeof part.approvalId === 'string')
      if (asked.length === 0) continue
      const matches = content.some((part) => part.type === 'tool-call' && part.toolCallId === toolCallId && part.toolName === toolId && sameJson(part.input, wanted))
      if (matches) for (const part of asked) approvalIds.add(part.approvalId as string)
    }
    if (approvalIds.size === 0) return false
    for (const content of contentsOf(messages, 'tool')) {
      if (content.some((part) => part.type === 'tool-approval-response' && part.approved === true && approvalIds.has(part.approvalId as string))) return true
    }
    return false
  } catch {
    return false
  }
}

/**
 * Most messages, and parts of one message, read: a history longer than this (or a sparse array
 * with a huge length) is not walked, and reads as not approved.
 */
const MAX_ITEMS = 100_000

/** Whether `value` is plain JSON whose canonical text is `canonical`. */
function sameJson(value: unknown, canonical: string): boolean {
  try {
    return canonicalJson(value) === canonical
  } catch {
    return false
  }
}

/** The object parts of each message of `role`, one array per message. */
function* contentsOf(messages: readonly unknown[], role: 'assistant' | 'tool'): Generator<Record<string, unknown>[]> {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Record<string, unknown> | null | undefined
    if (typeof message !== 'object' || message === null || message.role !== role || !Array.isArray(message.content) || message.content.length > MAX_ITEMS) continue
    const content: readonly unknown[] = message.content
    const parts: Record<string, unknown>[] = []
    for (let j = 0; j < content.length; j++) {
      const part = content[j]
      if (typeof part === 'object' && part !== null) parts.push(part as Record<string, unknown>)
    }
    yield parts
  }
}
