/** Builds a JSON Pointer (RFC 6901) from tokens: `toPointer(['graph', 'nodes', 0])` → `/graph/nodes/0`. */
export function toPointer(tokens: ReadonlyArray<string | number>): string {
  let out = ''
  for (const token of tokens) out += '/' + String(token).replace(/~/g, '~0').replace(/\//g, '~1')
  return out
}
