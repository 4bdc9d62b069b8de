// Regression (break-it review): a secret that is part of the marker (`REDA`) was scrubbed inside
// the markers other secrets had left (`[[REDACTED]CTED]`), and again each time scrubbed text was
// scrubbed (the message in a post_error payload read `[[[REDACTED]CTED]CTED]`). An occurrence
// inside a marker is not one; one that overlaps a marker is merged with it; and text is scrubbed
// until nothing changes, so scrubbing scrubbed text changes nothing.
import fc from 'fast-check'
import Type from 'typebox'
import { describe, expect, it } from 'vitest'
import { createDispatcher, defineTool } from 'result-views'

const MARKER = '[REDACTED]'

function setup() {
  const payloads: Array<{ error?: { message: string }; tool_result?: { preview: string } }> = []
  const tool = defineTool({
    id: 'v',
    description: 'd',
    input: Type.Object({ a: Type.String(), b: Type.String(), text: Type.String(), fail: Type.Boolean() }),
    output: Type.Object({ text: Type.String() }),
    sensitiveInputFields: ['a', 'b'],
    preview: (record) => record.text,
    handler: ({ text, fail }) => {
      if (fail) throw new Error(text)
      return { text }
    },
  })
  const dispatcher = createDispatcher({ tools: [tool] })
  dispatcher.hook('tool.post_error', (payload) => void payloads.push(payload as never))
  dispatcher.hook('tool.post_call', (payload) => void payloads.push(payload as never))
  const message = async (a: string, b: string, text: string) => {
    const outcome = await dispatcher.invoke({ tool_id: 'v', input: { a, b, text, fail: true } })
    expect(outcome.status).toBe('error')
    return { message: (outcome as { error: Error }).error.message.replace(/^tool "v" failed: /, ''), payload: payloads.at(-1)!.error!.message.replace(/^tool "v" failed: /, '') }
  }
  const preview = async (a: string, b: string, text: string) => {
    const outcome = await dispatcher.invoke({ tool_id: 'v', input: { a, b, text, fail: false } })
    expect(outcome.status).toBe('ok')
    return { preview: (outcome as { result: { preview: string } }).result.preview, payload: payloads.at(-1)!.tool_result!.preview }
  }
  return { message, preview }
}

describe('a secret that is part of the marker', () => {
  it('does not rewrite the marker another secret left, in the message or the payload', async () => {
    const { message } = setup()
    expect(await message('REDA', 'long-secret-xyz', 'long-secret-xyz and REDA')).toEqual({ message: `${MARKER} and ${MARKER}`, payload: `${MARKER} and ${MARKER}` })
  })

  it('does not rewrite a marker the handler wrote itself, in the preview or the payload', async () => {
    const { preview } = setup()
    expect(await preview('REDA', 'CTED', `REDA saw ${MARKER}`)).toEqual({ preview: `${MARKER} saw ${MARKER}`, payload: `${MARKER} saw ${MARKER}` })
  })

  it('leaves no part of two secrets that overlap in the text', async () => {
    const { message } = setup()
    // `BCDEF` is scrubbed first (longer); `ABC` overlaps it and its `A` used to be left.
    expect((await message('ABCx', 'BCDEFG', 'x ABCxBCDEFG y')).message).toBe(`x ${MARKER}${MARKER} y`)
    expect((await message('xABCD', 'BCDEFG', 'x xABCDEFG y')).message).toBe(`x ${MARKER} y`)
  })

  // The property below found it (seed 331499414): `[[RE[[[RE` scrubbed of `[[RE` gave
  // `[REDACTED][[REDACTED]`, where a `[` and the new marker complete `[[RE` again; scrubbed again
  // (the payload's copy), that occurrence overlapping the marker was replaced alone and left
  // `DACTED]`, which holds the other secret `DACT`.
  it('a secret completed by a marker next to it: scrubbed until nothing changes, the overlapped marker merged', async () => {
    const { message } = setup()
    expect(await message('[[RE', 'DACT', '[[RE[[[RE')).toEqual({ message: `${MARKER}${MARKER}`, payload: `${MARKER}${MARKER}` })
    // A secret starting inside a marker and running past it covers the whole marker.
    expect(await message('D]xy', 'long-secret-xyz', 'long-secret-xyzxy and D]xy')).toEqual({ message: `${MARKER} and ${MARKER}`, payload: `${MARKER} and ${MARKER}` })
  })

  // `[[[[…[RE` scrubbed of `[[RE`: each pass's marker completes the secret with the `[` before it,
  // so scrubbing until nothing changed took a pass per character (100,000 here: minutes).
  it('a text where every new marker completes the secret again becomes one marker after a few passes', async () => {
    const { message } = setup()
    expect(await message('[[RE', 'long-secret-xyz', '['.repeat(100_000) + 'RE')).toEqual({ message: MARKER, payload: MARKER })
  })

  // Each occurrence used to search back for the marker before it, rescanning the text: 40,000
  // occurrences after one marker at the start.
  it('many occurrences after a marker in a long text are all scrubbed', async () => {
    const { message } = setup()
    const { message: scrubbed, payload } = await message('abcd', 'long-secret-xyz', MARKER + 'abcd '.repeat(40_000))
    expect(scrubbed).not.toContain('abcd')
    expect(scrubbed.startsWith(`${MARKER}${MARKER} ${MARKER} `)).toBe(true)
    expect(payload).toBe(scrubbed)
  })

  it('property: no secret is left between markers, and scrubbing scrubbed text changes nothing', async () => {
    const { message } = setup()
    // Secrets that are part of the marker (`REDA`, `TED]`), and others of its letters.
    const partOfMarker = fc.integer({ min: 0, max: 6 }).chain((start) => fc.integer({ min: start + 4, max: 10 }).map((end) => MARKER.slice(start, end)))
    const secret = fc.oneof(partOfMarker, fc.string({ unit: fc.constantFrom('R', 'E', 'D', 'A', 'C', 'T', '[', ']', 'x', 'y'), minLength: 4, maxLength: 8 }))
    const filler = fc.string({ unit: fc.constantFrom('R', 'E', 'D', ' ', '[', ']', 'y'), maxLength: 6 })
    await fc.assert(
      fc.asyncProperty(secret, secret, fc.array(fc.tuple(fc.constantFrom(0, 1, 2), filler), { minLength: 1, maxLength: 6 }), async (a, b, pieces) => {
        const text = pieces.map(([which, pad]) => [a, b, MARKER][which] + pad).join('')
        const { message: scrubbed, payload } = await message(a, b, text)
        for (const piece of scrubbed.split(MARKER)) {
          expect(piece).not.toContain(a)
          expect(piece).not.toContain(b)
        }
        expect(payload).toBe(scrubbed)
      }),
      { numRuns: 200 },
    )
  })
})
