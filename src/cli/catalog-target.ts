import { createDispatcher, type Dispatcher } from 'result-views'
import { importCatalogModule, isContractsError, type CatalogModule } from 'result-views/contracts'
import { createFetchHandler } from 'result-views/http'
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
 * that a dispatcher is built from; a dispatcher wins over tools, since it carries the host's
 * policy, hooks and approvals (`docs/cli.md`; `contracts --catalog` reads `tools` first instead,
 * because its budgets need the tools themselves).
 *
 * @returns the target, or the problem: the module failed to load, or exports none of those
 *   (naming what it does export), or its tools cannot make a catalog.
 */
export async function catalogTarget(path: string, cwd: string): Promise<Target | CatalogProblem> {
  let module: CatalogModule
  try {
    module = await importCatalogModule(path, { cwd })
  } catch (error) {
    // The import's own error says why (the ContractsError around it names the module again).
    const cause = isContractsError(error) && error.cause !== undefined ? error.cause : error
    return { problem: `cannot load --catalog ${path}: ${describeError(cause)}` }
  }
  let found: { dispatcher: Dispatcher } | CatalogProblem
  try {
    found = dispatcherOf(module.exports, path)
  } catch {
    return { problem: `--catalog ${path}: its exports could not be read (a getter or a Proxy threw)` }
  }
  if ('problem' in found) return found
  const handle = createFetchHandler(found.dispatcher)
  return {
    send: async (call: ApiRequest): Promise<ApiAnswer> => {
      const init: RequestInit =
        call.body === undefined
          ? { method: call.method, headers: { accept: 'application/json' } }
          : { method: call.method, headers: { accept: 'application/json', 'content-type': 'application/json' }, body: stringifyJson(call.body) }
      const response = await handle(new Request(`http://catalog.invalid/api${call.path}${queryString(call.query)}`, init), { local: true })
      try {
        return { ok: true, status: response.status, body: await response.json() }
      } catch {
        return targetUnavailable('response_invalid', `the catalog answered HTTP ${response.status} without JSON`)
      }
    },
  }
}

function dispatcherOf(module: Readonly<Record<string, unknown>>, path: string): { dispatcher: Dispatcher } | CatalogProblem {
  for (const candidate of [module.default, module.dispatcher]) if (isDispatcher(candidate)) return { dispatcher: candidate }
  const tools = Array.isArray(module.default) ? module.default : Array.isArray(module.tools) ? module.tools : undefined
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
      'a tool array (the default export) or a "tools" array',
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
