// Regenerates (default) or checks (--check) the API reports in etc/, one per package entry, from
// the built .d.ts files in dist/. --check fails when the public API in dist/ differs from a
// committed report: change it on purpose with `npm run api:update` and commit the diff.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'
import { subpathEntries } from './entries.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const base = JSON.parse(readFileSync(`${root}api-extractor.json`, 'utf8'))
const entries = [['index', 'result-views.api.md'], ...subpathEntries.map((name) => [name, `result-views-${name}.api.md`])]
const check = process.argv.includes('--check')
let failed = 0
for (const [entry, report] of entries) {
  const configObject = {
    ...base,
    projectFolder: root,
    mainEntryPointFilePath: `${root}dist/${entry}.d.ts`,
    apiReport: { ...base.apiReport, reportFileName: report, reportFolder: `${root}etc/`, reportTempFolder: `${root}temp/` },
  }
  if (entry !== 'index') {
    // A subpath's declarations import the root's types from 'result-views', which api-extractor
    // resolves to this same package and would call forgotten exports; the root report covers them.
    configObject.messages = {
      ...base.messages,
      extractorMessageReporting: { ...base.messages.extractorMessageReporting, 'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: false } },
    }
  }
  delete configObject.$schema
  const config = ExtractorConfig.prepare({ configObject, configObjectFullPath: `${root}api-extractor.json`, packageJsonFullPath: `${root}package.json` })
  const result = Extractor.invoke(config, { localBuild: !check, showVerboseMessages: false, messageCallback: quiet })
  if (!result.succeeded) {
    failed++
    console.error(
      check && result.apiReportChanged
        ? `etc/${report} is stale: the public API of result-views${entry === 'index' ? '' : '/' + entry} changed. Run \`npm run api:update\` and commit it.`
        : `api-extractor failed on ${entry} with ${result.errorCount} error(s).`,
    )
  }
}
if (failed > 0) process.exit(1)
console.log(check ? `API reports are up to date (${entries.length} entries).` : `API reports written to etc/ (${entries.length} entries).`)

// Keep the run readable: only errors and stale-report warnings are printed.
function quiet(message) {
  if (message.logLevel === 'error' || message.messageId === 'console-api-report-changed' || message.logLevel === 'warning') return
  message.handled = true
}
