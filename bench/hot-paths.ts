/**
 * Hot-path benchmarks against plain baselines, on the realistic session record
 * (bench/fixtures/realistic-session.ts) and on the example's small one (`activeSessionFull`):
 *
 * - projection: the compiled projector against a direct hand-written pick;
 * - invoke: `dispatcher.invoke` (compact, full, with a tool preview, with a scope) against
 *   precompiled ajv on the input + the handler + precompiled ajv on the full record + the direct
 *   pick, in an async function;
 * - digests: `inputDigest` against `sha256(JSON.stringify(x))` on a medium and a small input,
 *   and `schemaDigest` of the realistic full schema against the same.
 *
 * Every figure is a ratio of medians measured in the same run (bench/harness.ts).
 */
import { hash } from 'node:crypto'
import { Ajv, type Options } from 'ajv'
import addFormatsModule from 'ajv-formats'
import stableStringify from 'fast-json-stable-stringify'
import Type from 'typebox'
import { Value } from 'typebox/value'
import {
  canonicalJson,
  compileProjector,
  createDispatcher,
  createMemoryApprovalStores,
  createPatternPolicy,
  defineTool,
  inputDigest,
  schemaDigest,
  type InvokeOutcome,
  type ViewedTool,
} from 'result-views'
import { activeSessionFull } from '../examples/fixtures/sessions.js'
import { CompactSessionResult, FullSessionResult } from '../examples/tools/session-record.js'
import { mediumDigestInput, smallDigestInput } from './fixtures/digest-inputs.js'
import { realisticSessionFull, realisticSessionInput } from './fixtures/realistic-session.js'
import { RealisticCompactResult, RealisticFullResult, RealisticSessionInput, withoutFormats } from './fixtures/realistic-session-schema.js'
import { formatMeasured, measureInRounds, median, type Candidate, roundsFor } from './harness.js'
import { handwrittenRealisticProjection, handwrittenSessionProjection } from './handwritten.js'

// ajv-formats is CommonJS: under ESM interop its function may sit on `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv

/**
 * The options the dispatcher decides validity with (src/dispatch/validators.ts): ajv's default of
 * stopping at the first error, the plain limit. The dispatcher collects every error (`allErrors`)
 * only for a value that failed; a baseline that collects them on valid values measures ajv's
 * slower every-error code (several times slower with `format` keywords), kept as a second figure
 * (`invoke_vs_all_errors_baseline`) to compare with runs before the dispatcher stopped using it.
 */
const AJV_OPTIONS: Options = { strict: true, strictNumbers: true, allowUnionTypes: true, allErrors: false, coerceTypes: false, useDefaults: false }
const AJV_ALL_ERRORS_OPTIONS: Options = { ...AJV_OPTIONS, allErrors: true }

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T
// The fastest plain digest: Node's one-shot hash of JSON.stringify's text.
const sha = (x: unknown): string => hash('sha256', JSON.stringify(x), 'hex')

/** One session case: its tools, its record, its input and its baselines. */
interface SessionCase {
  readonly label: string
  readonly full: unknown
  readonly input: Record<string, unknown>
  readonly project: (full: unknown) => unknown
  readonly handwritten: (full: unknown) => unknown
  readonly baseline: () => Promise<unknown>
  /** The same baseline with ajv collecting every error on valid values too (`allErrors`). */
  readonly allErrorsBaseline: () => Promise<unknown>
  readonly compactSchema: object
}

export function sessionCase(label: string, schemas: { input: object; compact: object; full: object }, full: unknown, input: Record<string, unknown>, handwritten: (full: any) => unknown): SessionCase {
  const ajv = addFormats(new Ajv(AJV_OPTIONS))
  const validateInput = ajv.compile(json(schemas.input))
  const validateFull = ajv.compile(json(schemas.full))
  const ajvAll = addFormats(new Ajv(AJV_ALL_ERRORS_OPTIONS))
  const validateInputAll = ajvAll.compile(json(schemas.input))
  const validateFullAll = ajvAll.compile(json(schemas.full))
  const handler = (): unknown => full
  return {
    label,
    full,
    input,
    project: compileProjector(json(schemas.compact)),
    handwritten,
    compactSchema: schemas.compact,
    // The limit of an invoke: precompiled ajv, the handler, precompiled ajv, the direct pick.
    baseline: async () => {
      if (!validateInput(input)) throw new Error('bench input invalid')
      const record = await handler()
      if (!validateFull(record)) throw new Error('bench record invalid')
      return handwritten(record)
    },
    allErrorsBaseline: async () => {
      if (!validateInputAll(input)) throw new Error('bench input invalid')
      const record = await handler()
      if (!validateFullAll(record)) throw new Error('bench record invalid')
      return handwritten(record)
    },
  }
}

export function toolsOf(label: string, schemas: { input: object; compact: object; full: object }, full: unknown): ViewedTool[] {
  const base = { description: 'bench', input: schemas.input, output: { compact: schemas.compact, full: schemas.full }, handler: () => full }
  return [
    defineTool({ ...base, id: `bench__${label}` } as never) as ViewedTool,
    // The same tool with its own preview (a short label): what the default preview costs.
    defineTool({ ...base, id: `bench__${label}_preview`, preview: () => 'sess' } as never) as ViewedTool,
  ]
}

export const ok = (outcome: InvokeOutcome): InvokeOutcome => {
  if (outcome.status !== 'ok') throw new Error(`bench invoke failed: ${JSON.stringify(outcome)}`)
  return outcome
}

/**
 * A host configuration: a pattern policy (an allow-list of patterns, approval for tools that are not
 * read-only), the memory approval stores, one pre-call hook, a sensitive input field and a scope,
 * on a read-only tool whose input carries a credential reference. Its plain limit is the
 * invoke baseline plus a hand-written policy check (the allow-list and the read-only flag).
 */
export function hostCase(schemas: { input: object; compact: object; full: object }, full: unknown, scope: Record<string, string>) {
  const input = Type.Object({ session_id: Type.String({ minLength: 1 }), credential_ref: Type.Optional(Type.String()) }, { additionalProperties: false })
  const tool = defineTool({
    id: 'compozy__session_status',
    description: 'bench',
    input,
    output: { compact: schemas.compact, full: schemas.full },
    risk: 'read',
    sensitiveInputFields: ['credential_ref'],
    handler: () => full,
  } as never)
  const policy = createPatternPolicy({ owner: 'agent:general', tools: ['compozy__session_*', 'compozy__skill_*'], deny_tools: ['compozy__session_spawn'], approval: 'non_read_only' })
  const dispatcher = createDispatcher({ tools: [tool], policy, approvals: createMemoryApprovalStores() })
  dispatcher.hook('tool.pre_call', () => undefined)
  const request = { tool_id: 'compozy__session_status', input: { session_id: 'sess-7f3a9c21', credential_ref: 'vault://provider/token' }, scope, sensitive_input_fields: ['credential_ref'] }

  const ajv = new Ajv(AJV_OPTIONS)
  const validateInput = ajv.compile(json(input))
  const validateFull = ajv.compile(json(schemas.full))
  const allowed = (toolId: string): boolean => toolId.startsWith('compozy__session_') && toolId !== 'compozy__session_spawn'
  return {
    dispatcher,
    request,
    baseline: async () => {
      if (!allowed(request.tool_id)) throw new Error('bench tool not allowed')
      if (!validateInput(request.input)) throw new Error('bench input invalid')
      const record = await (() => full)()
      if (!validateFull(record)) throw new Error('bench record invalid')
      return handwrittenRealisticProjection(record as never)
    },
  }
}

/** Runs the hot-path candidates, prints their table, returns the figures. */
export async function hotPathsBench(quick = false): Promise<Record<string, number>> {
  const realisticSchemas = { input: RealisticSessionInput, compact: RealisticCompactResult, full: RealisticFullResult }
  const smallSchemas = { input: Type.Object({ session_id: Type.String() }, { additionalProperties: false }), compact: CompactSessionResult, full: FullSessionResult }
  const plainSchemas = { input: realisticSchemas.input, compact: withoutFormats(json(RealisticCompactResult)), full: withoutFormats(json(RealisticFullResult)) }
  const realistic = sessionCase('realistic', realisticSchemas, structuredClone(realisticSessionFull), realisticSessionInput, handwrittenRealisticProjection)
  const plain = sessionCase('plain', plainSchemas, realistic.full, realisticSessionInput, handwrittenRealisticProjection)
  const small = sessionCase('small', smallSchemas, structuredClone(activeSessionFull), { session_id: 'sess-example' }, handwrittenSessionProjection)
  const dispatcher = createDispatcher({
    tools: [...toolsOf('realistic', realisticSchemas, realistic.full), ...toolsOf('plain', plainSchemas, plain.full), ...toolsOf('small', smallSchemas, small.full)],
  })
  const scope = { workspace_id: 'ws_storage', session_id: 'sess-coordinator-01', agent_name: 'general', profile_id: 'prof_backend' }
  const fullInput = { ...realistic.input, result_view: 'full' }
  const smallFullInput = { ...small.input, result_view: 'full' }
  const fullSchemaJson = json(RealisticFullResult)

  // Every host passes a scope (workspace, session, agent, profile): every invoke candidate does,
  // but the one that measures what the scope costs.
  const call = (tool_id: string, input: Record<string, unknown>) => ({ tool_id, input, scope })
  const host = hostCase(plainSchemas, plain.full, scope)

  const candidates: Candidate[] = [
    // Projection
    { name: 'projector (realistic)', run: () => realistic.project(realistic.full), batch: 200 },
    { name: 'hand-written pick (realistic)', run: () => realistic.handwritten(realistic.full), batch: 200 },
    { name: 'Value.Clean(compact, Value.Clone(full)) (realistic)', run: () => Value.Clean(RealisticCompactResult, Value.Clone(realistic.full)), batch: 2 },
    { name: 'projector (small)', run: () => small.project(small.full), batch: 200 },
    { name: 'hand-written pick (small)', run: () => small.handwritten(small.full), batch: 200 },
    // Invoke, headline: the realistic record without `format` keywords (ajv-formats would be most of the baseline)
    { name: 'invoke compact (realistic, no formats)', run: async () => ok(await dispatcher.invoke(call('bench__plain', plain.input))), batch: 20, async: true },
    { name: 'invoke compact, no scope (realistic, no formats)', run: async () => ok(await dispatcher.invoke({ tool_id: 'bench__plain', input: plain.input })), batch: 20, async: true },
    { name: 'invoke full (realistic, no formats)', run: async () => ok(await dispatcher.invoke(call('bench__plain', fullInput))), batch: 20, async: true },
    { name: 'baseline: ajv + handler + ajv + pick (realistic, no formats)', run: plain.baseline, batch: 20, async: true },
    { name: 'invoke, host configuration (realistic, no formats)', run: async () => ok(await host.dispatcher.invoke(host.request)), batch: 20, async: true },
    { name: 'baseline + policy check (realistic, no formats)', run: host.baseline, batch: 20, async: true },
    // Invoke, with the 16 `date-time` formats
    { name: 'invoke compact (realistic)', run: async () => ok(await dispatcher.invoke(call('bench__realistic', realistic.input))), batch: 20, async: true },
    { name: 'invoke compact, tool preview (realistic)', run: async () => ok(await dispatcher.invoke(call('bench__realistic_preview', realistic.input))), batch: 20, async: true },
    { name: 'invoke full (realistic)', run: async () => ok(await dispatcher.invoke(call('bench__realistic', fullInput))), batch: 20, async: true },
    { name: 'baseline: ajv + handler + ajv + pick (realistic)', run: realistic.baseline, batch: 20, async: true },
    { name: 'baseline, ajv allErrors (realistic)', run: realistic.allErrorsBaseline, batch: 20, async: true },
    // Invoke, the example's small record
    { name: 'invoke compact (small)', run: async () => ok(await dispatcher.invoke(call('bench__small', small.input))), batch: 20, async: true },
    { name: 'invoke full (small)', run: async () => ok(await dispatcher.invoke(call('bench__small', smallFullInput))), batch: 20, async: true },
    { name: 'baseline: ajv + handler + ajv + pick (small)', run: small.baseline, batch: 20, async: true },
    // Digests
    { name: 'inputDigest (medium)', run: () => inputDigest(mediumDigestInput), batch: 100 },
    { name: 'sha256(JSON.stringify) (medium)', run: () => sha(mediumDigestInput), batch: 100 },
    { name: 'canonicalJson (medium)', run: () => canonicalJson(mediumDigestInput), batch: 100 },
    { name: 'fast-json-stable-stringify (medium)', run: () => stableStringify(mediumDigestInput), batch: 100 },
    { name: 'inputDigest (small)', run: () => inputDigest(smallDigestInput), batch: 200 },
    { name: 'sha256(JSON.stringify) (small)', run: () => sha(smallDigestInput), batch: 200 },
    { name: 'schemaDigest (realistic full schema)', run: () => schemaDigest(fullSchemaJson), batch: 20 },
    { name: 'sha256(JSON.stringify) (realistic full schema)', run: () => sha(fullSchemaJson), batch: 20 },
  ]
  const measured = await measureInRounds(candidates, roundsFor(quick, 120))
  console.log(formatMeasured('hot paths (median per operation, interleaved rounds)', measured))

  const m = (name: string): number => median(measured, name)
  const baselineR = m('baseline: ajv + handler + ajv + pick (realistic)')
  const baselineS = m('baseline: ajv + handler + ajv + pick (small)')
  const baselineP = m('baseline: ajv + handler + ajv + pick (realistic, no formats)')
  const noScopeP = m('invoke compact, no scope (realistic, no formats)')
  return {
    // Headline (no formats, a scope on every call)
    invoke_no_formats_vs_baseline: m('invoke compact (realistic, no formats)') / baselineP,
    invoke_full_no_formats_vs_baseline: m('invoke full (realistic, no formats)') / baselineP,
    invoke_scope_vs_no_scope: m('invoke compact (realistic, no formats)') / noScopeP,
    invoke_no_scope_no_formats_vs_baseline: noScopeP / baselineP,
    host_config_vs_baseline: m('invoke, host configuration (realistic, no formats)') / m('baseline + policy check (realistic, no formats)'),
    // With formats
    invoke_vs_baseline: m('invoke compact (realistic)') / baselineR,
    invoke_full_vs_baseline: m('invoke full (realistic)') / baselineR,
    invoke_vs_all_errors_baseline: m('invoke compact (realistic)') / m('baseline, ajv allErrors (realistic)'),
    invoke_tool_preview_vs_baseline: m('invoke compact, tool preview (realistic)') / baselineR,
    invoke_small_vs_baseline: m('invoke compact (small)') / baselineS,
    invoke_full_small_vs_baseline: m('invoke full (small)') / baselineS,
    // Projection and digests
    projector_vs_handwritten: m('projector (realistic)') / m('hand-written pick (realistic)'),
    projector_small_vs_handwritten: m('projector (small)') / m('hand-written pick (small)'),
    clean_vs_projector: m('Value.Clean(compact, Value.Clone(full)) (realistic)') / m('projector (realistic)'),
    digest_vs_stringify_sha: m('inputDigest (medium)') / m('sha256(JSON.stringify) (medium)'),
    digest_small_vs_stringify_sha: m('inputDigest (small)') / m('sha256(JSON.stringify) (small)'),
    canonical_vs_stable_stringify: m('canonicalJson (medium)') / m('fast-json-stable-stringify (medium)'),
    schema_digest_vs_stringify_sha: m('schemaDigest (realistic full schema)') / m('sha256(JSON.stringify) (realistic full schema)'),
    // Per operation, in microseconds
    projector_us: m('projector (realistic)') / 1000,
    handwritten_us: m('hand-written pick (realistic)') / 1000,
    invoke_no_formats_us: m('invoke compact (realistic, no formats)') / 1000,
    invoke_no_scope_no_formats_us: noScopeP / 1000,
    invoke_full_no_formats_us: m('invoke full (realistic, no formats)') / 1000,
    host_config_us: m('invoke, host configuration (realistic, no formats)') / 1000,
    baseline_no_formats_us: baselineP / 1000,
    invoke_us: m('invoke compact (realistic)') / 1000,
    invoke_full_us: m('invoke full (realistic)') / 1000,
    baseline_us: baselineR / 1000,
    scope_us: (m('invoke compact (realistic, no formats)') - noScopeP) / 1000,
    default_preview_us: (m('invoke compact (realistic)') - m('invoke compact, tool preview (realistic)')) / 1000,
    input_digest_us: m('inputDigest (medium)') / 1000,
  }
}
