import { CONSOLE_ASSETS, PAGE_ASSET } from './console-assets.js'
import type { RouteContext } from './context.js'
import { requestInvalid, shown } from './errors.js'
import type { Reply } from './exchange.js'

/**
 * `GET /console[?profile=][&workspace_id=]` (with `console: true`): the approvals console page
 * (`docs/console.md`). The query only pre-fills the page's pickers; the page reads everything else
 * through the JSON routes.
 */
export async function consolePage(_context: RouteContext): Promise<Reply> {
  return { status: 200, body: undefined, asset: PAGE_ASSET }
}

/** `GET /console/console.js` and `GET /console/console.css`; any other name is 404 `unknown_route`. */
export async function consoleAsset(context: RouteContext): Promise<Reply> {
  const name = context.params.asset!
  const asset = CONSOLE_ASSETS.get(name)
  if (asset === undefined) throw requestInvalid('unknown_route', `the console has no file ${shown(name)}`)
  return { status: 200, body: undefined, asset }
}
