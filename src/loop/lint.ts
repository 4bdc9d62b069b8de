import type { View } from 'result-views'
import { indexCatalog, type CatalogTool, type LoopCatalog } from './catalog.js'
import type { LoopDefinition, LoopNode } from './definition.js'
import { diagnostic, type LoopDiagnostic, type LoopDiagnosticCode } from './diagnostics.js'
import { analyzeGraph, type LoopGraphIndex } from './graph.js'
import * as messages from './lint-messages.js'
import { parseLoopDefinition } from './parse.js'
import { parsePointer, toPointer } from '../json/pointer.js'
import { paramLabel, templatesIn } from './references.js'
import { resolveSchemaPath, type SchemaPathResolution } from './schema-path.js'
import { hasResultViewParam, roleOf, RESULT_VIEW_PARAM, type NodeRole } from './selection.js'
import { nearestName } from '../errors/spelling.js'
import { formatReference } from './templates.js'
import { sourceOf, type LoopSource } from './yaml-source.js'

/** Options of {@link lintLoop}. */
export interface LintOptions {
  /**
   * The host action kinds the runner will have (the keys of `runLoop`'s `actions`). When given, a
   * node whose kind is neither a catalog tool nor one of these is `unknown_kind`.
   */
  readonly actions?: readonly string[]
  /**
   * Views a run snapshot pinned, by node ID. They replace the view a node's params select (a run
   * started before views pinned `full`: `docs/loops.md` "Pinning and migration"). A pinned node
   * whose tool the catalog no longer has is not `unknown_kind` (the runner fails it with
   * `loop_contract_stale`).
   */
  readonly pinnedViews?: Readonly<Record<string, View>>
}

/**
 * Checks a Loop against the contracts of the tools it calls (`docs/loops.md`):
 * - `params.result_view` of a viewed tool node must be the literal `compact` or `full`
 *   (`result_view_not_literal`); on a single-result tool it is `result_view_not_accepted`;
 * - each reference `{{ .nodes.<id>.output.<path> }}` is resolved in the schema of the view node
 *   `<id>` selected (compact when it selects none): listed there → fine; listed only in the full
 *   view → `result_view_field_requires_full`; in neither → `unresolvable_path` (naming the
 *   deepest valid segment and the fields there); through an open part → `path_unproven` (warning);
 * - a tool node's `produces` entries are checked the same way;
 * - references must name a node upstream of the reader through edges (`unknown_node`,
 *   `reference_not_upstream`); duplicate IDs, edges to unknown nodes and cycles are errors;
 *   malformed templates are `template_malformed`.
 *
 * An `unresolvable_path` message names the nearest listed field (by edit distance, in either
 * view) when one is close, and says when the deepest valid segment exists only in the full view.
 *
 * @param definition - a definition (checked with `parseLoopDefinition` first). For one parsed
 *   from YAML (`parseLoopYaml`), every diagnostic also carries the `line` and `column` of what it
 *   refers to: the `{{` of a template, or the value at its `path` (`docs/loops.md` "Positions").
 * @param catalog - tools (`defineTool`) or descriptors (`dispatcher.list()`).
 * @returns the diagnostics in definition order (graph findings first); empty when all is well.
 * @throws LoopError `loop_definition_invalid` for a definition without the Loop shape, or
 *   `loop_options_invalid` for a malformed catalog.
 */
export function lintLoop(definition: LoopDefinition, catalog: LoopCatalog, options: LintOptions = {}): LoopDiagnostic[] {
  const loop = parseLoopDefinition(definition)
  const tools = indexCatalog(catalog)
  const graph = analyzeGraph(loop)
  const pinned = options.pinnedViews ?? {}
  const actions = options.actions === undefined ? undefined : new Set(options.actions)
  const roles = new Map<string, NodeRole>()
  for (const node of loop.graph.nodes) {
    if (!roles.has(node.id)) roles.set(node.id, effectiveRole(node, tools, pinned))
  }
  const source = sourceOf(loop)
  const located = source === undefined ? graph.diagnostics : graph.diagnostics.map((d) => diagnostic(d.code, d.node_id, d.path, d.message, source.locate(parsePointer(d.path))))
  const context: Context = { loop, graph, roles, source, diagnostics: [...located] }
  loop.graph.nodes.forEach((node, index) => {
    const role = effectiveRole(node, tools, pinned)
    const at = (...tokens: (string | number)[]): Where => ({ tokens: ['graph', 'nodes', index, ...tokens] })
    if (actions !== undefined && role.role === 'other' && !actions.has(node.kind) && !own(pinned, node.id)) {
      report(context, 'unknown_kind', node.id, at('kind'), `node "${node.id}" kind "${node.kind}" is neither a tool in the catalog nor a host action`)
    }
    checkResultView(context, node, role, at(...(hasResultViewParam(node) ? ['params', RESULT_VIEW_PARAM] : [])))
    for (const template of templatesIn(node.params)) {
      const where = at('params', ...template.tokens)
      if (!template.parse.ok) {
        const { message, offset } = template.parse.problem
        report(context, 'template_malformed', node.id, { ...where, charOffset: offset }, `node "${node.id}" ${paramLabel(template.tokens)} has a malformed template at character ${offset + 1}: ${message}`)
        continue
      }
      for (const part of template.parse.parts) {
        if (part.kind !== 'reference' || part.reference.root !== 'nodes') continue
        const { reference } = part
        checkReference(context, node, { ...where, charOffset: part.start }, `node "${node.id}" reads ${formatReference(reference)}`, reference.node_id, reference.path)
      }
    }
    if (role.role !== 'other') {
      node.produces?.forEach((entry, entryIndex) => {
        checkOutputPath(context, node.id, at('produces', entryIndex), `node "${node.id}" produces ${entry}`, node.id, role, entry.split('.'))
      })
    }
  })
  return context.diagnostics
}

interface Context {
  readonly loop: LoopDefinition
  readonly graph: LoopGraphIndex
  readonly roles: ReadonlyMap<string, NodeRole>
  /** Where the definition's values are written, for a definition parsed from YAML. */
  readonly source: LoopSource | undefined
  readonly diagnostics: LoopDiagnostic[]
}

/** What a diagnostic is about: the value at `tokens` or, with `charOffset`, that character of the string there (a template's `{{`). */
interface Where {
  readonly tokens: readonly (string | number)[]
  readonly charOffset?: number
}

function report(context: Context, code: LoopDiagnosticCode, nodeId: string | null, where: Where, message: string): void {
  const position = context.source?.locate(where.tokens, where.charOffset)
  context.diagnostics.push(diagnostic(code, nodeId, toPointer(where.tokens), message, position))
}

/** The node's role, with a pinned view replacing the selected one. */
function effectiveRole(node: LoopNode, tools: ReadonlyMap<string, CatalogTool>, pinned: Readonly<Record<string, View>>): NodeRole {
  const role = roleOf(node, tools)
  if (role.role === 'viewed' && own(pinned, node.id)) return { ...role, view: pinned[node.id] }
  return role
}

function checkResultView(context: Context, node: LoopNode, role: NodeRole, path: Where): void {
  if (!hasResultViewParam(node)) return
  const value = node.params![RESULT_VIEW_PARAM]
  if (role.role === 'viewed' && value !== 'compact' && value !== 'full') {
    report(context, 'result_view_not_literal', node.id, path, messages.notLiteral(node.id))
  } else if (role.role === 'single' && role.tool.selectorApplies) {
    report(context, 'result_view_not_accepted', node.id, path, messages.notAccepted(node.id, role.tool.descriptor.tool_id))
  }
}

function checkReference(context: Context, reader: LoopNode, path: Where, subject: string, sourceId: string, outputPath: readonly string[]): void {
  const source = context.roles.get(sourceId)
  if (source === undefined) {
    return report(context, 'unknown_node', reader.id, path, `${subject}, but the graph has no node "${sourceId}"`)
  }
  if (!context.graph.ancestorsOf(reader.id).has(sourceId)) {
    return report(context, 'reference_not_upstream', reader.id, path, `${subject}, but node "${sourceId}" is not upstream of node "${reader.id}" (no path of edges from "${sourceId}" to "${reader.id}")`)
  }
  if (source.role !== 'other') return checkOutputPath(context, reader.id, path, subject, sourceId, source, outputPath)
  const sourceNode = context.loop.graph.nodes[context.graph.indexOf.get(sourceId)!]!
  if (sourceNode.produces === undefined) {
    return report(context, 'output_unchecked', reader.id, path, messages.unchecked(subject, sourceId, sourceNode.kind))
  }
  const declared = sourceNode.produces.map((entry) => entry.split('.'))
  if (!declared.some((entry) => isPrefix(entry, outputPath) || isPrefix(outputPath, entry))) {
    report(context, 'unresolvable_path', reader.id, path, messages.notProduced(subject, sourceId, sourceNode.produces))
  }
}

/**
 * Resolves `outputPath` in the output of `sourceId`, a tool node, against the view it selected,
 * reporting at `path` for node `nodeId` (`docs/loops.md` "What a reference is checked against").
 */
function checkOutputPath(context: Context, nodeId: string, path: Where, subject: string, sourceId: string, source: Exclude<NodeRole, { role: 'other' }>, outputPath: readonly string[]): void {
  const descriptor = source.tool.descriptor
  const finding = { subject, toolId: descriptor.tool_id, outputPath }
  if (source.role === 'single') {
    return reportResolution(context, nodeId, path, { ...finding, view: undefined }, resolveSchemaPath(descriptor.output_schema, outputPath))
  }
  // A non-literal result_view is already an error; which view the node gets is unknown.
  if (source.view === undefined) return
  const views = descriptor.output_views!
  const full = (): SchemaPathResolution => resolveSchemaPath(views.full.schema, outputPath)
  if (source.view === 'full') return reportResolution(context, nodeId, path, { ...finding, view: 'full' }, full())
  const compact = resolveSchemaPath(views.compact.schema, outputPath)
  if (compact.status === 'resolved') return
  const inFull = full()
  if (inFull.status === 'resolved') return report(context, 'result_view_field_requires_full', nodeId, path, messages.requiresFull(subject, finding.toolId, sourceId))
  if (compact.status === 'missing' && inFull.status === 'open') {
    // Unlisted in both views: maybe a field is misspelt; the compact view's fields come first.
    const inCompact = new Set(compact.missing_at === inFull.open_at ? compact.available : [])
    const suggestion = suggest(outputPath, inFull.open_at, [...inCompact, ...inFull.available.filter((name) => !inCompact.has(name))])
    const compactHas = suggestion !== undefined && inCompact.has(suggestion[suggestion.length - 1]!)
    return report(context, 'result_view_field_requires_full', nodeId, path, messages.requiresFull(subject, finding.toolId, sourceId, suggestion, compactHas))
  }
  // Compact records are projections of full ones: what the full schema rules out, compact cannot hold.
  if (compact.status === 'open' && inFull.status === 'missing') return reportResolution(context, nodeId, path, { ...finding, view: 'full' }, inFull)
  if (compact.status === 'missing' && inFull.status === 'missing') {
    if (inFull.missing_at > compact.missing_at) {
      // The path goes on in the full view only: say so, and that selecting it reaches that far.
      return reportMissing(context, nodeId, path, { ...finding, view: 'full', fullOnlyFrom: sourceId }, inFull, inFull.available)
    }
    if (inFull.missing_at === compact.missing_at) {
      const inCompact = new Set(compact.available)
      const names = [...compact.available, ...inFull.available.filter((name) => !inCompact.has(name))]
      return reportMissing(context, nodeId, path, { ...finding, view: 'compact', fullOnlyNames: { from: sourceId, listed: inCompact } }, compact, names)
    }
  }
  reportResolution(context, nodeId, path, { ...finding, view: 'compact' }, compact)
}

/** What an unresolved path is and how to word it. */
interface Finding {
  readonly subject: string
  readonly toolId: string
  readonly outputPath: readonly string[]
  /** The view whose schema answered (`undefined`: a single-result tool's one schema). */
  readonly view: View | undefined
  /** The source node, when the deepest valid segment exists only in the full view and compact is selected. */
  readonly fullOnlyFrom?: string
  /** With compact selected: the names compact lists there, and the node that would select full for the others. */
  readonly fullOnlyNames?: { readonly from: string; readonly listed: ReadonlySet<string> }
}

function reportResolution(context: Context, nodeId: string, path: Where, finding: Finding, resolution: SchemaPathResolution): void {
  if (resolution.status === 'missing') return reportMissing(context, nodeId, path, finding, resolution, resolution.available)
  if (resolution.status === 'open') {
    const openParent = resolution.steps.slice(0, resolution.open_at).map((step) => step.segment)
    const suggestion = suggest(finding.outputPath, resolution.open_at, resolution.available)
    report(context, 'path_unproven', nodeId, path, messages.unproven(finding.subject, finding.toolId, finding.view, openParent, resolution.reason, suggestion))
  }
}

/** `unresolvable_path`, suggesting the nearest of `names` (fields listed where `resolution` stops, in either view). */
function reportMissing(context: Context, nodeId: string, path: Where, finding: Finding, resolution: Extract<SchemaPathResolution, { status: 'missing' }>, names: readonly string[]): void {
  const nearest = suggest(finding.outputPath, resolution.missing_at, names)
  const only = finding.fullOnlyNames
  const suggestion =
    nearest === undefined ? undefined : { path: nearest, ...(only !== undefined && !only.listed.has(nearest[nearest.length - 1]!) ? { fullOnlyFrom: only.from } : {}) }
  const message = messages.unresolvable({
    subject: finding.subject,
    toolId: finding.toolId,
    view: finding.view,
    deepest: resolution.steps.map((step) => step.segment),
    available: resolution.available,
    acceptsIndex: resolution.accepts_index,
    ...(finding.fullOnlyFrom === undefined ? {} : { fullOnlyFrom: finding.fullOnlyFrom }),
    ...(suggestion === undefined ? {} : { suggestion }),
  })
  report(context, 'unresolvable_path', nodeId, path, message)
}

/** `outputPath` with segment `at` replaced by the nearest of `names` (`undefined` when none is near, or the segment is an array index). */
function suggest(outputPath: readonly string[], at: number, names: readonly string[]): string[] | undefined {
  const segment = outputPath[at]!
  const nearest = /^[0-9]+$/.test(segment) ? undefined : nearestName(segment, names)
  return nearest === undefined ? undefined : [...outputPath.slice(0, at), nearest]
}

function isPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => path[index] === segment)
}

function own(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key)
}
