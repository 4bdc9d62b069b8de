/**
 * Entry `result-views/sqlite`: persistent approval stores on `better-sqlite3@12` (an optional peer
 * dependency). Every export here is public API of result-views/sqlite: add exports deliberately,
 * by name (no `export *`), each with a doc comment.
 */
export { createSqliteApprovalStores } from './stores.js'
export type { SqliteApprovalStores, SqliteApprovalStoresOptions } from './stores.js'
export { SCHEMA_VERSION as SQLITE_APPROVAL_SCHEMA_VERSION } from './schema.js'
