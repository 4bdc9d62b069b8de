import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { isUsageError } from 'result-views'
import { describeThrown, type CountTokens } from '../tokens/count-tokens.js'
import { loadCatalogModule } from './catalog-module.js'
import { compareContracts } from './compare.js'
import { CONTRACT_LOCK_FORMAT, CONTRACT_LOCK_VERSION, DEFAULT_LOCK_FILE, type ContractLock } from './lock.js'
import { isRecord } from '../json/guards.js'
import { formatContractLock, parseContractLock, sortedJson } from './lock-text.js'
import { viewReleaseNote } from './release-note.js'
import { formatComparisonTable } from './report-table.js'
import { readOptions } from './options.js'
import { contractLock } from './sources.js'

/**
 * What a command produced: its exit code (0 ok, 1 a breaking change, 2 usage, 4 compatible drift
 * that `failOn: 'drift'` fails on) and its output.
 */
export interface CommandOutput {
  /**
   * 0: ok (no drift, or only compatible drift with `failOn: 'breaking'`; lock written, note
   * printed); 1: the check found a breaking change (an unaccepted unproven one, a removed tool or
   * a budget grown past its tolerance included); 2: a usage problem; 4: the contracts drifted,
   * compatibly, and `failOn` is `'drift'` (the default): update the lock.
   */
  readonly exitCode: 0 | 1 | 2 | 4
  /** What the command prints on standard output (ends with a newline when not empty). */
  readonly stdout: string
  /** What it prints on standard error: the reason of an exit 2. */
  readonly stderr: string
}

/** Options of {@link runContractsCheck}: the flags of `result-views contracts check`. */
export interface ContractsCheckOptions {
  /** `--catalog`: the module exporting the catalog (see `loadCatalogModule`), relative to `cwd`. */
  catalog: string
  /** `--lock`: the lock file, relative to `cwd`. Default `tool-contracts.lock.json`. */
  lockPath?: string
  /** `--update`: write the catalog's lock instead of checking against it. */
  update?: boolean
  /** `-o`: `table` (default) or `json` (the comparison; with `--update`, the lock written). */
  format?: 'table' | 'json'
  /** The directory relative paths start from. Default `process.cwd()`. */
  cwd?: string
  /** `--accept-unproven [tool...]`: unproven verdicts that do not count as breaking (see `compareContracts`). */
  acceptUnproven?: boolean | readonly string[]
  /** `--budget-tolerance`: how far a compact budget may grow, as a ratio. Default 0.05. */
  budgetTolerance?: number
  /**
   * `--fail-on`: what fails the check. `'drift'` (default): any drift, exit 1 when a change is
   * breaking and 4 when every change is compatible; `'breaking'`: only a breaking change (exit 1),
   * compatible drift prints its table and exits 0.
   */
  failOn?: 'breaking' | 'drift'
  /** Counts tokens for the budgets. Default: `gpt-tokenizer` o200k. */
  countTokens?: CountTokens
  /** The name recorded for `countTokens` (see `contractLock`); unnamed, two budgets are `incomparable`. */
  tokenizer?: string
}

/** Options of {@link runReleaseNote}: the flags of `result-views contracts release-note`. */
export interface ReleaseNoteOptions {
  /** `--from`: the previous release's lock file, relative to `cwd`. */
  from: string
  /** `--catalog`: the module exporting this release's catalog, relative to `cwd`. */
  catalog: string
  /** `-o`: `markdown` (default) or `json` (the note's data and its Markdown). */
  format?: 'markdown' | 'json'
  /** The directory relative paths start from. Default `process.cwd()`. */
  cwd?: string
}

const CHECK_OPTIONS = ['catalog', 'lockPath', 'update', 'format', 'cwd', 'acceptUnproven', 'budgetTolerance', 'failOn', 'countTokens', 'tokenizer']
const RELEASE_NOTE_OPTIONS = ['from', 'catalog', 'format', 'cwd']

const ok = (stdout: string): CommandOutput => ({ exitCode: 0, stdout, stderr: '' })
const usage = (stderr: string): CommandOutput => ({ exitCode: 2, stdout: '', stderr: stderr.endsWith('\n') ? stderr : `${stderr}\n` })

/**
 * `result-views contracts check --catalog <module> [--lock <file>] [--update] [-o json]`
 * (`docs/contracts.md` "CI usage"). Checks the catalog against the lock: exit 0 when nothing
 * drifted; exit 1 with the drift table (tool, schema, verdict, field, reason) and a summary that
 * names the breaking changes, or the comparison as JSON with `format: 'json'`; exit 4 (the same
 * output) when every change is compatible and `failOn` is `'drift'` (the default), 0 with
 * `failOn: 'breaking'`. With `update`, it
 * writes the catalog's lock (atomically: a temporary file, then a rename) with the compact budgets
 * of the module's `fixtures`, and exits 0 (exit 2, the file untouched, when the lock there has a
 * newer format version than this library writes). Never throws: an unreadable catalog module, a missing or
 * malformed lock, or a bad option is exit 2 with the reason on stderr.
 */
export async function runContractsCheck(options: ContractsCheckOptions): Promise<CommandOutput> {
  try {
    const read = readOptions(options, CHECK_OPTIONS, 'runContractsCheck options') as unknown as ContractsCheckOptions
    const { catalog: modulePath, lockPath = DEFAULT_LOCK_FILE, update = false, format = 'table', cwd = process.cwd(), failOn = 'drift' } = read
    if (typeof update !== 'boolean') return usage('contracts check: update must be a boolean')
    if (failOn !== 'breaking' && failOn !== 'drift') return usage(`contracts check: --fail-on must be "breaking" or "drift", not ${JSON.stringify(failOn)}`)
    if (format !== 'table' && format !== 'json') return usage(`contracts check: -o must be "table" or "json", not ${JSON.stringify(format)}`)
    if (typeof lockPath !== 'string' || lockPath === '') return usage('contracts check: --lock must be a file path')
    const loaded = await loadCatalogModule(modulePath, { cwd })
    const lockFile = resolve(cwd, lockPath)
    const measuring = {
      ...(loaded.fixtures === undefined ? {} : { fixtures: loaded.fixtures }),
      ...(read.countTokens === undefined ? {} : { countTokens: read.countTokens }),
      ...(read.tokenizer === undefined ? {} : { tokenizer: read.tokenizer }),
    }
    if (update) {
      const newer = newerLockVersion(lockFile)
      if (newer !== undefined) {
        return usage(`contracts check: ${lockPath} is a version ${newer} lock, newer than the version ${CONTRACT_LOCK_VERSION} this result-views writes: upgrade result-views instead of rewriting it with an older format`)
      }
      const lock = contractLock(loaded.catalog, measuring)
      writeAtomically(lockFile, formatContractLock(lock))
      const count = Object.keys(lock.tools).length
      const budgets = Object.values(lock.tools).filter((t) => t.budget !== undefined).length
      return ok(format === 'json'
        ? `${sortedJson({ lock: lockPath, tools: count, budgets }, '')}\n`
        : `wrote ${lockPath}: ${count} tool contract${count === 1 ? '' : 's'}${budgets > 0 ? `, ${budgets} with a compact budget` : ''}\n`)
    }
    const lock = readLock(lockFile, lockPath, () =>
      `no lock file at ${lockPath}: create it with \`result-views contracts check --catalog ${modulePath} --lock ${lockPath} --update\` and commit it`)
    if (typeof lock === 'string') return usage(lock)
    const comparison = compareContracts(lock, loaded.catalog, {
      ...measuring,
      ...(read.acceptUnproven === undefined ? {} : { acceptUnproven: read.acceptUnproven }),
      ...(read.budgetTolerance === undefined ? {} : { budgetTolerance: read.budgetTolerance }),
    })
    const stdout = format === 'json' ? `${JSON.stringify(comparison)}\n` : formatComparisonTable(comparison)
    return { exitCode: comparison.breaking ? 1 : comparison.drifted && failOn === 'drift' ? 4 : 0, stdout, stderr: '' }
  } catch (error) {
    return usage(`contracts check: ${messageOf(error)}`)
  }
}

/**
 * `result-views contracts release-note --from <old lock> --catalog <module> [-o json]`: prints the
 * release note (see `viewReleaseNote`) of the catalog against the old lock, as Markdown (or as
 * JSON `{ tools, markdown }`). Exit 0; never throws: an unreadable module or lock, or a bad option,
 * is exit 2 with the reason on stderr.
 */
export async function runReleaseNote(options: ReleaseNoteOptions): Promise<CommandOutput> {
  try {
    const { from, catalog: modulePath, format = 'markdown', cwd = process.cwd() } = readOptions(options, RELEASE_NOTE_OPTIONS, 'runReleaseNote options') as unknown as ReleaseNoteOptions
    if (format !== 'markdown' && format !== 'json') return usage(`contracts release-note: -o must be "markdown" or "json", not ${JSON.stringify(format)}`)
    if (typeof from !== 'string' || from === '') return usage('contracts release-note: --from must be the previous lock file')
    const loaded = await loadCatalogModule(modulePath, { cwd })
    const lock = readLock(resolve(cwd, from), from, () =>
      // Not the current catalog's lock: the note of a catalog against itself is empty.
      `no lock file at ${from}: --from must be the lock of the last release, e.g. \`git show <last release tag>:tool-contracts.lock.json > ${from}\``)
    if (typeof lock === 'string') return usage(lock)
    const note = viewReleaseNote(lock, loaded.catalog)
    return ok(format === 'json' ? `${JSON.stringify(note)}\n` : note.markdown)
  } catch (error) {
    return usage(`contracts release-note: ${messageOf(error)}`)
  }
}

/** The lock at `file`, or the message saying why it cannot be read (`missing()` when there is no such file). */
function readLock(file: string, shown: string, missing: () => string): ContractLock | string {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return missing()
    return `the lock file ${shown} cannot be read: ${describeThrown(error)}`
  }
  return parseContractLock(text, `lock file ${JSON.stringify(shown)}`)
}

/** The `version` of the contract lock at `file` when it is newer than this library writes; `undefined` otherwise (no file, not a lock, not newer). */
function newerLockVersion(file: string): number | undefined {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
  if (!isRecord(value) || value.format !== CONTRACT_LOCK_FORMAT) return undefined
  const { version } = value
  return typeof version === 'number' && version > CONTRACT_LOCK_VERSION ? version : undefined
}

function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, text, 'utf8')
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

function messageOf(error: unknown): string {
  return isUsageError(error) ? error.message : describeThrown(error)
}
