/**
 * The message of an error that lists every problem at once: `<subject> is invalid (N problems):`
 * then one `  - <path>: <message>` line per problem (`/` for the root path).
 */
export function problemListMessage(subject: string, verb: 'is' | 'are', problems: ReadonlyArray<{ path: string; message: string }>): string {
  const lines = problems.map((p) => `  - ${p.path || '/'}: ${p.message}`)
  return `${subject} ${verb} invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}`
}
