import { UsageError, type UsageProblem } from 'result-views'
import { defineBrand } from '../errors/brand.js'

const brand = defineBrand('result-views.PostgresOptionsError')

/**
 * Thrown (or, from `migrate`, rejected with) for a misuse of `result-views/postgres`. A
 * `UsageError` (root entry) with `code: 'postgres_options_invalid'`: `problems` lists every
 * problem found, each `{ path, code, message }` with `path` a JSON Pointer into the options:
 *
 * - `not_an_object`: the options are not an object;
 * - `connection_missing` / `connection_ambiguous`: neither or both of `pool` and `connectionString`;
 * - `invalid_pool`: `pool` has no `query` and `connect` functions (it must be a `pg.Pool`);
 * - `invalid_connection_string`: `connectionString` is not a non-empty string;
 * - `invalid_table_prefix`: `tablePrefix` is not a lowercase SQL identifier prefix
 *   (`[a-z_][a-z0-9_]*`, at most 30 characters, or `''`);
 * - `invalid_lock_timeout`: `migrate`'s `lockTimeoutMs` is not a positive integer of milliseconds;
 * - `invalid_statement_timeout`: `createPostgresApprovalStores`' `statementTimeoutMs` is not a positive integer of milliseconds;
 * - `unknown_option`: a key the function does not know;
 * - `unreadable_option`: reading the option threw (a getter or a Proxy);
 * - `schema_too_new`: `migrate` found tables written by a newer schema version than this release
 *   reads (path `/tablePrefix`).
 *
 * See `docs/approvals.md` "Running on several machines". Match with {@link isPostgresOptionsError}
 * or `isUsageError` and `code`, not `instanceof`.
 */
export class PostgresOptionsError extends UsageError {
  /** Always `'PostgresOptionsError'`. */
  override readonly name = 'PostgresOptionsError'
  /** Always `'postgres_options_invalid'` (`docs/errors.md` "Misuse errors"). */
  declare readonly code: 'postgres_options_invalid'

  /**
   * @param subject - what was misused: `createPostgresApprovalStores options` or `migrate options`.
   * @param problems - every problem found, at least one.
   */
  constructor(subject: string, problems: readonly UsageProblem[]) {
    super({ code: 'postgres_options_invalid', subject, problems })
    brand.mark(this)
  }
}

/** True for a {@link PostgresOptionsError} from any copy of this library (checks its own global brand, not `instanceof`). */
export function isPostgresOptionsError(value: unknown): value is PostgresOptionsError {
  return brand.has(value)
}
