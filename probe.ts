import { compileProjector } from 'result-views'
import { realisticSessionFull } from './bench/fixtures/realistic-session.js'
import { RealisticCompactResult } from './bench/fixtures/realistic-session-schema.js'
import { handwrittenRealisticProjection, handwrittenSessionProjection } from './bench/handwritten.js'
import { activeSessionFull } from './examples/fixtures/sessions.js'
import { CompactSessionResult } from './examples/tools/session-record.js'
import { measureInRounds, formatMeasured } from './bench/harness.js'
const p = compileProjector(JSON.parse(JSON.stringify(RealisticCompactResult)))
const ps = compileProjector(JSON.parse(JSON.stringify(CompactSessionResult)))
const full = structuredClone(realisticSessionFull), small = structuredClone(activeSessionFull)
if (JSON.stringify(p(full)) !== JSON.stringify(handwrittenRealisticProjection(full))) throw new Error('differs')
const m = await measureInRounds([
  { name: 'projector', run: () => p(full), batch: 200 },
  { name: 'handwritten', run: () => handwrittenRealisticProjection(full), batch: 200 },
  { name: 'projector small', run: () => ps(small), batch: 200 },
  { name: 'handwritten small', run: () => handwrittenSessionProjection(small), batch: 200 },
], { warmupMs: 3000, warmupRounds: 3, rounds: 6, roundMs: 100 })
console.log(formatMeasured('projection', m))
