/**
 * Entry `result-views/postgres`: approval stores and the continuation store on PostgreSQL through `pg@8` (node-postgres, an
 * optional peer dependency needed only by this entry), for hosts that run several instances.
 * Every export here is public API of result-views/postgres: add exports deliberately, by name (no
 * `export *`), each with a doc comment.
 */
export { createPostgresApprovalStores } from './stores.js'
export type { PostgresApprovalStores, PostgresStoresOptions } from './stores.js'
export type { PostgresApprovalStoresOptions } from './options.js'
export { createPostgresContinuationStore } from './continuation-store.js'
export type { PostgresContinuationStore, PostgresContinuationStoreOptions } from './continuation-store.js'
export type { ContinuationFound, ContinuationPart, ContinuationRead, ContinuationResult, ContinuationStore, ContinuationStoreOptions } from '../continuation/continuation-store.js'
export { migrate } from './migrate.js'
export type { MigrateOptions, MigrateResult } from './migrate.js'
export { PostgresOptionsError, isPostgresOptionsError } from './postgres-options-error.js'
export { SCHEMA_VERSION as POSTGRES_APPROVAL_SCHEMA_VERSION } from './schema.js'
