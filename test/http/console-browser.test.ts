// The approvals console in a real browser: Debian's chromium, headless, driven by playwright-core
// (test/http/support-browser.ts finds it and fails loudly without it). Each state is screenshotted
// to test-output/console/ (gitignored); docs/console.md shows copies of a few.
import { join } from 'node:path'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpHandler } from 'result-views/http'
import { CONSOLE_SCOPE, consoleDispatcher } from './console-fixtures.js'
import { launchChromium, SCREENSHOT_DIR } from './support-browser.js'
import { fetchJson, serve, type Served } from './support.js'

// Names of the page's globals, for the callbacks `evaluate` runs in the browser (the tests' typings have no DOM).
declare const document: any
declare const getComputedStyle: (node: unknown) => { outlineStyle: string; unicodeBidi: string }
declare const requestAnimationFrame: (callback: () => void) => number

const CANARY = 'canary-7f3e9b1c-do-not-leak'
const WAIT = { timeout: 15_000 }

describe('the approvals console in chromium', () => {
  const fixture = consoleDispatcher()
  let local: Served
  let remote: Served
  let browser: Browser
  let context: BrowserContext
  const problems: string[] = []

  beforeAll(async () => {
    const handler = createHttpHandler(fixture.dispatcher, { console: true })
    local = await serve(handler)
    // The same dispatcher, served to a peer that is not loopback (its address faked on the socket).
    remote = await serve((request, response) => {
      Object.defineProperty(request.socket, 'remoteAddress', { value: '198.51.100.7', configurable: true })
      handler(request, response)
    })
    browser = await launchChromium()
    context = await browser.newContext({ viewport: { width: 1100, height: 820 }, deviceScaleFactor: 1 })
  })
  afterAll(async () => {
    await browser?.close()
    await local?.close()
    await remote?.close()
  })

  /** Opens the console for the owner profile; every console message and page error is kept. */
  async function openConsole(origin: string, query = `profile=${CONSOLE_SCOPE.profile_id}&workspace_id=${CONSOLE_SCOPE.workspace_id}`): Promise<Page> {
    const page = await context.newPage()
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`)
    })
    await page.goto(`${origin}/api/console?${query}`)
    return page
  }

  const invoke = (input: Record<string, unknown>) => fetchJson(local.origin, 'POST', '/api/tools/ops__deploy/invoke', { input, scope: CONSOLE_SCOPE })
  const openApproval = async (target: string, extra: Record<string, unknown> = {}) => {
    const answer = await invoke({ target, ...extra })
    expect(answer.status).toBe(202)
    return answer.body.approval_id as string
  }
  const runsOf = (target: string) => fixture.runs.filter((run) => run.target === target).length
  // The viewport only (1100 × 820): the state at hand is at the top of its column; docs/console/ holds copies.
  const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) })
  const card = (page: Page, list: 'pending-list' | 'decided-list', id: string) => page.locator(`#${list} [data-approval="${id}"]`)
  /**
   * Clicks a decision button (its locator asks for `[data-armed]`) once the page's layout has
   * settled. A status message that wraps moves the queue, and the page disarms moved buttons for
   * 500 ms from its ResizeObserver, which runs at the next frame: a click resolved before it
   * landed on a disarmed Deny under CI load ("had just moved"). Two frames let the observer run
   * first; the click then waits for the button to be armed again.
   */
  const clickArmed = async (page: Page, button: Locator) => {
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    await button.click()
  }

  it('shows an invoke that needs approval; approving by keyboard runs it once and shows the outcome; denying leaves the handler unrun', async () => {
    const page = await openConsole(local.origin)
    const alpha = await openApproval('alpha')
    const pending = card(page, 'pending-list', alpha)
    await pending.waitFor(WAIT)
    await expect(pending.locator('h3').textContent()).resolves.toBe('ops__deploy')
    expect(await pending.locator('dl').textContent()).toContain(CONSOLE_SCOPE.profile_id)
    expect(await pending.locator('pre.input').textContent()).toContain('"alpha"')
    await shot(page, '1-pending')

    // Keyboard: focus reaches Approve with Tab, shows a visible outline, and Enter presses it.
    const approve = pending.locator('button.approve[data-armed]')
    await page.locator('#refresh').focus()
    for (let i = 0; i < 8 && !(await approve.evaluate((node) => node === document.activeElement)); i++) await page.keyboard.press('Tab')
    expect(await approve.evaluate((node) => node === document.activeElement)).toBe(true)
    expect(await approve.evaluate((node) => getComputedStyle(node).outlineStyle)).not.toBe('none')
    await pending.locator('button.approve[data-armed]').waitFor(WAIT)
    await page.keyboard.press('Enter')
    const done = card(page, 'decided-list', alpha)
    await done.locator('[data-outcome="ok"]').waitFor(WAIT)
    expect(await done.locator('[data-outcome="ok"]').textContent()).toContain('deployed alpha')
    expect(await page.locator('#status').textContent()).toContain('it ran: deployed alpha')
    expect(runsOf('alpha')).toBe(1)
    // The focused card moved to "Decided": focus went on to the section heading, not to nowhere.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pending-title')
    await shot(page, '2-approved')

    const beta = await openApproval('beta')
    const denyButton = card(page, 'pending-list', beta).locator('button.deny[data-armed]')
    await denyButton.click(WAIT)
    await page.locator(`#decided-list [data-approval="${beta}"][data-status="denied"]`).waitFor(WAIT)
    expect(runsOf('beta')).toBe(0)
    expect((await fetchJson(local.origin, 'GET', `/api/tools/approvals/${beta}?profile=${CONSOLE_SCOPE.profile_id}`)).body.approval.status).toBe('denied')
    expect(runsOf('alpha')).toBe(1)
    await shot(page, '3-denied')
    await page.close()
  })

  it('a grant set on the page changes the next invoke; revoking it restores the prompt', async () => {
    const page = await openConsole(local.origin)
    await page.getByLabel('Tool', { exact: true }).fill('ops__deploy')
    await page.getByLabel('Decision', { exact: true }).selectOption('allow')
    await page.getByLabel('Scope', { exact: true }).selectOption('tool')
    expect(await page.getByLabel('Agent', { exact: true }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Remember' }).click()
    const grant = page.locator('#grant-list [data-decision="allow"]')
    await grant.waitFor(WAIT)
    const allowed = await invoke({ target: 'gamma' })
    expect(allowed.status).toBe(200)
    expect(allowed.body.result.structured).toEqual({ deployed: 'gamma' })
    await shot(page, '4-grant')

    await clickArmed(page, grant.locator('button.revoke[data-armed]'))
    await page.locator('#grants-empty:not([hidden])').waitFor(WAIT)
    expect((await fetchJson(local.origin, 'GET', `/api/tool-approval-grants?workspace_id=${CONSOLE_SCOPE.workspace_id}`)).body.grants).toEqual([])
    expect((await invoke({ target: 'delta' })).status).toBe(202)
    await page.close()
  })

  it('a page served to a peer that is not loopback can read, but every decision is refused', async () => {
    const epsilon = await openApproval('epsilon')
    const page = await openConsole(remote.origin)
    const pending = card(page, 'pending-list', epsilon)
    await pending.waitFor(WAIT)
    await clickArmed(page, pending.locator('button.approve[data-armed]'))
    await page.locator('#status.error').filter({ hasText: 'loopback_required' }).waitFor(WAIT)
    await clickArmed(page, pending.locator('button.deny[data-armed]'))
    await page.locator('#status.error').filter({ hasText: 'loopback_required' }).waitFor(WAIT)
    await page.getByLabel('Tool', { exact: true }).fill('ops__deploy')
    await page.getByLabel('Scope', { exact: true }).selectOption('tool')
    await page.getByRole('button', { name: 'Remember' }).click()
    await page.locator('#status.error').filter({ hasText: 'loopback_required' }).waitFor(WAIT)
    await shot(page, '5-remote-refused')
    expect(runsOf('epsilon')).toBe(0)
    expect((await fetchJson(local.origin, 'GET', `/api/tools/approvals/${epsilon}?profile=${CONSOLE_SCOPE.profile_id}`)).body.approval.status).toBe('pending')
    expect((await fetchJson(local.origin, 'GET', `/api/tool-approval-grants?workspace_id=${CONSOLE_SCOPE.workspace_id}`)).body.grants).toEqual([])
    await page.close()
  })

  it('a page of another origin cannot decide: its request with the header fails the CORS preflight, one without it is refused', async () => {
    const theta = await openApproval('theta')
    const page = await context.newPage()
    // Another origin (the other listener's port), on a JSON route: no console CSP applies there.
    await page.goto(`${remote.origin}/api/tools`)
    const target = `${local.origin}/api/tools/approvals/${theta}/resolve?profile=${CONSOLE_SCOPE.profile_id}`
    const outcomes = await page.evaluate(async (url) => {
      const body = JSON.stringify({ decision: 'approved' })
      const tries: string[] = []
      try {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-result-views-csrf': '1' }, body })
        tries.push(`answered ${response.status}`)
      } catch (error) {
        tries.push(`failed: ${(error as Error).name}`)
      }
      try {
        const response = await fetch(url, { method: 'POST', mode: 'no-cors', body })
        tries.push(`opaque ${response.type}`)
      } catch (error) {
        tries.push(`failed: ${(error as Error).name}`)
      }
      return tries
    }, target)
    expect(outcomes).toEqual(['failed: TypeError', 'opaque opaque'])
    expect(runsOf('theta')).toBe(0)
    expect((await fetchJson(local.origin, 'GET', `/api/tools/approvals/${theta}?profile=${CONSOLE_SCOPE.profile_id}`)).body.approval.status).toBe('pending')
    await page.close()
  })

  it('a canary secret in a sensitive input field appears nowhere in the DOM, the network responses or the console log', async () => {
    const page = await context.newPage()
    const bodies: string[] = []
    const logged: string[] = []
    page.on('console', (message) => logged.push(message.text()))
    page.on('response', (response) => void response.text().then((text) => bodies.push(text), () => {}))
    await page.goto(`${local.origin}/api/console?profile=${CONSOLE_SCOPE.profile_id}&workspace_id=${CONSOLE_SCOPE.workspace_id}`)
    const id = await openApproval('zeta', { token: CANARY })
    const pending = card(page, 'pending-list', id)
    await pending.waitFor(WAIT)
    expect(await pending.locator('pre.input').textContent()).toContain('"token": "[REDACTED]"')
    await clickArmed(page, pending.locator('button.approve[data-armed]'))
    await card(page, 'decided-list', id).locator('[data-outcome="ok"]').waitFor(WAIT)
    // The handler got the real value; nothing the browser saw holds it.
    expect(fixture.runs.find((run) => run.target === 'zeta')?.token).toBe(CANARY)
    await page.waitForTimeout(300)
    const dom = await page.content()
    const fields = await page.evaluate(() => Array.from(document.querySelectorAll('input, select'), (node) => (node as { value: string }).value).join('\n'))
    expect(bodies.some((body) => body.includes('[REDACTED]'))).toBe(true)
    for (const [where, text] of [['DOM', dom], ['fields', fields], ['network', bodies.join('\n')], ['console', logged.join('\n')]] as const) {
      expect(text.includes(CANARY), where).toBe(false)
    }
    await shot(page, '6-redacted')
    await page.close()
  })

  it('is readable at 320 px: nothing scrolls sideways, and the controls keep their labels', async () => {
    const narrow = await browser.newContext({ viewport: { width: 320, height: 1000 }, deviceScaleFactor: 1 })
    try {
      await openApproval('eta', { token: 'x' })
      const page = await narrow.newPage()
      await page.goto(`${local.origin}/api/console?profile=${CONSOLE_SCOPE.profile_id}&workspace_id=${CONSOLE_SCOPE.workspace_id}`)
      await page.locator('#pending-list [data-approval]').first().waitFor(WAIT)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
      for (const label of ['Profile', 'Workspace', 'Tool', 'Decision', 'Scope', 'Agent']) expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1)
      await page.screenshot({ path: join(SCREENSHOT_DIR, '7-narrow.png') })
    } finally {
      await narrow.close()
    }
  })

  /** The status of each approval the owner has, by its target, from the server. */
  const statuses = async (workspace: string) => {
    const all = await fetchJson(local.origin, 'GET', `/api/tools/approvals?profile=${CONSOLE_SCOPE.profile_id}&workspace_id=${workspace}&limit=1000`)
    return Object.fromEntries(all.body.approvals.map((a: { input: { target: string }; status: string }) => [a.input.target, a.status]))
  }
  const openIn = async (workspace: string, target: string, extra: Record<string, unknown> = {}) => {
    const answer = await fetchJson(local.origin, 'POST', '/api/tools/ops__deploy/invoke', { input: { target, ...extra }, scope: { ...CONSOLE_SCOPE, workspace_id: workspace } })
    expect(answer.status).toBe(202)
    return answer.body.approval_id as string
  }
  const consoleFor = (workspace: string) => openConsole(local.origin, `profile=${CONSOLE_SCOPE.profile_id}&workspace_id=${workspace}`)

  it('a slow double click on Approve approves only the call clicked, not the next card that slides under the pointer', async () => {
    const first = await openIn('ws-click', 'click-first')
    await openIn('ws-click', 'click-second')
    await openIn('ws-click', 'click-third')
    const page = await consoleFor('ws-click')
    const approve = card(page, 'pending-list', first).locator('button.approve[data-armed]')
    await approve.waitFor(WAIT)
    const box = (await approve.boundingBox())!
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2]
    await page.mouse.click(x, y)
    // The reviewer's slow double clicks (150 ms, then 400 ms after the first), and a third click a second later.
    for (const gap of [150, 250, 600]) {
      await page.waitForTimeout(gap)
      await page.mouse.click(x, y)
    }
    await card(page, 'decided-list', first).waitFor(WAIT)
    await page.waitForTimeout(300)
    expect(await statuses('ws-click')).toEqual({ 'click-first': 'approved', 'click-second': 'pending', 'click-third': 'pending' })
    // The decided card kept its place under the pointer; it leaves the queue when the pointer does.
    expect(await page.locator('#pending-list [data-held]').getAttribute('data-approval')).toBe(first)
    await page.mouse.move(1, 1)
    await page.locator('#pending-list [data-held]').waitFor({ state: 'detached', ...WAIT })
    await page.close()
  })

  it('a second Enter after approving decides nothing: focus goes to the section heading, not to the next Approve', async () => {
    const first = await openIn('ws-enter', 'enter-first')
    await openIn('ws-enter', 'enter-second')
    const page = await consoleFor('ws-enter')
    const approve = card(page, 'pending-list', first).locator('button.approve[data-armed]')
    await approve.waitFor(WAIT)
    await approve.focus()
    await page.keyboard.press('Enter')
    for (const gap of [150, 400]) {
      await page.waitForTimeout(gap)
      await page.keyboard.press('Enter')
    }
    await card(page, 'decided-list', first).waitFor(WAIT)
    await page.waitForTimeout(300)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pending-title')
    expect(await statuses('ws-enter')).toEqual({ 'enter-first': 'approved', 'enter-second': 'pending' })
    await page.close()
  })

  it('a card arriving while the pointer rests on Approve does not get approved: it arrives below, and the card read stays put', async () => {
    const read = await openIn('ws-arrive', 'arrive-read')
    const page = await consoleFor('ws-arrive')
    const approve = card(page, 'pending-list', read).locator('button.approve[data-armed]')
    await approve.waitFor(WAIT)
    const before = (await approve.boundingBox())!
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2)
    const arrived = await openIn('ws-arrive', 'arrive-unread')
    await card(page, 'pending-list', arrived).waitFor(WAIT)
    expect((await card(page, 'pending-list', read).locator('button.approve').boundingBox())!.y).toBe(before.y)
    await page.mouse.down()
    await page.mouse.up()
    await card(page, 'decided-list', read).waitFor(WAIT)
    await page.waitForTimeout(300)
    expect(await statuses('ws-arrive')).toEqual({ 'arrive-read': 'approved', 'arrive-unread': 'pending' })
    // And a button that just moved under the pointer refuses to act at once.
    await openIn('ws-arrive', 'arrive-later')
    const moved = card(page, 'pending-list', arrived).locator('button.approve')
    await moved.waitFor(WAIT)
    expect(await moved.getAttribute('data-armed')).toBeNull()
    await page.close()
  })

  it('a pending approval behind 100 newer decided ones still shows, and more than 100 pending say so', async () => {
    const old = await openIn('ws-hidden', 'hidden-old')
    for (let i = 0; i < 100; i++) {
      const id = await openIn('ws-hidden', `hidden-decided-${i}`)
      expect((await fetchJson(local.origin, 'POST', `/api/tools/approvals/${id}/cancel?profile=${CONSOLE_SCOPE.profile_id}`, undefined, { 'x-result-views-csrf': '1' })).status).toBe(200)
    }
    const page = await consoleFor('ws-hidden')
    await card(page, 'pending-list', old).waitFor(WAIT)
    expect(await page.locator('#pending-empty').isHidden()).toBe(true)
    expect(await page.locator('#pending-more').isHidden()).toBe(true)
    for (let i = 0; i < 101; i++) await openIn('ws-hidden', `hidden-many-${i}`)
    await page.locator('#pending-more:not([hidden])').waitFor(WAIT)
    expect(await page.locator('#pending-more').textContent()).toContain('more are waiting')
    expect(await page.locator('#pending-list [data-approval]').count()).toBe(100)
    await page.close()
  })

  it('bidi controls in values show as escapes and each value is isolated: "invoice\\u202Efdp.exe" does not read as exe.pdf', async () => {
    const id = await openIn('ws-bidi', 'invoice\u202Efdp.exe\u2066x\u2069\u200F\u061C')
    const page = await consoleFor('ws-bidi')
    const input = card(page, 'pending-list', id).locator('pre.input')
    await input.waitFor(WAIT)
    const text = (await input.textContent())!
    expect(text).toContain('invoice\\u202Efdp.exe\\u2066x\\u2069\\u200F\\u061C')
    expect(text).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/)
    expect(await input.evaluate((node) => getComputedStyle(node).unicodeBidi)).toBe('isolate')
    // The status line after a decision names the call's values too: escaped there as well.
    await clickArmed(page, card(page, 'pending-list', id).locator('button.approve[data-armed]'))
    await page.locator('#status', { hasText: 'it ran' }).waitFor(WAIT)
    expect(await page.locator('#status').textContent()).toContain('\\u202E')
    expect(await page.locator('#status').textContent()).not.toMatch(/[\u202A-\u202E]/)
    await page.close()
  })

  it('invisible characters show as escapes too (invisible-chars): zero-width spaces, the BOM, line separators and tag characters, so two values that differ never look the same', async () => {
    const hidden = 'ls\u200B\u200B; curl\uFEFF\u2028safe\u{E0020}\u{E0041}'
    const id = await openIn('ws-hidden', hidden)
    const page = await consoleFor('ws-hidden')
    const input = card(page, 'pending-list', id).locator('pre.input')
    await input.waitFor(WAIT)
    const text = (await input.textContent())!
    expect(text).toContain('ls\\u200B\\u200B; curl\\uFEFF\\u2028safe\\u{E0020}\\u{E0041}')
    expect(text).not.toMatch(/[\u200B\uFEFF\u2028]|[\u{E0000}-\u{E007F}]/u)
    await page.close()
  })

  it('a 100 KB input shows as a capped preview at 320 px, the poll carries only the preview, and the whole input comes on request', async () => {
    const narrow = await browser.newContext({ viewport: { width: 320, height: 1000 }, deviceScaleFactor: 1 })
    try {
      const id = await openIn('ws-big', 'big-' + 'x'.repeat(100_000))
      const page = await narrow.newPage()
      const lists: number[] = []
      page.on('response', (response) => {
        if (response.url().includes('/api/tools/approvals?')) void response.body().then((b) => lists.push(b.length), () => {})
      })
      await page.goto(`${local.origin}/api/console?profile=${CONSOLE_SCOPE.profile_id}&workspace_id=ws-big`)
      const pending = card(page, 'pending-list', id)
      await pending.waitFor(WAIT)
      expect((await pending.boundingBox())!.height).toBeLessThan(1000)
      expect(Math.max(...lists)).toBeLessThan(10_000)
      await pending.getByRole('button', { name: /Show the whole input/ }).click()
      await expect.poll(async () => (await pending.locator('pre.input').textContent())!.length, WAIT).toBeGreaterThan(100_000)
      expect((await pending.boundingBox())!.height).toBeLessThan(1000)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
    } finally {
      await narrow.close()
    }
  })

  it('without ?profile the page lists what authenticate fixes, and says to choose a profile where nothing fixes it', async () => {
    const fixed = await serve(createHttpHandler(fixture.dispatcher, { console: true, authenticate: () => ({ profile_id: CONSOLE_SCOPE.profile_id }) }))
    try {
      const id = await openIn('ws-auth', 'auth-fixed')
      const page = await openConsole(fixed.origin, '')
      await card(page, 'pending-list', id).waitFor(WAIT)
      await page.close()
      const bare = await openConsole(local.origin, '')
      await bare.locator('#pending-empty', { hasText: 'Choose a profile' }).waitFor(WAIT)
      await bare.close()
    } finally {
      await fixed.close()
    }
  })

  it('raised no page error, CSP violation or console error on the way', () => {
    // 403: the refused decisions above; 400: the page without ?profile asking the list route, which needs one there.
    expect(problems.filter((line) => !/403 \(Forbidden\)|400 \(Bad Request\)/.test(line))).toEqual([])
  })
})
