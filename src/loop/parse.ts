import { isCollection, LineCounter, parseDocument, visit, type Document, type YAMLError } from 'yaml'
import { canonicalJson, isJsonValueError } from 'result-views'
import { LOOP_NODE_ID_PATTERN, PATH_SEGMENT_PATTERN, type LoopDefinition } from './definition.js'
import { definitionInvalid, type LoopProblem } from './errors.js'
import { rememberSource, sourceOf, yamlSource } from './yaml-source.js'
import { deepFreeze } from '../json/freeze.js'
import { isRecord } from '../json/guards.js'
import { parsePointer, toPointer } from '../json/pointer.js'

/** Most aliases a YAML definition may expand (the `yaml` package's guard against alias bombs). */
const MAX_YAML_ALIASES = 100

/** The only node class: every node is an action node, and its `kind` names what it runs. */
const LOOP_NODE_CLASS = 'action'

/**
 * Checks that `value` has the Loop shape and returns a frozen plain-JSON copy (key order and
 * the keys this library does not read are kept). The shape: `{ graph: { nodes: [...], edges?: [...] } }`; each node has a
 * string `id` matching `LOOP_NODE_ID_PATTERN`, `class: "action"` (required; the only node class,
 * see `docs/loops.md` "Definitions"), a non-empty string `kind`, optional `params` (an object) and
 * optional `produces` (dotted paths such as `session.id`); each edge has string `from` and `to`.
 * Graph rules (unique IDs, known nodes, no cycles) are lint's job.
 *
 * A copy of a definition returned by {@link parseLoopYaml} keeps its YAML positions, so lint
 * diagnostics of the copy still carry `line` and `column`.
 *
 * @throws LoopError (`code: 'loop_definition_invalid'`) listing every problem with its JSON Pointer.
 */
export function parseLoopDefinition(value: unknown): LoopDefinition {
  const problems = shapeProblems(value)
  if (problems.length > 0) throw definitionInvalid(problems.map(({ path, code, message }) => ({ path, code, message })))
  const definition = deepFreeze(JSON.parse(JSON.stringify(value)) as LoopDefinition)
  // A parseLoopYaml result is deeply frozen: its copy is the same document, value for value.
  const source = sourceOf(value)
  if (source !== undefined) rememberSource(definition, source)
  return definition
}

/**
 * Parses YAML text (one document) into a Loop definition, as {@link parseLoopDefinition} checks it.
 * Every problem, YAML syntax and shape alike, carries the 1-based `line` and `column` where it is
 * (columns in UTF-16 code units; a leading byte order mark is not counted). The returned
 * definition remembers where each of its values is written, so `lintLoop` (and `startRun`,
 * `runLoop`) diagnostics of it carry `line` and `column` too (`docs/loops.md` "Positions").
 * One document: a `%YAML` directive, a `---` start and a `...` end marker are fine; a second
 * document is a problem. Never writes to stderr (the `yaml` package's warnings are silenced; what
 * they would warn about is reported as a problem instead).
 *
 * An unquoted template (`p: {{ .inputs.x }}`) is a YAML flow mapping, not a string: it is reported
 * as `unquoted template: …` at the `{{`, telling the user to quote it (`p: "{{ .inputs.x }}"`).
 * Any other mapping key that is itself a mapping or a list is reported too. An unclosed quoted
 * string is reported where its opening quote is (the `yaml` package itself points at the end of
 * the text).
 *
 * @throws LoopError (`code: 'loop_definition_invalid'`): YAML errors (bad indentation, duplicate
 *   keys, several documents, alias bombs, unquoted templates, unclosed quotes, ...) or shape
 *   problems, each with `line` and `column`.
 */
export function parseLoopYaml(text: string): LoopDefinition {
  if (typeof text !== 'string') throw definitionInvalid([{ path: '', code: 'invalid_source', message: 'YAML source must be a string' }])
  // Editors do not count a byte order mark as a column: neither do positions.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const lineCounter = new LineCounter()
  const document = parseDocument(body, { lineCounter, prettyErrors: false, uniqueKeys: true, logLevel: 'error' })
  const at = (offset: number): { line: number; column: number } => {
    const position = lineCounter.linePos(offset)
    return { line: position.line, column: position.col }
  }
  if (document.errors.length > 0) {
    throw definitionInvalid(
      document.errors.map((error) => {
        const offset = errorOffset(document, error)
        const message = offset === error.pos[0] ? firstLine(error.message) : `${firstLine(error.message)}: the quoted string that starts here is never closed`
        return { path: '', code: 'yaml_syntax', message, ...at(offset) }
      }),
    )
  }
  const keyProblems = collectionKeys(document, body)
  if (keyProblems.length > 0) throw definitionInvalid(keyProblems.map(({ code, message, offset }) => ({ path: '', code, message, ...at(offset) })))
  let value: unknown
  try {
    value = document.toJS({ maxAliasCount: MAX_YAML_ALIASES })
  } catch (error) {
    const message = error instanceof Error ? firstLine(error.message) : 'the YAML document cannot be converted to JSON'
    throw definitionInvalid([{ path: '', code: 'yaml_not_json', message, line: 1, column: 1 }])
  }
  const source = yamlSource(document, body, lineCounter)
  const problems = shapeProblems(value)
  if (problems.length > 0) throw definitionInvalid(problems.map(({ path, code, message, tokens }) => ({ path, code, message, ...source.locate(tokens) })))
  const definition = deepFreeze(JSON.parse(JSON.stringify(value)) as LoopDefinition)
  rememberSource(definition, source)
  return definition
}

/** A problem with the tokens of its path (so YAML can locate it). */
interface ShapeProblem extends LoopProblem {
  readonly tokens: readonly (string | number)[]
}

function shapeProblems(value: unknown): ShapeProblem[] {
  const problems: ShapeProblem[] = []
  const add = (tokens: (string | number)[], code: string, message: string): void => {
    problems.push({ path: toPointer(tokens), code, message, tokens })
  }
  try {
    canonicalJson(value)
  } catch (error) {
    if (!isJsonValueError(error)) throw error
    add(parsePointer(error.pointer), 'non_json_value', error.message)
    return problems
  }
  if (!isRecord(value)) {
    add([], 'invalid_definition', 'a loop definition must be an object with a "graph"')
    return problems
  }
  const graph = value.graph
  if (!isRecord(graph)) {
    add(['graph'], 'invalid_graph', 'graph must be an object with "nodes" (and optionally "edges")')
    return problems
  }
  if (!Array.isArray(graph.nodes)) add(['graph', 'nodes'], 'invalid_graph', 'graph.nodes must be a list of nodes')
  else graph.nodes.forEach((node, index) => nodeProblems(node, ['graph', 'nodes', index], add))
  if (graph.edges !== undefined) {
    if (!Array.isArray(graph.edges)) add(['graph', 'edges'], 'invalid_graph', 'graph.edges must be a list of edges')
    else graph.edges.forEach((edge, index) => edgeProblems(edge, ['graph', 'edges', index], add))
  }
  return problems
}

type Add = (tokens: (string | number)[], code: string, message: string) => void

function nodeProblems(node: unknown, at: (string | number)[], add: Add): void {
  if (!isRecord(node)) return add(at, 'invalid_node', 'a node must be an object with id, class and kind')
  if (typeof node.id !== 'string' || !LOOP_NODE_ID_PATTERN.test(node.id)) {
    add([...at, 'id'], 'invalid_node', 'node id must be a string of letters, digits, "_" and "-", starting with a letter or "_"')
  }
  if (node.class !== LOOP_NODE_CLASS) {
    add([...at, 'class'], 'invalid_node', `node class must be "${LOOP_NODE_CLASS}" (every node is an action node; its kind names the tool or host action it runs)`)
  }
  if (typeof node.kind !== 'string' || node.kind === '') add([...at, 'kind'], 'invalid_node', 'node kind must be a non-empty string')
  if (node.params !== undefined && !isRecord(node.params)) add([...at, 'params'], 'invalid_node', 'node params must be an object')
  if (node.produces !== undefined) {
    if (!Array.isArray(node.produces)) return add([...at, 'produces'], 'invalid_node', 'node produces must be a list of output paths')
    node.produces.forEach((entry, index) => {
      if (typeof entry !== 'string' || !entry.split('.').every((segment) => PATH_SEGMENT_PATTERN.test(segment))) {
        add([...at, 'produces', index], 'invalid_node', 'a produces entry must be a dotted output path such as "session.id"')
      }
    })
  }
}

function edgeProblems(edge: unknown, at: (string | number)[], add: Add): void {
  if (!isRecord(edge)) return add(at, 'invalid_edge', 'an edge must be an object with from and to')
  for (const key of ['from', 'to'] as const) {
    if (typeof edge[key] !== 'string' || edge[key] === '') add([...at, key], 'invalid_edge', `edge ${key} must be a node id`)
  }
}

/**
 * Where a YAML error is. For an unclosed quote the `yaml` package reports the end of the text
 * (`error.pos`; `error.linePos` is only that offset as line/column): the opening quote of the
 * quoted scalar that runs to that point is the better place.
 */
function errorOffset(document: Document, error: YAMLError): number {
  const offset = error.pos[0]
  if (error.code !== 'MISSING_CHAR' || !/quote/i.test(error.message)) return offset
  let start: number | undefined
  visit(document, {
    Scalar(_, node) {
      const range = node.range
      if ((node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && range && range[0] <= offset && range[1] >= offset) start = range[0]
    },
  })
  return start ?? offset
}

/**
 * Mapping keys that are mappings or lists (YAML allows them; JSON does not, and the `yaml` package
 * would stringify them with a warning). An unquoted template `{{ .inputs.x }}` is such a key.
 */
function collectionKeys(document: Document, text: string): { code: string; message: string; offset: number }[] {
  const found: { code: string; message: string; offset: number }[] = []
  visit(document, {
    Pair(_, pair, path) {
      if (!isCollection(pair.key)) return
      const parent = path[path.length - 1] as { range?: readonly number[] | null } | undefined
      const keyStart = (pair.key as { range?: readonly number[] | null }).range?.[0] ?? 0
      const parentStart = parent?.range?.[0]
      if (parentStart !== undefined && parentStart !== null && text.startsWith('{{', parentStart)) {
        const end = text.indexOf('}}', parentStart)
        const shown = end === -1 ? text.slice(parentStart, parentStart + 40) : text.slice(parentStart, end + 2)
        found.push({ code: 'yaml_unquoted_template', message: `unquoted template: YAML reads ${JSON.stringify(shown)} as a mapping, not a string; quote it, e.g. "${shown.replace(/"/g, '\\"')}"`, offset: parentStart })
        return visit.SKIP
      }
      found.push({ code: 'yaml_collection_key', message: 'a mapping key must be a string, not a mapping or a list', offset: keyStart })
      return visit.SKIP
    },
  })
  return found
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim()
}
