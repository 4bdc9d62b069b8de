// The layering of src/ (docs/architecture.md "Layers"), read from the source imports.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const src = join(root, 'src')

/**
 * The layers of src/, from the ground up: the one definition of the order. A folder imports only
 * folders of lower layers (never one of its own layer, never one above). `index.ts` is the root
 * entry; the subpath entries stand above it and reach the core through it (by package name).
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'log', 'async', 'text'],
  ['json'],
  ['options'],
  ['redact', 'schema'],
  ['views'],
  ['digest'],
  ['tool'],
  ['telemetry'],
  ['call'],
  ['policy', 'hooks', 'model-output'],
  ['approval'],
  ['dispatch'],
  ['index.ts'],
  ['tokens'],
  ['contracts', 'framework-call', 'continuation'],
  ['sqlite', 'postgres', 'mcp', 'loop', 'testing', 'http', 'ai', 'openai-agents', 'otel'],
  ['mcp-v2'],
  ['cli'],
]

const layerOf = new Map(LAYERS.flatMap((names, rank) => names.map((name) => [name, rank] as const)))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : []
  })
}

/** A file's place: its folder under src/, or `index.ts` for the root entry. */
const placeOf = (file: string): string => relative(src, file).split('/')[0]!

/**
 * The modules a file imports: every static `import ... from` and `export ... from` (type-only
 * ones included), relative paths resolved to src/ files, `result-views` and its subpaths to their
 * entries (files outside src/ are left out). Read with the TypeScript parser, so text that only looks like an import (inside a
 * template of generated code) is not one.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const targets: string[] = []
  for (const statement of source.statements) {
    const specifier = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined
    if (specifier === undefined || !ts.isStringLiteral(specifier)) continue
    const name = specifier.text
    if (name === 'result-views') targets.push(join(src, 'index.ts'))
    else if (name.startsWith('result-views/')) targets.push(join(src, name.slice('result-views/'.length), 'index.ts'))
    else if (name.startsWith('.')) {
      // Only modules of src/ take a place in the layers: a file outside it (the package.json the
      // command reads its version from) is bundled data, not a layer.
      const target = resolve(dirname(file), name).replace(/\.js$/, '.ts')
      if (!relative(src, target).startsWith('..')) targets.push(target)
    }
  }
  return targets
}

const files = sourceFiles(src)
const arrows = files.flatMap((from) => importsOf(from).map((to) => ({ from, to })))
const show = (file: string): string => relative(src, file)

/** Strongly connected components of the file graph (Tarjan), each with more than one file. */
function circles(): string[][] {
  const out = new Map<string, string[]>()
  for (const { from, to } of arrows) (out.get(from) ?? out.set(from, []).get(from)!).push(to)
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (node: string): void => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const to of out.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1) found.push(component.map(show).sort())
  }
  for (const file of files) if (!index.has(file)) visit(file)
  return found
}

describe('layers of src/', () => {
  it('reads the imports it judges', () => {
    expect(arrows.length).toBeGreaterThan(200)
    expect(arrows.some(({ from, to }) => show(from) === 'dispatch/dispatcher.ts' && show(to) === 'approval/approval.ts')).toBe(true)
  })

  it('places every folder of src/ in exactly one layer', () => {
    const places = [...new Set(files.map(placeOf))].sort()
    expect(places.filter((place) => !layerOf.has(place))).toEqual([])
    expect([...layerOf.keys()].filter((place) => !places.includes(place))).toEqual([])
    expect(layerOf.size).toBe(LAYERS.flat().length)
  })

  it('has no import circle that spans folders', () => {
    const spanning = circles().filter((component) => new Set(component.map((file) => file.split('/')[0])).size > 1)
    expect(spanning).toEqual([])
  })

  it('has no import circle at all, inside a folder either', () => {
    expect(circles()).toEqual([])
  })

  it('imports only downward: every arrow between folders goes to a lower layer', () => {
    const upward = arrows
      .filter(({ from, to }) => placeOf(from) !== placeOf(to) && !(layerOf.get(placeOf(to))! < layerOf.get(placeOf(from))!))
      .map(({ from, to }) => `${show(from)} -> ${show(to)}`)
    expect(upward).toEqual([])
  })

  it('lets nothing below dispatch/ import it (only the root entry does)', () => {
    const importers = arrows.filter(({ from, to }) => placeOf(to) === 'dispatch' && placeOf(from) !== 'dispatch').map(({ from }) => show(from))
    expect([...new Set(importers)]).toEqual(['index.ts'])
  })

  it('draws the same layers in docs/architecture.md "Layers", top floor first', () => {
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8')
    const section = doc.split(/^## Layers$/m)[1]?.split(/^## /m)[0] ?? ''
    const drawing = section.split('```')[1] ?? ''
    // One floor per box between separator lines (a floor may take several lines); its folders
    // are the `name/` words (and `index.ts`) in it, in order.
    const rows = drawing
      .split(/^\s*[├┌└].*$/m)
      .map((floor) => [...floor.matchAll(/(?<![\w-])([a-z][a-z0-9-]*)\/|\bindex\.ts\b/g)].map((m) => m[1] ?? 'index.ts'))
      .filter((row) => row.length > 0)
    expect(rows).toEqual([...LAYERS].reverse())
  })
})
