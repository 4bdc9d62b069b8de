import { createDispatcher, isUsageError, type Dispatcher } from 'result-views'
import { importCatalogModule, isContractsError, type CatalogModule } from 'result-views/contracts'
import { createFetchHandler } from 'result-views/http'
import { callHost } from '../async/deadline.js'
import { isRecord } from '../json/guards.js'
import { stringifyJson } from '../json/json-text.js'
import { queryString, targetUnavailable, type ApiAnswer, type ApiRequest, type Target } from './target.js'

/** A catalog module that could not serve as a target, and why (a usage error: exit 2). */
export interface CatalogProblem {
  readonly problem: string
}

/**
 * A target that runs a catalog module in this process, through the same routes as a server
 * (`createFetchHandler`, the call counting as local). The module (imported by
 * `importCatalogModule` of `result-views/contracts`, resolved against `cwd`) exports a
 * `Dispatcher` (default export, or `dispatcher`), or a tool array (default export, or `tools`)
 * that a dispatcher is built from (`dispatcher` and `tools` are also read from the default export,
 * where a CommonJS `module.exports = { … }` puts them); a dispatcher wins over tools, since it carries the host's
 * policy, hooks and approvals (`docs/cli.md`; `contracts --catalog` reads `tools` first instead,
 * because its budgets need the tools themselves).
 *
 * `timeoutMs` (`--timeout-ms`) bounds loading the module and each call: a module still loading
 * then is a problem, a call still running is `cli_target_unavailable` / `timeout` (the waiting
 * timer keeps the process alive, so a promise that never settles cannot end it silently).
 *
 * @returns the target, or the problem: the module failed to load or did not finish loading within
 *   `timeoutMs`, or exports none of those (naming what it does export), or its tools cannot make a
 *   catalog, or its dispatcher is one `createFetchHandler` refuses.
 */
export async function catalogTarget(path: string, cwd: string, timeoutMs: number): Promise<Target | CatalogProblem> {
  // The timer is not unref'd: while it waits, the process stays alive (a never-settling load
  // would otherwise end the process with Node's exit 13 and no message).
  const loaded = await callHost(() => importCatalogModule(path, { cwd }), { timeoutMs })
  if (!loaded.ok) {
    if (loaded.failure === 'timeout') return { problem: `cannot load --catalog ${path}: it did not finish loading within ${timeoutMs} ms` }
    // The import's own error says why (the ContractsError around it names the module again).
    const error = loaded.cause
    // A TypeScript module this Node cannot load: the problem's message says what to run.
    const unsupported = isContractsError(error) ? error.problems.find((problem) => problem.code === 'typescript_unsupported') : undefined
    if (unsupported !== undefined) return { problem: `cannot load --catalog ${path}: ${unsupported.message}` }
    const cause = isContractsError(error) && error.cause !== undefined ? error.cause : error
    return { problem: `cannot load --catalog ${path}: ${describeError(cause)}` }
  }
  const module: CatalogModule = loaded.value
  let found: { dispatcher: Dispatcher } | CatalogProblem
  try {
    found = dispatcherOf(module.exports, path)
  } catch {
    return { problem: `--catalog ${path}: its exports could not be read (a getter or a Proxy threw)` }
  }
  if ('problem' in found) return found
  let handle: ReturnType<typeof createFetchHandler>
  try {
    handle = createFetchHandler(found.dispatcher)
  } catch (error) {
    // HttpOptionsError: a look-alike that is not a dispatcher; its problems say what is wrong.
    return { problem: `--catalog ${path}: its dispatcher cannot serve the routes: ${isUsageError(error) ? usageProblems(error) : describeError(error)}` }
  }
  return {
    send: async (call: ApiRequest): Promise<ApiAnswer> => {
      const init: RequestInit =
        call.body === undefined
          ? { method: call.method, headers: { accept: 'application/json' } }
          : { method: call.method, headers: { accept: 'application/json', 'content-type': 'application/json' }, body: stringifyJson(call.body) }
      const answered = await callHost(async (): Promise<ApiAnswer> => {
        const response = await handle(new Request(`http://catalog.invalid/api${call.path}${queryString(call.query)}`, init), { local: true })
        try {
          return { ok: true, status: response.status, body: await response.json() }
        } catch {
          return targetUnavailable('response_invalid', `the catalog answered HTTP ${response.status} without JSON`)
        }
      }, { timeoutMs })
      if (answered.ok) return answered.value
      return answered.failure === 'timeout'
        ? targetUnavailable('timeout', `the catalog did not answer within ${timeoutMs} ms`)
        : targetUnavailable('response_invalid', `the catalog failed to answer: ${describeError(answered.cause)}`)
    },
  }
}

/** `/dispatcher: not a dispatcher; …`: every problem of a usage error, path first. */
function usageProblems(error: { readonly problems: readonly { readonly path: string; readonly message: string }[] }): string {
  return error.problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')
}

function dispatcherOf(module: Readonly<Record<string, unknown>>, path: string): { dispatcher: Dispatcher } | CatalogProblem {
  // A CommonJS module's `module.exports = { dispatcher, tools }` arrives as the default export.
  const inner = isRecord(module.default) ? module.default : {}
  for (const candidate of [module.default, module.dispatcher, inner.dispatcher]) if (isDispatcher(candidate)) return { dispatcher: candidate }
  const tools = [module.default, module.tools, inner.tools].find((candidate) => Array.isArray(candidate))
  if (tools !== undefined) {
    try {
      return { dispatcher: createDispatcher({ tools }) }
    } catch (error) {
      // createDispatcher throws only for a misuse such as this (ToolDefinitionError and kin).
      return { problem: `--catalog ${path}: its tools cannot make a catalog: ${error instanceof Error ? error.message : String(error)}` }
    }
  }
  return {
    problem:
      `--catalog ${path} exports ${describeExports(module)}; expected a Dispatcher (the default export or "dispatcher"), ` +
      'a tool array (the default export) or a "tools" array (also as members of the default export, as CommonJS exports them)',
  }
}

function isDispatcher(value: unknown): value is Dispatcher {
  if (typeof value !== 'object' || value === null) return false
  const d = value as Record<string, unknown>
  return typeof d.invoke === 'function' && typeof d.describe === 'function' && typeof d.list === 'function' && typeof d.approvals === 'object' && d.approvals !== null
}

/** `default (object), tools (string)`, or `nothing`. */
function describeExports(module: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(module).sort()
  if (names.length === 0) return 'nothing'
  return names.map((name) => `${name} (${kindOf(module[name])})`).join(', ')
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return `array of ${value.length}`
  return typeof value
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.split('\n')[0]}`
  return String(error)
}
