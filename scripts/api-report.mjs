// Regenerates (default) or checks (--check) the API report etc/result-views.api.md from dist/.
// --check fails when the public API in dist/ differs from the committed report: update it on
// purpose with `npm run api:update` and commit the diff.
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'

const check = process.argv.includes('--check')
const config = ExtractorConfig.loadFileAndPrepare(new URL('../api-extractor.json', import.meta.url).pathname)
const result = Extractor.invoke(config, { localBuild: !check, showVerboseMessages: false })
if (!result.succeeded) {
  console.error(
    check && result.apiReportChanged
      ? 'API report is stale: the public API changed. Run `npm run api:update` and commit etc/result-views.api.md.'
      : `api-extractor failed with ${result.errorCount} error(s) and ${result.warningCount} warning(s).`,
  )
  process.exit(1)
}
console.log(check ? 'API report is up to date.' : 'API report written to etc/result-views.api.md.')
