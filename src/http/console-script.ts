// The approvals console script (`docs/console.md`): one small ES module, every value rendered as text.
// Kept as a string so the handler serves it from memory, with no file to find at run time and no
// build step: edit it here. No backtick or dollar-brace may appear in it (String.raw keeps every
// backslash as written).

/** The approvals console script (`docs/console.md`): one small ES module, every value rendered as text. */
export const CONSOLE_SCRIPT: string = String.raw`// The approvals console (docs/console.md): one ES module, no framework, no build step. It reads
// and changes approvals only through the JSON routes next to it. Every value from the server is
// set with textContent or an attribute: nothing is ever parsed as HTML.
const POLL_MS = 2000
const DECIDED_SHOWN = 20
const PENDING_SHOWN = 100
// A decision button acts only once it has stayed where it is for this long (a card that just
// arrived or moved under the pointer, or under a second click or Enter, decides nothing).
const ARM_MS = 500
// The list asks for at most this many characters of each input; the whole one on request.
const PREVIEW_CHARS = 4096

const state = { profile: '', workspace: '', approvals: '', grants: '', inflight: null, timer: 0, held: new Map(), order: [] }
// A card decided on this page keeps its place in the queue this long, or until the pointer leaves
// the queue, so that no other card slides under a pointer that just clicked.
const HOLD_MS = 10000

const byId = (id) => document.getElementById(id)

// Bidirectional formatting characters (embeddings, overrides, isolates, marks) would reorder what
// a person reads ("invoice\u202Efdp.exe"), and invisible ones (zero-width spaces and joiners, word
// joiners, the byte order mark, line and paragraph separators, tag characters) would make two
// values that differ look the same: every value from the server shows them as escapes.
const HIDDEN = /[\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu

/** A value as text for people: bidi controls and invisible characters spelled as visible escapes. */
function visible(value) {
  return String(value).replace(HIDDEN, (c) => {
    const code = c.codePointAt(0)
    return code > 0xffff ? '\\u{' + code.toString(16).toUpperCase() + '}' : '\\u' + code.toString(16).toUpperCase().padStart(4, '0')
  })
}

/** An element with text, attributes (set as attributes, never as HTML) and children. */
function el(tag, options, children) {
  const node = document.createElement(tag)
  const o = options || {}
  for (const name of Object.keys(o)) {
    const value = o[name]
    if (value === undefined || value === null || value === false) continue
    if (name === 'text') node.textContent = visible(value)
    else if (name === 'onclick') node.addEventListener('click', value)
    else node.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children || []) if (child) node.append(child)
  return node
}

class ApiError extends Error {
  constructor(status, error) {
    super(error && typeof error.code === 'string' ? error.code + ' / ' + error.reason : 'HTTP ' + status)
    this.status = status
    this.code = error && error.code
    this.reason = error && error.reason
  }
}

const etags = new Map()

/** A call to a route under the base path (the page is served at <base>/console). */
async function api(method, path, query, body) {
  const url = new URL(path, document.baseURI)
  for (const name of Object.keys(query || {})) if (query[name]) url.searchParams.set(name, query[name])
  const headers = { accept: 'application/json' }
  // Every state-changing request carries the header the handler requires (with the same origin).
  if (method !== 'GET') headers['x-result-views-csrf'] = '1'
  const init = { method, headers, credentials: 'same-origin', cache: 'no-store', redirect: 'error' }
  if (body !== undefined) {
    headers['content-type'] = 'application/json'
    init.body = JSON.stringify(body)
  }
  // A list read again sends the ETag it got; 304 means unchanged, and the last answer stands.
  const known = method === 'GET' ? etags.get(url.href) : undefined
  if (known) headers['if-none-match'] = known.etag
  const response = await fetch(url, init)
  if (response.status === 304 && known) return known.data
  let data
  try {
    data = await response.json()
  } catch {
    data = undefined
  }
  if (!response.ok) throw new ApiError(response.status, data && data.error)
  const etag = response.headers.get('etag')
  if (method === 'GET' && etag) {
    if (etags.size > 50) etags.clear()
    etags.set(url.href, { etag, data })
  }
  return data
}

const REASONS = {
  loopback_required: 'Refused: decisions are accepted only from this machine (a loopback peer or a Unix socket).',
  csrf_header_missing: 'Refused: the request did not come from this console.',
  cross_origin_refused: 'Refused: the request came from another site.',
  host_not_allowed: 'Refused: open the console as 127.0.0.1 or localhost (or a name the host allows).',
  profile_mismatch: 'Refused: only the profile that opened an approval may decide it.',
  profile_unavailable: 'Refused: the owner profile is not available.',
  session_unbound: 'Refused: the owner session is no longer bound.',
  remembered_reject: 'Refused: a remembered reject matches this call.',
  approval_expired: 'This approval expired; it never runs.',
  approval_resolved: 'This approval was already decided.',
  approval_canceled: 'This approval was canceled.',
  store_unsupported: 'This server cannot list approvals (its pending store has no list).',
  unknown_approval: 'No such approval.',
  unknown_grant: 'No such remembered decision.',
  agent_name_required: 'An agent is needed for agent scope.',
  agent_name_forbidden: 'Tool scope takes no agent.',
  unknown_tool: 'No such tool.',
}

/** A sentence for a failed request, with its code and reason. */
function describeError(error) {
  if (!(error instanceof ApiError)) return 'The server could not be reached.'
  const text = REASONS[error.reason] || 'The request failed.'
  return error.code ? text + ' (' + error.code + ' / ' + error.reason + ')' : text
}

function say(text, kind) {
  const status = byId('status')
  status.textContent = visible(text)
  status.className = kind === 'error' ? 'status error' : 'status'
}

/** "12 s ago", "in 14 min": a relative time for people, next to the exact one. */
function relative(iso) {
  const ms = Date.parse(iso) - Date.now()
  const abs = Math.abs(ms)
  const text = abs < 60000 ? Math.round(abs / 1000) + ' s' : abs < 3600000 ? Math.round(abs / 60000) + ' min' : abs < 172800000 ? Math.round(abs / 3600000) + ' h' : Math.round(abs / 86400000) + ' d'
  return ms < 0 ? text + ' ago' : 'in ' + text
}

function timeNode(iso) {
  return el('time', { datetime: iso, title: iso, 'data-at': iso, text: relative(iso) })
}

function refreshTimes() {
  for (const node of document.querySelectorAll('time[data-at]')) node.textContent = relative(node.getAttribute('data-at'))
}

function json(value) {
  return JSON.stringify(value, null, 2)
}

function row(list, term, value) {
  if (value === undefined || value === null || value === '') return
  list.append(el('dt', { text: term }), el('dd', {}, [typeof value === 'string' ? document.createTextNode(visible(value)) : value]))
}

function outcomeNode(outcome) {
  if (outcome.status === 'ok') {
    return el('div', { class: 'outcome ok', 'data-outcome': 'ok' }, [
      el('p', {}, [el('strong', { text: 'Ran: ' }), el('span', { class: 'value', text: outcome.result.preview })]),
      el('details', {}, [el('summary', { text: 'Result' + (outcome.result_view ? ' (' + outcome.result_view + ' view)' : '') }), el('pre', { text: json(outcome.result.structured) })]),
    ])
  }
  const error = outcome.error || {}
  return el('div', { class: 'outcome failed', 'data-outcome': 'error' }, [
    el('p', {}, [el('strong', { text: 'Failed: ' }), el('span', { class: 'value', text: error.code + ' / ' + error.reason + ': ' + error.message })]),
  ])
}

function statusText(approval) {
  return approval.execution_status ? approval.status + ', ' + approval.execution_status : approval.status
}

function approvalCard(approval, prefix) {
  const id = approval.approval_id
  const scope = approval.scope || {}
  const facts = el('dl', { class: 'facts' })
  row(facts, 'Owner', scope.profile_id)
  row(facts, 'Agent', scope.agent_name)
  row(facts, 'Session', scope.session_id)
  row(facts, 'Workspace', scope.workspace_id)
  row(facts, 'Reason', approval.reason)
  row(facts, 'Opened', timeNode(approval.created_at))
  row(facts, approval.status === 'pending' ? 'Expires' : 'Expired', approval.status === 'pending' || approval.status === 'expired' ? timeNode(approval.expires_at) : undefined)
  if (approval.decided_at) row(facts, 'Decided', timeNode(approval.decided_at))
  row(facts, 'Status', statusText(approval))
  const titleId = (prefix || 'approval-') + id
  const card = el('li', { class: prefix ? 'card held' : 'card', 'data-held': prefix ? true : undefined, 'data-approval': id, 'data-status': approval.status, 'aria-labelledby': titleId }, [
    el('h3', { id: titleId, text: approval.tool_id }),
    facts,
    el('p', { class: 'label', text: 'Input (sensitive fields read [REDACTED])' }),
    inputNode(approval),
  ])
  if (approval.status === 'pending') {
    card.append(
      el('div', { class: 'actions' }, [
        el('button', { type: 'button', class: 'approve', 'data-key': 'approve:' + id, 'aria-describedby': titleId, text: 'Approve', onclick: armed(() => decide(approval, 'approved')) }),
        el('button', { type: 'button', class: 'deny', 'data-key': 'deny:' + id, 'aria-describedby': titleId, text: 'Deny', onclick: armed(() => decide(approval, 'denied')) }),
      ]),
    )
  }
  if (approval.outcome) card.append(outcomeNode(approval.outcome))
  if (prefix) card.append(el('p', { class: 'note', text: 'Decided on this page; it moves to Decided when the pointer leaves this list.' }))
  return card
}

/**
 * The input as the list gave it: whole, or its first characters (the list asks for a preview)
 * with a button that reads the whole input. Its height is capped; it scrolls on its own.
 */
function inputNode(approval) {
  if (typeof approval.input_preview !== 'string') return el('pre', { class: 'input', tabindex: 0, text: json(approval.input) })
  const pre = el('pre', { class: 'input', tabindex: 0, text: approval.input_preview + ' …' })
  const more = el('button', {
    type: 'button',
    class: 'secondary whole',
    text: 'Show the whole input (' + approval.input_length + ' characters)',
    onclick: async () => {
      more.disabled = true
      try {
        const data = await api('GET', 'tools/approvals/' + encodeURIComponent(approval.approval_id), { profile: state.profile })
        pre.textContent = visible(json(data.approval.input))
        more.remove()
        pre.focus()
      } catch (error) {
        more.disabled = false
        say(describeError(error), 'error')
      }
    },
  })
  return el('div', { class: 'input-box' }, [pre, more])
}

/**
 * A decision button's click handler that acts only when the button is armed: it has stayed at
 * the same place on the page for ARM_MS (see trackMoves). Otherwise the click is ignored, and
 * the status says why.
 */
function armed(action) {
  return (event) => {
    const button = event.currentTarget
    if (!button.hasAttribute('data-armed')) {
      say('That button had just moved; nothing was decided. Read the card, then choose again.', 'error')
      return
    }
    action()
  }
}

const placed = new WeakMap()

/**
 * Disarms every decision button that is new or has moved on the page since the last look, and
 * arms it again after ARM_MS in place. Runs after every render and whenever a list changes size.
 */
function trackMoves() {
  const now = performance.now()
  for (const button of document.querySelectorAll('.cards button[data-key]')) {
    const rect = button.getBoundingClientRect()
    const at = Math.round(rect.left + scrollX) + ',' + Math.round(rect.top + scrollY)
    const seen = placed.get(button)
    if (seen && seen.at === at) continue
    placed.set(button, { at, since: now })
    button.removeAttribute('data-armed')
  }
  armLater()
}

let armTimer = 0
function armLater() {
  clearTimeout(armTimer)
  const now = performance.now()
  let next = Infinity
  for (const button of document.querySelectorAll('.cards button[data-key]:not([data-armed])')) {
    const seen = placed.get(button)
    if (!seen) continue
    const left = seen.since + ARM_MS - now
    if (left <= 0) button.setAttribute('data-armed', '')
    else next = Math.min(next, left)
  }
  if (next !== Infinity) armTimer = setTimeout(armLater, next + 5)
}

/**
 * Puts the items into the container in order, keeping the node of every item whose data did not
 * change (so a poll rebuilds nothing that stayed the same) and moving only what must move.
 */
function renderKeyed(container, items, keyOf, build) {
  const known = container.known || new Map()
  const next = new Map()
  const nodes = items.map((item) => {
    const key = keyOf(item)
    const text = JSON.stringify(item)
    const old = known.get(key)
    const node = old && old.text === text ? old.node : build(item)
    next.set(key, { text, node })
    return node
  })
  container.known = next
  const focused = document.activeElement
  const focusKey = focused && container.contains(focused) ? focused.getAttribute('data-key') : null
  nodes.forEach((node, index) => {
    if (container.children[index] !== node) container.insertBefore(node, container.children[index] || null)
  })
  while (container.children.length > nodes.length) container.lastElementChild.remove()
  if (focusKey && !container.contains(document.activeElement)) {
    const again = Array.from(container.querySelectorAll('[data-key]')).find((node) => node.getAttribute('data-key') === focusKey)
    if (again) again.focus()
  }
  trackMoves()
}

function grantItem(grant) {
  const facts = el('dl', { class: 'facts' })
  row(facts, 'Decision', grant.decision)
  row(facts, 'Scope', grant.scope)
  row(facts, 'Agent', grant.agent_name)
  row(facts, 'Input', grant.input_digest)
  row(facts, 'From', grant.origin)
  row(facts, 'Made', timeNode(grant.created_at))
  const titleId = 'grant-' + grant.grant_id
  return el('li', { class: 'card', 'data-grant': grant.grant_id, 'data-decision': grant.decision, 'aria-labelledby': titleId }, [
    el('h3', { id: titleId, text: grant.tool_id }),
    facts,
    el('div', { class: 'actions' }, [el('button', { type: 'button', class: 'revoke', 'data-key': 'revoke:' + grant.grant_id, 'aria-describedby': titleId, text: 'Revoke', onclick: armed(() => revoke(grant)) })]),
  ])
}

function setOptions(datalist, values) {
  const sorted = Array.from(new Set(values)).filter(Boolean).sort()
  if (Array.from(datalist.options).map((o) => o.value).join('\n') === sorted.join('\n')) return
  // The value stays the real one (choosing it must pick that workspace); the label is what people read.
  datalist.replaceChildren(...sorted.map((value) => el('option', { value, label: visible(value) })))
}

/**
 * Pending approvals oldest first (a queue: a new one arrives at the bottom and moves no card the
 * person is reading), decided ones newest first below them.
 */
function renderApprovals(pending, decided, more) {
  const queue = pending.slice(0, PENDING_SHOWN).reverse()
  const ids = queue.map((a) => a.approval_id)
  // A card decided here stays where it was (after the card it followed), without its buttons.
  for (const [id, view] of state.held) {
    if (ids.includes(id)) continue
    const before = state.order.slice(0, Math.max(0, state.order.indexOf(id)))
    let index = 0
    for (let k = before.length - 1; k >= 0; k--) {
      const j = ids.indexOf(before[k])
      if (j >= 0) {
        index = j + 1
        break
      }
    }
    ids.splice(index, 0, id)
    queue.splice(index, 0, { held: true, view })
  }
  state.order = ids
  renderKeyed(byId('pending-list'), queue, (a) => (a.held ? a.view.approval_id : a.approval_id), (a) => (a.held ? approvalCard(a.view, 'held-') : approvalCard(a)))
  renderKeyed(byId('decided-list'), decided.slice(0, DECIDED_SHOWN), (a) => a.approval_id, approvalCard)
  byId('pending-empty').hidden = queue.length > 0
  byId('decided-empty').hidden = decided.length > 0
  const note = byId('pending-more')
  note.hidden = !more
  note.textContent = more ? 'Showing the newest ' + PENDING_SHOWN + ' pending approvals; more are waiting. Decide some, then older ones show here.' : ''
  setOptions(byId('workspaces'), pending.concat(decided).map((a) => a.scope && a.scope.workspace_id).concat([state.workspace]))
}

/**
 * Reads pending approvals (their own request, so decided ones never push them out) and the
 * newest decided ones, inputs as previews. Without a profile it still asks: a host whose
 * authenticate fixes the profile answers; otherwise the page says to choose one.
 */
async function loadApprovals() {
  const query = { profile: state.profile, workspace_id: state.workspace, preview: String(PREVIEW_CHARS) }
  let pending
  try {
    pending = await api('GET', 'tools/approvals', { ...query, status: 'pending', limit: String(PENDING_SHOWN + 1) })
  } catch (error) {
    if (!state.profile && error instanceof ApiError && error.reason === 'query_invalid') {
      state.approvals = ''
      renderApprovals([], [], false)
      byId('pending-empty').textContent = 'Choose a profile to see the approvals it opened.'
      return
    }
    throw error
  }
  const decided = await api('GET', 'tools/approvals', { ...query, status: 'approved,denied,canceled,expired', limit: String(DECIDED_SHOWN) })
  const text = JSON.stringify([pending.approvals, decided.approvals])
  byId('pending-empty').textContent = 'Nothing waits for a decision.'
  if (text !== state.approvals) {
    state.approvals = text
    renderApprovals(pending.approvals, decided.approvals, pending.approvals.length > PENDING_SHOWN)
  }
}

async function loadGrants() {
  byId('grant-form').querySelector('fieldset').disabled = !state.workspace
  if (!state.workspace) {
    state.grants = ''
    renderKeyed(byId('grant-list'), [], (g) => g.grant_id, grantItem)
    byId('grants-empty').hidden = false
    byId('grants-empty').textContent = 'Choose a workspace to see and set its remembered decisions.'
    return
  }
  const data = await api('GET', 'tool-approval-grants', { workspace_id: state.workspace })
  const text = JSON.stringify(data.grants)
  byId('grants-empty').textContent = 'This workspace remembers no decisions.'
  if (text !== state.grants) {
    state.grants = text
    renderKeyed(byId('grant-list'), data.grants, (g) => g.grant_id, grantItem)
    byId('grants-empty').hidden = data.grants.length > 0
  }
}

async function loadTools() {
  try {
    const data = await api('GET', 'tools')
    setOptions(byId('tool-ids'), data.tools.map((tool) => tool.tool_id))
  } catch {
    // The tool list only helps typing; the grant form works without it.
  }
}

/**
 * One refresh of both lists; a failure is shown, and the next poll tries again. A poll is skipped
 * while one runs; a forced refresh (after a decision) waits for it and then reads again, so what
 * it shows is after the decision.
 */
async function refresh(force) {
  if (state.inflight) {
    if (!force) return
    await state.inflight
    if (state.inflight) return state.inflight
  }
  state.inflight = readBoth().finally(() => {
    state.inflight = null
  })
  return state.inflight
}

async function readBoth() {
  try {
    await Promise.all([loadApprovals(), loadGrants()])
    byId('updated').textContent = new Date().toLocaleTimeString()
    byId('updated').setAttribute('datetime', new Date().toISOString())
    refreshTimes()
  } catch (error) {
    say(describeError(error), 'error')
  }
}

async function decide(approval, decision) {
  const buttons = document.querySelectorAll('[data-approval="' + CSS.escape(approval.approval_id) + '"] .actions button')
  for (const button of buttons) button.disabled = true
  // Focus leaves the card for the section heading at once, so a second Enter decides nothing.
  byId('pending-title').focus()
  say((decision === 'approved' ? 'Approving ' : 'Denying ') + approval.tool_id + '…')
  try {
    const data = await api('POST', 'tools/approvals/' + encodeURIComponent(approval.approval_id) + '/resolve', { profile: state.profile }, { decision })
    const view = data.approval
    hold(view)
    if (decision === 'denied') say('Denied ' + view.tool_id + '; it will not run.')
    else if (view.outcome && view.outcome.status === 'ok') say('Approved ' + view.tool_id + '; it ran: ' + view.outcome.result.preview)
    else if (view.outcome) say('Approved ' + view.tool_id + '; it failed: ' + view.outcome.error.code + ' / ' + view.outcome.error.reason, 'error')
    else say('Approved ' + view.tool_id + '; it is running.')
  } catch (error) {
    for (const button of buttons) button.disabled = false
    say(describeError(error), 'error')
  }
  await refresh(true)
}

/** Keeps a card decided here in its place for HOLD_MS, or until the pointer leaves the queue. */
function hold(view) {
  state.held.set(view.approval_id, view)
  setTimeout(() => release(view.approval_id), HOLD_MS)
}

function release(id) {
  if (id === undefined) state.held.clear()
  else if (!state.held.delete(id)) return
  state.approvals = ''
  void refresh(true)
}

async function revoke(grant) {
  byId('grants-title').focus()
  say('Revoking the decision for ' + grant.tool_id + '…')
  try {
    await api('DELETE', 'tool-approval-grants/' + encodeURIComponent(grant.grant_id), { workspace_id: state.workspace })
    say('Revoked the ' + grant.scope + '-scope decision for ' + grant.tool_id + '.')
  } catch (error) {
    say(describeError(error), 'error')
  }
  await refresh(true)
  if (!document.activeElement || document.activeElement === document.body) byId('grants-title').focus()
}

async function setGrant(event) {
  event.preventDefault()
  const form = event.currentTarget
  const scope = form.elements.scope.value
  const body = { tool_id: form.elements.tool_id.value.trim(), decision: form.elements.decision.value, scope }
  if (scope === 'agent') body.agent_name = form.elements.agent_name.value.trim()
  say('Remembering ' + body.decision + ' for ' + body.tool_id + '…')
  try {
    const data = await api('PUT', 'tool-approval-grants', { workspace_id: state.workspace }, body)
    say('Remembered: ' + data.grant.decision + ' ' + data.grant.tool_id + ' at ' + data.grant.scope + ' scope.')
  } catch (error) {
    say(describeError(error), 'error')
  }
  await refresh(true)
}

function syncAgentField() {
  const form = byId('grant-form')
  const agent = form.elements.agent_name
  const needed = form.elements.scope.value === 'agent'
  agent.disabled = !needed
  agent.required = needed
}

function choose(event) {
  if (event) event.preventDefault()
  state.profile = byId('profile').value.trim()
  state.workspace = byId('workspace').value.trim()
  const url = new URL(location.href)
  url.search = ''
  if (state.profile) url.searchParams.set('profile', state.profile)
  if (state.workspace) url.searchParams.set('workspace_id', state.workspace)
  history.replaceState(null, '', url)
  state.approvals = ''
  state.grants = ''
  state.held.clear()
  say('')
  void refresh(true)
}

function start() {
  const query = new URL(location.href).searchParams
  byId('profile').value = query.get('profile') || ''
  byId('workspace').value = query.get('workspace_id') || ''
  byId('who').addEventListener('submit', choose)
  byId('grant-form').addEventListener('submit', setGrant)
  byId('grant-form').elements.scope.addEventListener('change', syncAgentField)
  byId('refresh').addEventListener('click', () => void refresh(true))
  syncAgentField()
  // A card that grows or shrinks moves the buttons after it: they are disarmed for a moment too.
  new ResizeObserver(() => trackMoves()).observe(document.body)
  byId('pending-list').addEventListener('pointerleave', () => {
    if (state.held.size > 0) release()
  })
  addEventListener('resize', trackMoves)
  void loadTools()
  choose()
  // Live refresh by polling; paused while the page is hidden.
  state.timer = setInterval(() => {
    if (document.visibilityState === 'visible') void refresh()
  }, POLL_MS)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void refresh()
  })
}

start()
`
