import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describeThrown } from '../tokens/count-tokens.js'
import { ContractsError } from './contracts-error.js'
import { typeScriptHint } from './typescript-hint.js'
import { isTool, type ContractCatalog, type ContractFixtures } from './sources.js'
import { isRecord } from '../json/guards.js'
import type { UsageProblem } from 'result-views'

/** What {@link loadCatalogModule} found in a module. */
export interface LoadedCatalog {
  /** The module's catalog: a tool array, or a dispatcher. */
  readonly catalog: ContractCatalog
  /** Which export held it (`tools`, `default`, or another named export). */
  readonly exportName: string
  /** The module's `fixtures` export (tool ID → full records), when it has one. */
  readonly fixtures?: ContractFixtures
  /** The module's absolute path. */
  readonly path: string
}

/** A module that `--catalog` names, imported but not yet read for its catalog. */
export interface CatalogModule {
  /** The module's absolute path. */
  readonly path: string
  /** The module's exports (its namespace: the named exports and `default`). */
  readonly exports: Readonly<Record<string, unknown>>
}

/**
 * Imports the module a `--catalog` flag names, without choosing its catalog: the one import both
 * of the command's readers share ({@link loadCatalogModule} for `contracts`, and the `tool` and
 * `approvals` commands' target, which prefers a dispatcher: `docs/cli.md`). A JavaScript module
 * (ESM or CommonJS), or TypeScript where Node strips types (22.18 and later) or a loader such as
 * tsx is registered (`NODE_OPTIONS="--import tsx"`); elsewhere the import fails with the problem
 * `typescript_unsupported`, whose message says exactly what to run. Resolved against `cwd`.
 *
 * @param modulePath - the module's path, relative to `cwd`.
 * @param options - `cwd`: the directory relative paths start from. Default `process.cwd()`.
 * @throws ContractsError (`contracts_invalid`): `invalid_path` for a path that is not a non-empty
 *   string, `typescript_unsupported` for a TypeScript module this Node cannot load (no type
 *   stripping, no loader), `import_failed` when the import throws or rejects otherwise (what it
 *   threw is the cause in both).
 */
export async function importCatalogModule(modulePath: string, options: { cwd?: string } = {}): Promise<CatalogModule> {
  const subject = `catalog module ${JSON.stringify(modulePath)}`
  if (typeof modulePath !== 'string' || modulePath === '') throw new ContractsError(subject, [{ path: '', code: 'invalid_path', message: 'the catalog must be a module path' }])
  const path = resolve(options.cwd ?? process.cwd(), modulePath)
  try {
    return { path, exports: (await import(pathToFileURL(path).href)) as Record<string, unknown> }
  } catch (error) {
    const hint = typeScriptHint(path, error)
    const problem = hint === undefined ? { path: '', code: 'import_failed', message: `could not be imported: ${describeThrown(error)}` } : { path: '', code: 'typescript_unsupported', message: hint }
    throw new ContractsError(subject, [problem], error)
  }
}

/**
 * Loads the catalog of `result-views contracts --catalog <module>` (imported by
 * {@link importCatalogModule}): a module that exports a dispatcher, a tool array, or a `tools`
 * export. Read in this order: the `tools` export; the default export (when it is an array or a
 * dispatcher); else the one named export that is a dispatcher or a non-empty tool array (tools
 * come first: the compact budgets measure fixtures with the tools themselves). An exported
 * `tools` or default array is the catalog even when empty (a catalog of no tools), and each of
 * its entries must be a tool from `defineTool` or a tool descriptor: a bad entry is named
 * (`invalid_catalog` at `/tools/2`), never skipped for another export. A `fixtures` export (tool ID → full records) feeds the compact
 * budgets. See `docs/contracts.md` "CI usage".
 *
 * @param modulePath - the module's path, relative to `cwd`.
 * @param options - `cwd`: the directory relative paths start from. Default `process.cwd()`.
 * @throws ContractsError (`contracts_invalid`) when the module cannot be imported (the import
 *   error is the cause), exports no catalog or several (`no_catalog`, `ambiguous_catalog`), a
 *   `tools` (or default) export that is not a catalog or holds an entry that is no tool
 *   (`invalid_catalog` at `/tools/<index>`), or its `fixtures` is not an object.
 */
export async function loadCatalogModule(modulePath: string, options: { cwd?: string } = {}): Promise<LoadedCatalog> {
  const { path, exports: namespace } = await importCatalogModule(modulePath, options)
  const subject = `catalog module ${JSON.stringify(modulePath)}`
  const fail = (code: string, message: string, cause?: unknown): never => {
    throw new ContractsError(subject, [{ path: '', code, message }], cause)
  }
  const read = (name: string): unknown => {
    try {
      return namespace[name]
    } catch (error) {
      return fail('unreadable_export', `export ${JSON.stringify(name)} could not be read: ${describeThrown(error)}`, error)
    }
  }
  let exportName: string | undefined
  let catalog: unknown
  // `tools` is the catalog whenever it is exported: a bad entry is named, never skipped for another export.
  // A default export that is neither an array nor a dispatcher is some other value (a config object).
  for (const name of ['tools', 'default']) {
    const value = read(name)
    if (value === undefined || (name === 'default' && !Array.isArray(value) && !isDispatcherLike(value))) continue
    const problems = catalogProblems(value, `/${name}`)
    if (problems.length > 0) throw new ContractsError(subject, problems)
    exportName = name
    catalog = value
    break
  }
  if (exportName === undefined) {
    const found = Object.keys(namespace).filter((name) => name !== 'fixtures' && isCatalog(read(name)))
    if (found.length > 1) fail('ambiguous_catalog', `exports several catalogs (${found.join(', ')}); export the one to check as "tools"`)
    if (found.length === 0) fail('no_catalog', 'exports no catalog: export a dispatcher, an array of tools from defineTool, or a "tools" array')
    exportName = found[0]!
    catalog = read(exportName)
  }
  const fixtures = read('fixtures')
  if (fixtures !== undefined && !isRecord(fixtures)) {
    fail('invalid_fixtures', 'its "fixtures" export must be an object of tool ID → full records')
  }
  return { catalog: catalog as ContractCatalog, exportName, path, ...(fixtures === undefined ? {} : { fixtures: fixtures as ContractFixtures }) }
}

/** Most entries {@link catalogProblems} names one by one. */
const MAX_NAMED_ENTRIES = 20

/**
 * Why the export at `pointer` is not a catalog: `invalid_catalog` at the export for a value that
 * is neither an array nor a dispatcher (or a sparse array), and at `<pointer>/<index>` for each
 * entry that is neither a tool from `defineTool` nor a tool descriptor (the first
 * {@link MAX_NAMED_ENTRIES}). An empty array is a catalog (of no tools). A getter or Proxy that
 * throws is `unreadable_export`.
 */
function catalogProblems(value: unknown, pointer: string): UsageProblem[] {
  try {
    if (isDispatcherLike(value)) return []
    if (!Array.isArray(value)) {
      return [{ path: pointer, code: 'invalid_catalog', message: 'not a catalog: export a dispatcher or an array of tools from defineTool' }]
    }
    // Holes first: walking 2 ** 32 - 1 indices of a sparse array would never end.
    if (Object.keys(value).length !== value.length) return [{ path: pointer, code: 'invalid_catalog', message: 'a sparse array (it has holes): list each tool once' }]
    const problems: UsageProblem[] = []
    for (let index = 0; index < value.length && problems.length < MAX_NAMED_ENTRIES; index++) {
      const entry: unknown = value[index]
      if (!isTool(entry) && !isDescriptorLike(entry)) {
        problems.push({ path: `${pointer}/${index}`, code: 'invalid_catalog', message: 'not a tool returned by defineTool (nor a tool descriptor)' })
      }
    }
    return problems
  } catch (error) {
    return [{ path: pointer, code: 'unreadable_export', message: `could not be read: ${describeThrown(error)}` }]
  }
}

/** A dispatcher (invoke and list) or a non-empty array whose entries are tools or descriptors: what a named export must be to be guessed as the catalog. */
function isCatalog(value: unknown): boolean {
  try {
    return (Array.isArray(value) && value.length > 0 && catalogProblems(value, '').length === 0) || isDispatcherLike(value)
  } catch {
    return false
  }
}

function isDispatcherLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null &&
    typeof (value as { list?: unknown }).list === 'function' && typeof (value as { invoke?: unknown }).invoke === 'function'
}

function isDescriptorLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { tool_id?: unknown }).tool_id === 'string' &&
    typeof (value as { output_schema_digest?: unknown }).output_schema_digest === 'string'
}
