// The package adopters install (docs/architecture.md "The package"): what package.json promises.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { subpathEntries } from '../../scripts/entries.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  license: string
  files: string[]
  sideEffects: boolean
  scripts: Record<string, string>
  exports: Record<string, { import: { types: string; default: string }; require: { types: string; default: string } }>
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional?: boolean }>
  repository?: { url?: string }
  homepage?: string
  bugs?: { url?: string }
  keywords?: string[]
}

describe('package.json', () => {
  it('points every ESM entry at its own module under dist/esm/ and every CommonJS entry at its bundle', () => {
    for (const name of ['index', ...subpathEntries]) {
      const entry = pkg.exports[name === 'index' ? '.' : `./${name}`]!
      expect(entry.import.default).toBe(name === 'index' ? './dist/esm/index.js' : `./dist/esm/${name}/index.js`)
      expect(entry.import.types).toBe(`./dist/${name}.d.ts`)
      expect(entry.require).toEqual({ types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` })
    }
    expect(pkg.sideEffects).toBe(false)
  })

  it('gives runtime dependencies caret ranges and pins dev dependencies exactly', () => {
    expect(Object.entries(pkg.dependencies).filter(([, range]) => !/^\^\d+\.\d+\.\d+$/.test(range))).toEqual([])
    // An alternate major of the version matrix is an alias pinned exactly: "ai-7": "npm:ai@7.0.173".
    expect(Object.entries(pkg.devDependencies).filter(([, version]) => !/^(npm:(@[\w.-]+\/)?[\w.-]+@)?\d+\.\d+\.\d+(-[\w.]+)?$/.test(version))).toEqual([])
  })

  it('marks every peer but typebox optional, accepts the majors the matrix tests, and has no vitest peer (dist never imports it)', () => {
    const required = Object.keys(pkg.peerDependencies).filter((name) => pkg.peerDependenciesMeta[name]?.optional !== true)
    expect(required).toEqual(['typebox'])
    expect(pkg.peerDependencies).not.toHaveProperty('vitest')
    expect(pkg.peerDependencies['better-sqlite3']).toBe('^11.0.0 || ^12.0.0 || ^13.0.0')
    expect(pkg.peerDependencies.ai).toBe('^6.0.114 || ^7.0.0')
  })

  it('ships the LICENSE it names, the changelog and the docs, and builds before packing', () => {
    expect(pkg.license).toBe('MIT')
    expect(readFileSync(`${root}LICENSE`, 'utf8')).toMatch(/^MIT License\n/)
    expect(existsSync(`${root}CHANGELOG.md`)).toBe(true)
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'docs', 'README.md', 'CHANGELOG.md', 'LICENSE']))
    expect(pkg.scripts.prepack).toBe('npm run build')
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/github\.com\/result-views\/result-views\.git$/)
    expect(pkg.homepage).toMatch(/^https:\/\//)
    expect(pkg.bugs?.url).toMatch(/\/issues$/)
    expect(pkg.keywords?.length).toBeGreaterThan(0)
  })

  it('runs the bundle budget and the package checks in npm test', () => {
    expect(pkg.scripts.test).toContain('npm run test:bundle')
    expect(pkg.scripts.test).toContain('npm run test:package')
    expect(pkg.scripts.test).toContain('npm run test:matrix')
  })
})
