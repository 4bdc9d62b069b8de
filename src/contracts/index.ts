/**
 * Entry `result-views/contracts`: tool contracts in CI. A lock file of every tool's schemas and
 * digests, the comparison that classifies drift as compatible, breaking or unproven (the view
 * proof's machinery read as containment), the release note of default-view changes, the
 * superseded digest table for pinned Loop runs, and token budgets of the compact view. The command
 * functions (`runContractsCheck`, `runReleaseNote`) are what `result-views contracts check` and
 * `release-note` run. See `docs/contracts.md`.
 *
 * Every export here is public API of result-views/contracts: add exports deliberately, by name
 * (no `export *`), each with a doc comment.
 *
 * @packageDocumentation
 */

// The lock file
export { contractLock } from './sources.js'
export type { ContractCatalog, ContractFixtures, ContractLockOptions, ContractSource, DescriptorCatalog } from './sources.js'
export { formatContractLock, parseContractLock } from './lock-text.js'
export { CONTRACT_LOCK_FORMAT, CONTRACT_LOCK_VERSION, DEFAULT_LOCK_FILE } from './lock.js'
export type { ContractLock, ContractToolKind, ContractView, SingleToolContract, ToolContract, ViewBudget, ViewedToolContract } from './lock.js'

// Comparing contracts
export { compareContracts, DEFAULT_BUDGET_TOLERANCE } from './compare.js'
export type {
  BudgetComparison,
  CompareContractsOptions,
  ContractComparison,
  ContractSchemaName,
  SchemaComparison,
  ToolComparison,
} from './compare.js'
export { compareSchemas } from './compare-schemas.js'
export type { ContractReason, ContractReasonCode, SchemaRole, SchemaVerdict, SchemaVerdictKind } from './compare-schemas.js'
export { formatComparisonTable } from './report-table.js'

// Release notes and migration
export { viewReleaseNote } from './release-note.js'
export type { DefaultChange, ReleaseNoteTool, ViewReleaseNote } from './release-note.js'
export { supersededDigestTable } from './superseded.js'

// Token budgets
export { measureViews } from './measure.js'
export type { MeasurementTotal, MeasureViewsOptions, RecordByteMeasurement, RecordMeasurement, ViewByteMeasurement, ViewMeasurement } from './measure.js'
export type { CountTokens } from '../tokens/count-tokens.js'
export { TokenizerUnavailableError, isTokenizerUnavailableError } from '../tokens/tokenizer-unavailable-error.js'

// Commands of `result-views contracts`
export { runContractsCheck, runReleaseNote } from './commands.js'
export type { CommandOutput, ContractsCheckOptions, ReleaseNoteOptions } from './commands.js'
export { importCatalogModule, loadCatalogModule } from './catalog-module.js'
export type { CatalogModule, LoadedCatalog } from './catalog-module.js'

// Errors
export { ContractsError, isContractsError } from './contracts-error.js'
