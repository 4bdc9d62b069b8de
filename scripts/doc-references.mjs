// Dead ends in the shipped docs (`npm run test:package`, scripts/package-check.mjs): a paragraph
// of a shipped Markdown file that names a repository file the tarball does not hold
// (`examples/ai-sdk.ts`, `test/postgres/support/server.ts`) or a repository script (`npm run demo`)
// must say that it is about a clone of the repository, with the words "clone of the repository",
// so a reader of the installed package knows where the file is; or the page carries one note
// paragraph starting "Repository files:" that says so for the whole page (with the repository's
// address). Fenced code blocks are the reader's own files and commands, and are not checked.

/** Where the repository's own files live (paths under these, relative to the package root). */
const repositoryPath = /(?<![\w./-])(?:\.\.\/)?((?:examples|test|src|scripts|bench|etc|matrix)\/[\w./*-]*[\w*/])/g
const npmRun = /\bnpm run [\w:-]+/g
const marker = /clone of the repository/i

/**
 * The dead ends of one Markdown file: `{ line, text }` for each paragraph that names a repository
 * path missing from `shipped` (a Set of tarball paths) or a `npm run` script, without the marker.
 */
export function deadEnds(markdown, shipped) {
  const found = []
  const lines = markdown.split('\n')
  let fenced = false
  let paragraph = []
  let start = 0
  const wholePage = markdown.split(/\n\s*\n/).some((block) => /^>?\s*Repository files:/.test(block.trim()) && marker.test(block))
  const flush = () => {
    if (paragraph.length === 0) return
    const text = paragraph.join(' ')
    const missing = [...text.matchAll(repositoryPath)].map((match) => match[1]).filter((path) => !isShipped(path, shipped))
    const scripts = text.match(npmRun) ?? []
    if ((missing.length > 0 || scripts.length > 0) && !wholePage && !marker.test(text)) found.push({ line: start + 1, names: [...missing, ...scripts] })
    paragraph = []
  }
  lines.forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      flush()
      fenced = !fenced
      return
    }
    if (fenced) return
    if (line.trim() === '') return flush()
    if (paragraph.length === 0) start = index
    paragraph.push(line)
  })
  flush()
  return found
}

function isShipped(path, shipped) {
  const bare = path.replace(/\/$/, '').replace(/\/\*.*$/, '')
  return shipped.has(bare) || [...shipped].some((file) => file.startsWith(`${bare}/`))
}
