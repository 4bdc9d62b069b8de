/**
 * `result-views/loop`: Loop contracts (`docs/loops.md`). Lint a Loop's references
 * against the views its tool nodes select, pin each node's contract when a run starts, translate
 * pre-view snapshots to `full`, and run small Loops through a dispatcher.
 *
 * Every export here is public API of the `result-views/loop` entry. Named exports only.
 *
 * @packageDocumentation
 */

// Definitions
export { parseLoopDefinition, parseLoopYaml } from './parse.js'
export { LOOP_NODE_ID_PATTERN, PATH_SEGMENT_PATTERN } from './definition.js'
export type { LoopDefinition, LoopEdge, LoopGraph, LoopNode } from './definition.js'

// Templates
export { formatReference, parseTemplate } from './templates.js'
export type { TemplateParse, TemplatePart, TemplateProblem, TemplateReference } from './templates.js'

// Schema paths
export { resolveSchemaPath } from './schema-path.js'
export type { OpenReason, PathRule, PathStep, SchemaPathResolution } from './schema-path.js'

// Lint
export { lintLoop } from './lint.js'
export type { LintOptions } from './lint.js'
export type { LoopCatalog } from './catalog.js'
export { LoopDiagnosticCodes } from './diagnostics.js'
export type { DiagnosticSeverity, LoopDiagnostic, LoopDiagnosticCode } from './diagnostics.js'

// Pinning and migration
export { RUN_SNAPSHOT_VERSION, migrateRunSnapshot, startRun } from './pin.js'
export type { MigrateOptions, RunPin, RunSnapshot } from './pin.js'

// Runner
export { runLoop } from './run.js'
export type { LoopAction, LoopActionContext, LoopDispatcher, LoopRun, NodeRun, RunLoopOptions } from './run.js'

// Errors
export { LoopError, isLoopError } from './errors.js'
export type { LoopErrorCode, LoopProblem } from './errors.js'
