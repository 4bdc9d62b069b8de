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
   * started before views pinned `full`: spec 000 "Migration"). A pinned node whose tool the catalog
   * no longer has is not `unknown_kind` (the runner fails it with `loop_contract_stale`).
   */
  readonly pinnedViews?: Readonly<Record<string, View>>
}

/**
 * Checks a Loop against the contracts of the tools it calls (spec 000 "Loops"):
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
 * Resolves `outputPath` in the output of `sourceId`, a tool node, against the view it selected
 * (spec 000 "Loops"), reporting at `path` for node `nodeId`.
 */
function checkOutputPath(context: Context, nodeId: string, path: Where, subject: string, sourceId: string, source: Exclude<NodeRole, { role: 'other' }>, outputPath: readonly string[]): void {
  const descriptor = source.tool.descriptor
  const toolId = descriptor.tool_id
  if (source.role === 'single') {
    return reportResolution(context, nodeId, path, subject, toolId, undefined, resolveSchemaPath(descriptor.output_schema, outputPath))
  }
  // A non-literal result_view is already an error; which view the node gets is unknown.
  if (source.view === undefined) return
  const views = descriptor.output_views!
  const full = (): SchemaPathResolution => resolveSchemaPath(views.full.schema, outputPath)
  if (source.view === 'full') return reportResolution(context, nodeId, path, subject, toolId, 'full', full())
  const compact = resolveSchemaPath(views.compact.schema, outputPath)
  if (compact.status === 'resolved') return
  const inFull = full()
  if (inFull.status === 'resolved' || (compact.status === 'missing' && inFull.status === 'open')) {
    return report(context, 'result_view_field_requires_full', nodeId, path, messages.requiresFull(subject, toolId, sourceId))
  }
  // Compact records are projections of full ones: what the full schema rules out, compact cannot hold.
  if (compact.status === 'open' && inFull.status === 'missing') return reportResolution(context, nodeId, path, subject, toolId, 'full', inFull)
  reportResolution(context, nodeId, path, subject, toolId, 'compact', compact)
}

function reportResolution(context: Context, nodeId: string, path: Where, subject: string, toolId: string, view: View | undefined, resolution: SchemaPathResolution): void {
  if (resolution.status === 'missing') {
    const deepest = resolution.steps.map((step) => step.segment)
    report(context, 'unresolvable_path', nodeId, path, messages.unresolvable(subject, toolId, view, deepest, resolution.available, resolution.accepts_index))
  } else if (resolution.status === 'open') {
    const openParent = resolution.steps.slice(0, resolution.open_at).map((step) => step.segment)
    report(context, 'path_unproven', nodeId, path, messages.unproven(subject, toolId, view, openParent, resolution.reason))
  }
}

function isPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => path[index] === segment)
}

function own(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key)
}
