// A host on the v2 SDK has no `@modelcontextprotocol/sdk` installed: the modules result-views/mcp-v2
// reaches (relative imports, followed from src/mcp-v2/index.ts) must never import it, and the v1
// entry must never import the v2 SDK.
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const src = fileURLToPath(new URL('../../src/', import.meta.url))
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/g

/** Every package a module graph imports by name, starting at `entry` and following relative imports. */
function packagesReached(entry: string): Set<string> {
  const seen = new Set<string>()
  const packages = new Set<string>()
  const walk = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    for (const [, name] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (name!.startsWith('.')) walk(resolve(dirname(file), name!).replace(/\.js$/, '.ts'))
      else packages.add(name!)
    }
  }
  walk(resolve(src, entry))
  return packages
}

describe('the MCP entries and their SDK lines', () => {
  it('result-views/mcp-v2 exports the SDK-free projection, measurement and options error too (a v2 host cannot load result-views/mcp)', async () => {
    const v2 = await import('result-views/mcp-v2')
    const v1 = await import('result-views/mcp')
    for (const name of ['MCP_OUTCOME_META_KEY', 'toCallToolResult', 'toMcpTool', 'toMcpToolList', 'measureCatalog', 'McpOptionsError', 'isMcpOptionsError'] as const) {
      expect(v2[name], name).toBe(v1[name])
    }
  })

  it('result-views/mcp-v2 reaches @modelcontextprotocol/server and never @modelcontextprotocol/sdk', () => {
    const reached = [...packagesReached('mcp-v2/index.ts')]
    expect(reached.some((name) => name.startsWith('@modelcontextprotocol/server'))).toBe(true)
    expect(reached.filter((name) => name.startsWith('@modelcontextprotocol/sdk'))).toEqual([])
  })

  it('result-views/mcp reaches @modelcontextprotocol/sdk and never the v2 packages', () => {
    const reached = [...packagesReached('mcp/index.ts')]
    expect(reached.some((name) => name.startsWith('@modelcontextprotocol/sdk'))).toBe(true)
    expect(reached.filter((name) => name.startsWith('@modelcontextprotocol/server') || name.startsWith('@modelcontextprotocol/client'))).toEqual([])
  })
})
