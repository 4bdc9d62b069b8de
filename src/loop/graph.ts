import type { LoopDefinition } from './definition.js'
import { diagnostic, type LoopDiagnostic } from './diagnostics.js'
import { toPointer } from '../json/pointer.js'

/** The dependency structure of a Loop, and what is wrong with it. */
export interface LoopGraphIndex {
  /** Node ID → index of its first node in `graph.nodes`. */
  readonly indexOf: ReadonlyMap<string, number>
  /** Node ID → the IDs of its direct predecessors (edges whose both ends exist), in edge order. */
  readonly parents: ReadonlyMap<string, readonly string[]>
  /** `duplicate_node_id`, `unknown_node` (edges) and `graph_cycle` diagnostics. */
  readonly diagnostics: readonly LoopDiagnostic[]
  /** Every node upstream of `id` through edges (not `id` itself unless it is on a cycle). */
  ancestorsOf(id: string): ReadonlySet<string>
  /** Node IDs in dependency order, ties broken by definition order. Complete only without cycles. */
  readonly order: readonly string[]
}

/** Indexes the nodes and edges of a (shape-checked) definition. */
export function analyzeGraph(definition: LoopDefinition): LoopGraphIndex {
  const { nodes } = definition.graph
  const edges = definition.graph.edges ?? []
  const diagnostics: LoopDiagnostic[] = []
  const indexOf = new Map<string, number>()
  nodes.forEach((node, index) => {
    const first = indexOf.get(node.id)
    if (first === undefined) indexOf.set(node.id, index)
    else {
      diagnostics.push(diagnostic('duplicate_node_id', node.id, toPointer(['graph', 'nodes', index, 'id']), `node id "${node.id}" is used by more than one node (first at ${toPointer(['graph', 'nodes', first])})`))
    }
  })

  const parents = new Map<string, string[]>([...indexOf.keys()].map((id) => [id, []]))
  const children = new Map<string, Array<{ readonly to: string; readonly edge: number }>>([...indexOf.keys()].map((id) => [id, []]))
  edges.forEach((edge, index) => {
    for (const end of ['from', 'to'] as const) {
      if (!indexOf.has(edge[end])) {
        diagnostics.push(diagnostic('unknown_node', null, toPointer(['graph', 'edges', index, end]), `edge from "${edge.from}" to "${edge.to}" names node "${edge[end]}", which the graph does not have`))
      }
    }
    if (indexOf.has(edge.from) && indexOf.has(edge.to)) {
      parents.get(edge.to)!.push(edge.from)
      children.get(edge.from)!.push({ to: edge.to, edge: index })
    }
  })

  diagnostics.push(...cycleDiagnostics([...indexOf.keys()], children))

  const ancestorCache = new Map<string, ReadonlySet<string>>()
  const ancestorsOf = (id: string): ReadonlySet<string> => {
    let found = ancestorCache.get(id)
    if (found === undefined) {
      const seen = new Set<string>()
      const stack = [...(parents.get(id) ?? [])]
      while (stack.length > 0) {
        const next = stack.pop()!
        if (seen.has(next)) continue
        seen.add(next)
        stack.push(...(parents.get(next) ?? []))
      }
      found = seen
      ancestorCache.set(id, found)
    }
    return found
  }

  return { indexOf, parents, diagnostics, ancestorsOf, order: topologicalOrder([...indexOf.keys()], parents) }
}

/** Kahn's algorithm; among ready nodes the earliest in the definition goes first. */
function topologicalOrder(ids: readonly string[], parents: ReadonlyMap<string, readonly string[]>): string[] {
  const done = new Set<string>()
  const order: string[] = []
  let progressed = true
  while (progressed) {
    progressed = false
    for (const id of ids) {
      if (done.has(id) || !parents.get(id)!.every((parent) => done.has(parent))) continue
      done.add(id)
      order.push(id)
      progressed = true
      break
    }
  }
  return order
}

/** One `graph_cycle` per strongly connected component that holds a cycle (Tarjan), naming one cycle in it. */
function cycleDiagnostics(ids: readonly string[], children: ReadonlyMap<string, ReadonlyArray<{ readonly to: string; readonly edge: number }>>): LoopDiagnostic[] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  let counter = 0
  const connect = (id: string): void => {
    index.set(id, counter)
    low.set(id, counter)
    counter++
    stack.push(id)
    onStack.add(id)
    for (const { to } of children.get(id)!) {
      if (!index.has(to)) {
        connect(to)
        low.set(id, Math.min(low.get(id)!, low.get(to)!))
      } else if (onStack.has(to)) {
        low.set(id, Math.min(low.get(id)!, index.get(to)!))
      }
    }
    if (low.get(id) === index.get(id)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== id)
      components.push(component)
    }
  }
  for (const id of ids) if (!index.has(id)) connect(id)

  const position = new Map(ids.map((id, i) => [id, i]))
  const found: Array<{ readonly first: number; readonly diagnostic: LoopDiagnostic }> = []
  for (const component of components) {
    const members = new Set(component)
    const start = component.reduce((a, b) => (position.get(a)! <= position.get(b)! ? a : b))
    const selfEdge = children.get(start)!.find((c) => c.to === start)
    if (component.length === 1 && selfEdge === undefined) continue
    const cycle = selfEdge === undefined ? cycleThrough(start, members, children) : { path: [start, start], closing: selfEdge.edge }
    const names = cycle.path.map((id) => `"${id}"`).join(' -> ')
    found.push({ first: position.get(start)!, diagnostic: diagnostic('graph_cycle', null, toPointer(['graph', 'edges', cycle.closing]), `nodes ${names} form a cycle`) })
  }
  return found.sort((a, b) => a.first - b.first).map((f) => f.diagnostic)
}

/** A shortest cycle from `start` back to it inside one component (breadth-first), and its closing edge. */
function cycleThrough(
  start: string,
  members: ReadonlySet<string>,
  children: ReadonlyMap<string, ReadonlyArray<{ readonly to: string; readonly edge: number }>>,
): { readonly path: string[]; readonly closing: number } {
  const previous = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const id = queue.shift()!
    for (const { to, edge } of children.get(id)!) {
      if (!members.has(to)) continue
      if (to === start) {
        const path = [id]
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!)
        return { path: [...path, start], closing: edge }
      }
      if (!previous.has(to)) {
        previous.set(to, id)
        queue.push(to)
      }
    }
  }
  return { path: [start, start], closing: 0 }
}
