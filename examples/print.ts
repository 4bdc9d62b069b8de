/** Small printing helpers shared by the examples. */

/** Prints a section heading. */
export function heading(title: string): void {
  console.log(`\n== ${title} ${'='.repeat(Math.max(0, 96 - title.length))}`)
}

/** Prints one line (or a block) of text. */
export function line(text: string): void {
  console.log(text)
}

/** JSON text of a value; `indent` spaces per level (default: one line). */
export function json(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent)
}

/** Bytes of the UTF-8 JSON of a value. */
export function utf8Bytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8')
}
