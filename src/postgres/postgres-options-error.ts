import { UsageError } from 'result-views'
import { subjectUsageErrorClass, type CodedUsageError } from '../errors/usage-error-class.js'

/**
 * Thrown (or, from `migrate`, rejected with) for a misuse of `result-views/postgres`. A
 * `UsageError` (root entry) with `code: 'postgres_options_invalid'`: `problems` lists every
 * problem found, each `{ path, code, message }` with `path` a JSON Pointer into the options:
 *
 * - `invalid_option`: the options are not an object;
 * - `connection_missing` / `connection_ambiguous`: neither or both of `pool` and `connectionString`;
 * - `invalid_pool`: `pool` has no `query` and `connect` functions (it must be a `pg.Pool`);
 * - `invalid_connection_string`: `connectionString` is not a non-empty string;
 * - `invalid_table_prefix`: `tablePrefix` is not a lowercase SQL identifier prefix
 *   (`[a-z_][a-z0-9_]*`, at most 30 characters, or `''`);
 * - `invalid_lock_timeout`: `migrate`'s `lockTimeoutMs` is not a positive integer of milliseconds;
 * - `invalid_statement_timeout`: `createPostgresApprovalStores`' `statementTimeoutMs` is not a positive integer of milliseconds;
 * - `unknown_option`: a key the function does not know, with "did you mean";
 * - `unreadable_option`: reading the option threw (a getter or a Proxy);
 * - `schema_too_new`: `migrate` found tables written by a newer schema version than this release
 *   reads (path `/tablePrefix`).
 *
 * See `docs/approvals.md` "Running on several machines". Match with {@link isPostgresOptionsError}
 * or `isUsageError` and `code`, not `instanceof`.
 */
export const PostgresOptionsError = subjectUsageErrorClass(UsageError, 'postgres_options_invalid')

/** An error of the class PostgresOptionsError (`new PostgresOptionsError(subject, problems, cause?)`; `code: 'postgres_options_invalid'`). */
export type PostgresOptionsError = CodedUsageError<'postgres_options_invalid'>

/** True for an {@link PostgresOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export const isPostgresOptionsError = PostgresOptionsError.is
