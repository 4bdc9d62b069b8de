import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Pair, type YAMLMap } from 'yaml'

/** A place in YAML text: 1-based `line` and `column`, the column counted in UTF-16 code units. */
export interface SourcePosition {
  readonly line: number
  readonly column: number
}

/** Where the values of a definition parsed from YAML are written in its text. */
export interface LoopSource {
  /**
   * The position of the value at `tokens` (a path from the definition root, as JSON Pointer
   * tokens): where its text starts (a quoted string at its quote, a block scalar at its `|` or
   * `>`); for a key written with no value (`kind:`), the key. A path that does not exist is
   * located at its deepest existing ancestor; a value written as an alias (`*name`) at the
   * anchored node it stands for.
   *
   * With `charOffset` (a UTF-16 offset into the string value at `tokens` where a `{` is, such as
   * the `{{` of a template), the position of that character in the text, in every scalar style:
   * plain, quoted (escapes counted, `\x7b` included), multi-line and block (`|`, `>`) alike.
   */
  locate(tokens: readonly (string | number)[], charOffset?: number): SourcePosition
}

/** YAML nodes with the source range the `yaml` package gives them. */
type Ranged = { readonly range?: readonly number[] | null } | null | undefined

const sources = new WeakMap<object, LoopSource>()

/** Remembers that `definition` was parsed from YAML described by `source`. */
export function rememberSource(definition: object, source: LoopSource): void {
  sources.set(definition, source)
}

/** The YAML source of a definition returned by `parseLoopYaml` (or copied from one), if any. */
export function sourceOf(definition: unknown): LoopSource | undefined {
  return typeof definition === 'object' && definition !== null ? sources.get(definition) : undefined
}

/** A {@link LoopSource} over a parsed YAML document, its text and the line counter it was parsed with. */
export function yamlSource(document: Document, text: string, lineCounter: LineCounter): LoopSource {
  const keys = new WeakMap<YAMLMap, ReadonlyMap<string, Pair>>()
  const braces = new WeakMap<object, BraceMap | null>()
  const keyIndex = (map: YAMLMap): ReadonlyMap<string, Pair> => {
    let index = keys.get(map)
    if (index === undefined) {
      index = indexKeys(map, document)
      keys.set(map, index)
    }
    return index
  }
  return {
    locate(tokens, charOffset) {
      const { node, key, complete } = walk(document, tokens, keyIndex)
      const inString = complete && charOffset !== undefined && isScalar(node) ? braceOffset(node, text, charOffset, braces) : undefined
      const position = lineCounter.linePos(inString ?? startOf(node, key))
      return { line: position.line, column: position.col }
    },
  }
}

interface Found {
  /** The node at the path (after aliases), or the deepest existing ancestor. */
  readonly node: unknown
  /** The key of the pair `node` is the value of, when it is one. */
  readonly key: unknown
  /** Whether the whole path exists. */
  readonly complete: boolean
}

function walk(document: Document, tokens: readonly (string | number)[], keyIndex: (map: YAMLMap) => ReadonlyMap<string, Pair>): Found {
  let found: Found = { node: resolve(document.contents, document), key: null, complete: true }
  for (const token of tokens) {
    const { node } = found
    if (isMap(node)) {
      const pair = keyIndex(node).get(String(token))
      if (pair === undefined) return { ...found, complete: false }
      found = { node: resolve(pair.value, document), key: pair.key, complete: true }
    } else if (isSeq(node)) {
      const index = typeof token === 'number' ? token : /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : -1
      if (index < 0 || index >= node.items.length) return { ...found, complete: false }
      found = { node: resolve(node.items[index], document), key: null, complete: true }
    } else {
      return { ...found, complete: false }
    }
  }
  return found
}

/**
 * A map's pairs by the key `toJS` gives them in the plain object (`1: x` → `"1"`, `null: x` and
 * an empty key → `""`); a later pair wins, as it does in `toJS`. Collection keys are refused
 * before a source is built, so they are skipped here.
 */
function indexKeys(map: YAMLMap, document: Document): ReadonlyMap<string, Pair> {
  const index = new Map<string, Pair>()
  for (const pair of map.items) {
    const key = resolve(pair.key, document)
    if (key === null || key === undefined) index.set('', pair)
    else if (isScalar(key)) {
      const value = key.value
      if (value === null || value === undefined) index.set('', pair)
      else if (typeof value !== 'object') index.set(String(value), pair)
    }
  }
  return index
}

function resolve(node: unknown, document: Document): unknown {
  return isAlias(node) ? node.resolve(document) : node
}

/** Where a value's text starts; for a value with no text (`kind:`), where its key starts. */
function startOf(node: unknown, key: unknown): number {
  const own = (node as Ranged)?.range
  if (own && own[0]! < own[1]!) return own[0]!
  const keyRange = (key as Ranged)?.range
  if (keyRange) return keyRange[0]!
  return own ? own[0]! : 0
}

/** A string scalar as the `yaml` package gives it. */
type StringScalar = { readonly value: unknown; readonly type?: string; readonly range?: readonly number[] | null }

/** Where each `{` of a string scalar is: in its value, and in the text, in the same order. */
interface BraceMap {
  readonly value: readonly number[]
  readonly text: readonly number[]
}

/**
 * The text offset of the `{` at `charOffset` of a string scalar's value. A `{` is never made or
 * removed by YAML's folding, indentation or chomping, so the n-th `{` of the value is the n-th
 * `{` written in the scalar's text, once a block scalar's header line (which may hold a comment)
 * is skipped and, in a double-quoted scalar, escapes are read (`\x7b`, `\u007b`, `\U0000007b`
 * make a `{` where their backslash is). `undefined` when that character is not a `{` (or the two
 * counts disagree, which would be a bug). The brace map is built once per scalar, so a string
 * with many templates costs one pass, not one per template.
 */
function braceOffset(scalar: StringScalar, text: string, charOffset: number, maps: WeakMap<object, BraceMap | null>): number | undefined {
  let map = maps.get(scalar)
  if (map === undefined) {
    map = braceMap(scalar, text)
    maps.set(scalar, map)
  }
  if (map === null) return undefined
  // Binary search: the index of charOffset among the value's braces.
  let low = 0
  let high = map.value.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const at = map.value[middle]!
    if (at === charOffset) return map.text[middle]
    if (at < charOffset) low = middle + 1
    else high = middle - 1
  }
  return undefined
}

function braceMap(scalar: StringScalar, text: string): BraceMap | null {
  const { value, range } = scalar
  if (typeof value !== 'string' || !range) return null
  const inValue: number[] = []
  for (let i = value.indexOf('{'); i !== -1; i = value.indexOf('{', i + 1)) inValue.push(i)
  const inText: number[] = []
  const end = range[1]!
  let at = range[0]!
  if (scalar.type === 'BLOCK_LITERAL' || scalar.type === 'BLOCK_FOLDED') {
    const header = text.indexOf('\n', at)
    if (header === -1 || header >= end) return null
    at = header + 1
  } else if (scalar.type === 'QUOTE_DOUBLE' || scalar.type === 'QUOTE_SINGLE') {
    at++
  }
  const escapes = scalar.type === 'QUOTE_DOUBLE'
  for (; at < end; at++) {
    const char = text[at]
    const start = at
    let brace = char === '{'
    if (escapes && char === '\\') {
      const width = hexEscapeWidth(text[at + 1])
      brace = width > 0 && Number.parseInt(text.slice(at + 2, at + 2 + width), 16) === 0x7b
      at += 1 + width
    }
    if (brace) inText.push(start)
  }
  return inText.length === inValue.length ? { value: inValue, text: inText } : null
}

/** How many hex digits follow a double-quoted escape letter that names a character by its code (`\x`, `\u`, `\U`); 0 for other escapes. */
function hexEscapeWidth(letter: string | undefined): number {
  return letter === 'x' ? 2 : letter === 'u' ? 4 : letter === 'U' ? 8 : 0
}
