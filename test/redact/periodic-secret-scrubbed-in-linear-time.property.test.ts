// Regression (break-it review): a long secret that repeats itself (`'a'.repeat(100_000)` in a
// 200,000-character record string) took 17.6 s to scrub, the event loop blocked: every occurrence
// was searched again from the next position, costing the secret's length each time. A run of a
// periodic secret is now one stretch found by comparing characters, and a secret longer than 256
// characters is searched by KMP. Both must find exactly the stretches the plain search finds:
// this property holds them to it, on small alphabets where secrets repeat and overlap, with
// secrets short (indexOf) and long (KMP), and with markers already in the text.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { scrubText } from '../../src/redact/secrets.js'

const MARKER = '[REDACTED]'

/** One pass as documented, by the plain search: every occurrence from every position. */
function naiveOnce(text: string, secrets: readonly string[]): string {
  const markers: number[] = []
  for (let at = text.indexOf(MARKER); at !== -1; at = text.indexOf(MARKER, at + MARKER.length)) markers.push(at)
  const lastAt = (at: number) => markers.filter((m) => m <= at).at(-1) ?? -1
  const spans: Array<[number, number]> = []
  for (const secret of secrets) {
    if (secret.length === 0) continue
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
      let from = at
      let to = at + secret.length
      const before = lastAt(from)
      if (before !== -1 && before + MARKER.length >= to) continue
      if (before !== -1 && before + MARKER.length > from) from = before
      const last = lastAt(to - 1)
      if (last !== -1 && last + MARKER.length > to) to = last + MARKER.length
      spans.push([from, to])
    }
  }
  if (spans.length === 0) return text
  spans.sort((a, b) => a[0] - b[0])
  let out = ''
  let done = 0
  let [start, end] = spans[0]!
  for (const [from, to] of spans.slice(1)) {
    if (from < end) {
      end = Math.max(end, to)
      continue
    }
    out += text.slice(done, start) + MARKER
    done = end
    start = from
    end = to
  }
  return out + text.slice(done, start) + MARKER + text.slice(end)
}

function naive(text: string, secrets: readonly string[]): string {
  let scrubbed = naiveOnce(text, secrets)
  if (scrubbed === text) return text
  for (let pass = 1; pass < 8; pass++) {
    const next = naiveOnce(scrubbed, secrets)
    if (next === scrubbed) return scrubbed
    scrubbed = next
  }
  return MARKER
}

const unit = fc.constantFrom('a', 'b', '[', 'R', 'E', 'D', ']')
const word = fc.string({ unit, minLength: 1, maxLength: 6 })
/** A secret: a short word, or a word repeated past 256 characters (the KMP path), sometimes with a tail. */
const secret = fc.oneof(
  fc.string({ unit, minLength: 4, maxLength: 8 }),
  fc.tuple(word, fc.integer({ min: 1, max: 4 }), fc.string({ unit, maxLength: 3 })).map(([w, n, tail]) => w.repeat(n) + tail).filter((s) => s.length >= 4),
  fc.tuple(word, fc.string({ unit, maxLength: 3 })).map(([w, tail]) => w.repeat(Math.ceil(260 / w.length)) + tail),
)

describe('a secret that repeats itself', () => {
  it('is scrubbed to exactly what the plain search gives, short or long, with or without markers', () => {
    fc.assert(
      fc.property(fc.array(secret, { minLength: 1, maxLength: 3 }), fc.array(fc.oneof(word, fc.constant(MARKER), fc.integer({ min: 0, max: 2 })), { maxLength: 12 }), (secrets, parts) => {
        const sorted = [...secrets].sort((a, b) => b.length - a.length)
        const text = parts.map((part) => (typeof part === 'number' ? sorted[part % sorted.length]!.repeat(1 + part) : part)).join('')
        expect(scrubText(text, sorted)).toBe(naive(text, sorted))
      }),
      { numRuns: 1500 },
    )
  })

  it('the review case: a 100,000-character periodic secret in a 200,000-character text is one marker', () => {
    expect(scrubText('a'.repeat(200_000), ['a'.repeat(100_000)])).toBe(MARKER)
    const long = 'abcdefghij'.repeat(20_000)
    expect(scrubText(`${long}x${long}`, [long])).toBe(`${MARKER}x${MARKER}`)
  })
})
