// `npm run test:package` (part of `npm test`, after the build): packs the built package as npm
// would publish it (without running `prepack` again) and checks the tarball offline with
// @arethetypeswrong/cli (types resolve and match the JavaScript for every entry, from ESM and
// CommonJS under node16 resolution and under bundlers; node10 resolution, which cannot read
// "exports" subpaths, is not supported) and with publint (package.json fields and files).
// Prints the tarball's size and file count. Before those: the tarball holds no source map (the
// JavaScript ships readable, without maps; docs/architecture.md "The package") and no
// `sourceMappingURL` comment, and no shipped Markdown file names a repository file or script
// without saying where it is (scripts/doc-references.mjs).
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { deadEnds } from './doc-references.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const dir = `${root}temp/pack`
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const [packed] = JSON.parse(execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }))
const shipped = new Set(packed.files.map((file) => file.path))
const problems = []
for (const path of shipped) {
  if (path.endsWith('.map')) problems.push(`${path}: a source map in the tarball`)
  if (/\.(c|m)?js$/.test(path) && /\/\/# sourceMappingURL=/.test(readFileSync(`${root}${path}`, 'utf8'))) problems.push(`${path}: a sourceMappingURL comment`)
  if (path.endsWith('.md')) for (const { line, names } of deadEnds(readFileSync(`${root}${path}`, 'utf8'), shipped)) problems.push(`${path}:${line}: names ${names.join(', ')}, which the tarball does not hold, without saying they are in a clone of the repository`)
}
if (problems.length > 0) {
  console.error(`package check failed:\n${problems.join('\n')}`)
  process.exit(1)
}
console.log(`package: ${packed.filename}, ${(packed.size / 1000).toFixed(1)} kB packed, ${(packed.unpackedSize / 1000).toFixed(1)} kB unpacked, ${packed.entryCount} files`)
const bin = (name) => `${root}node_modules/.bin/${name}`
execFileSync(bin('attw'), [`${dir}/${packed.filename}`, '--profile', 'node16'], { cwd: root, stdio: 'inherit' })
execFileSync(bin('publint'), ['run', '--strict'], { cwd: root, stdio: 'inherit' })
rmSync(dir, { recursive: true, force: true })
