import { CONSOLE_PAGE } from './console-page.js'
import { CONSOLE_SCRIPT } from './console-script.js'
import { CONSOLE_STYLE } from './console-style.js'

/** One file of the approvals console: its content type and text. */
export interface ConsoleAsset {
  readonly contentType: string
  readonly text: string
}

/** The page, served at `<basePath>/console`. */
export const PAGE_ASSET: ConsoleAsset = Object.freeze({ contentType: 'text/html; charset=utf-8', text: CONSOLE_PAGE })

/** The page's two assets, by the name under `<basePath>/console/`. */
export const CONSOLE_ASSETS: ReadonlyMap<string, ConsoleAsset> = new Map<string, ConsoleAsset>([
  ['console.js', Object.freeze({ contentType: 'text/javascript; charset=utf-8', text: CONSOLE_SCRIPT })],
  ['console.css', Object.freeze({ contentType: 'text/css; charset=utf-8', text: CONSOLE_STYLE })],
])

/**
 * The Content-Security-Policy of every console asset: scripts, styles and requests only from the
 * handler's own origin, no inline script or style, no plugins, frames, forms posting elsewhere or
 * base URL changes (`docs/console.md` "Safe by construction").
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  // The page's empty favicon is a data: URL, so the browser asks for no /favicon.ico.
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** The headers of a console asset: its type, the CSP, no framing, no sniffing, no referrer, no caching. */
export function consoleHeaders(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-security-policy': CONSOLE_CSP,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  }
}
