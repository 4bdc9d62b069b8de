import { isOverlongProxy } from '../json/guards.js'
import type { SensitivePath } from './sensitive-paths.js'

/** An object or an array: what a sensitive path steps through. */
export type Container = Record<string, unknown> | unknown[]

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null
const own = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key)

/** What {@link forEachLocation} calls for each location. */
type Visit = (container: Container, key: string | number, tokens: ReadonlyArray<string | number>) => void

/**
 * Calls `visit(container, key, tokens)` for every location of `path` that exists in `root`: the
 * last step's property (or, for `name[]`, each element of that array). `tokens` are the location's
 * JSON Pointer tokens from the root.
 *
 * Safe on values nobody has checked (a caller's input before its copy): an array is walked up to
 * its first hole only (`a.length = 2 ** 32 - 1` costs one step), and a read that throws (a getter,
 * a Proxy trap) ends that branch of the walk instead of escaping. The walk is as deep as the path.
 */
export function forEachLocation(root: unknown, path: SensitivePath, visit: Visit): void {
  walk(root, 0, [], path, visit)
}

/** The walk of {@link forEachLocation} from `node`, the location of `path[index]` (a module function: no closure per call). */
function walk(node: unknown, index: number, tokens: Array<string | number>, path: SensitivePath, visit: Visit): void {
  const step = path[index]
  let child: unknown
  try {
    if (step === undefined || !isContainer(node) || Array.isArray(node) || !own(node, step.key)) return
    child = node[step.key]
  } catch {
    return
  }
  const last = index === path.length - 1
  const at = [...tokens, step.key]
  if (!step.each || !Array.isArray(child)) {
    if (last) visit(node, step.key, at)
    else if (!step.each) walk(child, index + 1, at, path, visit)
    return
  }
  const items = child
  let length: number
  try {
    length = items.length
  } catch {
    return
  }
  // A Proxy array longer than any the library reads is refused anyway: nothing in it is visited.
  try {
    if (isOverlongProxy(items, length)) return
  } catch {
    return
  }
  for (let i = 0; i < length; i++) {
    let item: unknown
    try {
      // A hole ends the walk: no element past it is looked at, however long the array says it is.
      if (!(i in items)) return
      item = last ? undefined : items[i]
    } catch {
      return
    }
    if (last) visit(items, i, [...at, i])
    else walk(item, index + 1, [...at, i], path, visit)
  }
}

/** The value at JSON Pointer tokens, if every step exists as an own property. */
export function lookup(root: unknown, tokens: ReadonlyArray<string | number>): { found: boolean; value?: unknown } {
  let node = root
  for (const token of tokens) {
    if (!isContainer(node) || !own(node, String(token))) return { found: false }
    node = (node as Record<string, unknown>)[token as string]
  }
  return { found: true, value: node }
}
