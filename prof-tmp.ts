import { compareSchemas } from 'result-views/contracts'
let old: any = { type: 'string' }
let now: any = { type: 'string' }
for (let level = 0; level < 12; level++) {
  old = { anyOf: [0, 1, 2].map((i) => ({ type: 'object', properties: { v: old, k: { enum: [i, 9] } }, required: ['v', 'k'] })) }
  now = { type: 'object', properties: { v: now, k: { const: 2 } }, required: ['v', 'k'] }
}
const t = performance.now()
const r = compareSchemas(old, now, 'output')
console.log(performance.now() - t, r.verdict, process.cpuUsage())
