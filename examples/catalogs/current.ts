/**
 * The example catalog (spec 000's tools) as a `result-views contracts --catalog` module: a `tools`
 * array and the `fixtures` whose compact budget the lock records (the spec's session records).
 */
import { sessionFixtures } from '../fixtures/sessions.js'
import { exampleTools } from '../tools/catalog.js'

/** The five example tools. */
export const tools = exampleTools()

/** Full records per tool ID: the lock records `compozy__session_status`'s compact budget on them. */
export const fixtures = { compozy__session_status: Object.values(sessionFixtures) }
