/**
 * Entry `result-views/testing`: property generators, the view invariant assertion and (later)
 * store conformance suites. Every export here is public API of result-views/testing: add
 * exports deliberately, by name (no `export *`), each with a doc comment.
 */

// Property generators
export {
  jsonSchemaArbitrary,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_ARRAY_LENGTH,
} from './arbitraries.js'
export type { JsonSchemaArbitraryOptions } from './arbitraries.js'
export { SUPPORTED_FORMATS } from './arbitrary-scalars.js'
export { SchemaArbitraryError, isSchemaArbitraryError } from './schema-arbitrary-error.js'
export type { SchemaArbitraryProblem } from './schema-arbitrary-error.js'
export { hostileInputArbitrary, HOSTILE_MAX_NESTING, HOSTILE_HUGE_STRING_LENGTH } from './hostile-input.js'
export { secretCanaryArbitrary, findSecretLeak, DEFAULT_LEAK_PART_LENGTH } from './secret-canary.js'
export type { FindSecretLeakOptions, SecretLeak } from './secret-canary.js'

// View invariants
export { assertViewsConsistent, assertCompactSubsetOfFull, DEFAULT_VIEW_CHECK_RUNS } from './invariants.js'
export type { ViewsConsistencyOptions } from './invariants.js'
export { ViewInvariantError, isViewInvariantError } from './view-invariant-error.js'
export type { ViewInvariantErrorInit, ViewInvariantReason } from './view-invariant-error.js'

// Token budgets
export { assertViewBudget } from './view-budget.js'
export type { ByteBudgetOptions, TokenBudgetOptions, ViewBudgetOptions } from './view-budget.js'
export { ViewBudgetError, isViewBudgetError } from './view-budget-error.js'
export type { ViewBudgetErrorInit, ViewBudgetFigure } from './view-budget-error.js'

// Store conformance suites (run under any test runner with describe, it and expect)
export { describeApprovalStoreConformance } from './conformance.js'
export type {
  ApprovalStoreConformanceOptions,
  ApprovalStoresFactory,
  ConformanceDescribe,
  ConformanceExpect,
  ConformanceIt,
  ConformanceMatchers,
  ConformanceStores,
} from './conformance.js'
export { describeContinuationStoreConformance } from './continuation-conformance.js'
export type { ConformanceContinuationStore, ContinuationStoreConformanceOptions, ContinuationStoreFactory } from './continuation-conformance.js'
export type { ContinuationFound, ContinuationPart, ContinuationRead, ContinuationResult, ContinuationStore, ContinuationStoreOptions } from '../continuation/continuation-store.js'
