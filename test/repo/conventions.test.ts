// The repository conventions of docs/architecture.md and STYLE.md, enforced.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { subpathEntries } from '../../scripts/entries.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    return statSync(join(root, path)).isDirectory() ? filesUnder(path) : [path]
  })
}

const sources = ['src', 'test', 'examples', 'bench', 'scripts'].flatMap(filesUnder)

describe('repository conventions', () => {
  it('names every file in kebab-case (STYLE.md 14)', () => {
    const bad = sources.filter((path) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*$/.test(path.split('/').pop()!))
    expect(bad).toEqual([])
  })

  it('has no `export *` in any entry or folder index (STYLE.md 2)', () => {
    const offenders = sources.filter((path) => path.startsWith('src/') && /^export \*/m.test(readFileSync(join(root, path), 'utf8')))
    expect(offenders).toEqual([])
  })

  it('keeps one concept per folder under src/, each listed in docs/architecture.md', () => {
    const map = readFileSync(join(root, 'docs/architecture.md'), 'utf8')
    const folders = readdirSync(join(root, 'src')).filter((name) => statSync(join(root, 'src', name)).isDirectory())
    for (const folder of folders) expect(map, `docs/architecture.md lists src/${folder}/`).toContain(`\`${folder}/\``)
  })

  it('never lets the root entry import a subpath entry', () => {
    const subpaths = subpathEntries.join('|')
    const rootFiles = sources.filter((path) => path.startsWith('src/') && !new RegExp(`^src/(${subpaths})/`).test(path))
    const offenders = rootFiles.filter((path) => new RegExp(`from '(\\.\\./)+(${subpaths})/`).test(readFileSync(join(root, path), 'utf8')))
    expect(offenders.map((path) => relative(root, join(root, path)))).toEqual([])
  })

  it('never points src/ at documents that do not ship (DESIGN.md, STYLE.md, the spec, issues): only at docs/*.md', () => {
    const unshipped = [
      /DESIGN\.md/i,
      /STYLE\.md/i,
      /\bspec[ _-]?00[01]\b/i,
      /\bspec issues?\b/i,
      /#\d+\b/,
      /\bissues?\s+#?\d+/i,
      /\bbreak-it review\b/i,
    ]
    const offenders = sources
      .filter((path) => path.startsWith('src/'))
      .flatMap((path) =>
        readFileSync(join(root, path), 'utf8')
          .split('\n')
          .flatMap((line, index) => (unshipped.some((pattern) => pattern.test(line)) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
      )
    expect(offenders).toEqual([])
  })

  it('points src/ only at docs/*.md sections that exist', () => {
    const cited = sources
      .filter((path) => path.startsWith('src/'))
      .flatMap((path) => [...readFileSync(join(root, path), 'utf8').matchAll(/`docs\/([a-z-]+\.md)`\s*(?:\n\s*(?:\*|\/\/)\s*)?"([^"]+)"/g)].map((m) => ({ path, page: m[1]!, section: m[2]!.replace(/\s*\n\s*(\*|\/\/)?\s*/g, ' ') })))
    expect(cited.length).toBeGreaterThan(20)
    const missing = cited.filter(({ page, section }) => {
      const text = readFileSync(join(root, 'docs', page), 'utf8')
      return !text.split('\n').some((line) => /^#{2,4} /.test(line) && line.replace(/^#+ /, '') === section)
    })
    expect(missing.map(({ path, page, section }) => `${path}: docs/${page} "${section}"`)).toEqual([])
  })

  it('documents every member of every entry: no `(undocumented)` in any API report (etc/*.api.md)', () => {
    const reports = readdirSync(join(root, 'etc')).filter((name) => name.endsWith('.api.md'))
    expect(reports.length).toBe(subpathEntries.length + 1)
    const undocumented = reports.flatMap((name) => {
      const lines = readFileSync(join(root, 'etc', name), 'utf8').split(/\r?\n/)
      return lines.flatMap((line, index) => (line.includes('// (undocumented)') ? [`${name}: ${lines[index + 1]!.trim()}`] : []))
    })
    expect(undocumented).toEqual([])
  })

  it('lists the same subpath entries in package.json exports as in scripts/entries.mjs', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
    const exported = Object.keys(pkg.exports).filter((key) => key !== '.' && key !== './package.json').map((key) => key.slice(2))
    expect(exported.sort()).toEqual([...subpathEntries].sort())
  })
})
