/**
 * The reference meaning of a policy pattern's `*` (any run of characters, including none; every
 * other character matches itself), by dynamic programming over (pattern, id) prefixes:
 * O(|pattern| × |id|), never exponential, so it can judge large inputs.
 */
export function referenceWildcardMatch(pattern: string, id: string): boolean {
  let row = new Array<boolean>(id.length + 1).fill(false)
  row[0] = true
  for (const p of pattern) {
    const next = new Array<boolean>(id.length + 1).fill(false)
    next[0] = p === '*' && row[0]!
    for (let j = 1; j <= id.length; j++) next[j] = p === '*' ? row[j]! || next[j - 1]! : row[j - 1]! && p === id[j - 1]
    row = next
  }
  return row[id.length]!
}
