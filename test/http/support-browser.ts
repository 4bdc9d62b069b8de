// Debian's chromium driven by playwright-core, for the approvals console tests. The browser is
// found, never downloaded: CHROMIUM_PATH, else chromium or chromium-browser on PATH. When none is
// found the tests fail with this message (they never skip: .ci/run installs the package).
import { accessSync, constants, mkdirSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'

/** Where the console tests write their screenshots (gitignored). */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'console')

/** The chromium binary: `CHROMIUM_PATH`, or the first `chromium` / `chromium-browser` on PATH. */
export function findChromium(): string {
  const candidates: string[] = []
  if (process.env.CHROMIUM_PATH) candidates.push(process.env.CHROMIUM_PATH)
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir) for (const name of ['chromium', 'chromium-browser']) candidates.push(join(dir, name))
  }
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not there, or not executable: try the next one.
    }
  }
  throw new Error(
    'The approvals console tests need a Chromium browser and found none (looked at CHROMIUM_PATH and for chromium or chromium-browser on PATH). ' +
      'Install it with `apt-get install -y chromium` (Debian; .ci/run does this) or set CHROMIUM_PATH to a Chromium binary.',
  )
}

/** Launches headless chromium (no sandbox when running as root, as in CI containers). */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  return chromium.launch({ executablePath: findChromium(), headless: true, args: root ? ['--no-sandbox'] : [] })
}
