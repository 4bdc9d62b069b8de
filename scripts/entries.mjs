// The one list of the package's subpath entries (`result-views/<name>`, built from
// `src/<name>/index.ts`, reported in `etc/result-views-<name>.api.md`). The build, the API
// reports, the test aliases and the repository conventions test all read it; package.json
// `exports` must list the same names (checked by test/repo/conventions.test.ts).
// Add a new entry here, then to package.json `exports`.
export const subpathEntries = ['testing', 'loop', 'mcp', 'mcp-v2', 'sqlite', 'postgres', 'http', 'contracts', 'ai', 'openai-agents', 'otel']

// The subpath entries that other subpath entries import by package name (`result-views/testing`
// imports `result-views/contracts`): the build makes their declarations first, so the others'
// declarations resolve them from dist/.
export const sharedSubpathEntries = ['contracts']
