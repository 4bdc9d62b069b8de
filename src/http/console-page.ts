// The approvals console page (`docs/console.md`): one HTML document, no inline script or style.
// Kept as a string so the handler serves it from memory, with no file to find at run time and no
// build step: edit it here. No backtick or dollar-brace may appear in it (String.raw keeps every
// backslash as written).

/** The approvals console page (`docs/console.md`): one HTML document, no inline script or style. */
export const CONSOLE_PAGE: string = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Approvals console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="console/console.css">
<script type="module" src="console/console.js"></script>
</head>
<body>
<a class="skip" href="#pending-title">Skip to the approvals</a>
<header class="top">
<h1>Approvals console</h1>
<p>Approve or deny the tool calls that wait for a person, and manage the decisions a workspace remembers.</p>
</header>
<main>
<form id="who" class="panel who" aria-labelledby="who-title">
<h2 id="who-title">Whose approvals</h2>
<div class="fields">
<div class="field">
<label for="profile">Profile</label>
<input id="profile" name="profile" autocomplete="off" spellcheck="false" aria-describedby="profile-hint">
<small id="profile-hint">The profile that opened the approvals; only it may decide them.</small>
</div>
<div class="field">
<label for="workspace">Workspace</label>
<input id="workspace" name="workspace_id" list="workspaces" autocomplete="off" spellcheck="false" aria-describedby="workspace-hint">
<small id="workspace-hint">Narrows the approvals, and picks the remembered decisions shown.</small>
<datalist id="workspaces"></datalist>
</div>
</div>
<div class="actions">
<button type="submit">Show</button>
<button type="button" id="refresh" class="secondary">Refresh now</button>
</div>
<p class="hint">Refreshes every 2 seconds. Last update: <time id="updated">never</time>.</p>
</form>
<p id="status" class="status" role="status" aria-live="polite"></p>
<div class="columns">
<section class="panel" aria-labelledby="pending-title">
<h2 id="pending-title" tabindex="-1">Waiting for a decision</h2>
<p id="pending-empty" class="empty">Choose a profile to see the approvals it opened.</p>
<ul id="pending-list" class="cards"></ul>
<p id="pending-more" class="note" hidden></p>
<h2 id="decided-title">Decided</h2>
<p id="decided-empty" class="empty">No decisions yet.</p>
<ul id="decided-list" class="cards" aria-labelledby="decided-title"></ul>
</section>
<section class="panel" aria-labelledby="grants-title">
<h2 id="grants-title" tabindex="-1">Remembered decisions</h2>
<form id="grant-form" aria-labelledby="grant-form-title">
<fieldset disabled>
<legend id="grant-form-title">Remember a decision</legend>
<div class="field">
<label for="grant-tool">Tool</label>
<input id="grant-tool" name="tool_id" list="tool-ids" required autocomplete="off" spellcheck="false">
<datalist id="tool-ids"></datalist>
</div>
<div class="field">
<label for="grant-decision">Decision</label>
<select id="grant-decision" name="decision">
<option value="allow">Allow without asking</option>
<option value="reject">Reject</option>
</select>
</div>
<div class="field">
<label for="grant-scope">Scope</label>
<select id="grant-scope" name="scope" aria-describedby="scope-hint">
<option value="agent">One agent, every input</option>
<option value="tool">Every agent, every input</option>
</select>
<small id="scope-hint">An allow only skips the prompt where the policy asks for approval.</small>
</div>
<div class="field">
<label for="grant-agent">Agent</label>
<input id="grant-agent" name="agent_name" autocomplete="off" spellcheck="false">
</div>
<div class="actions"><button type="submit">Remember</button></div>
</fieldset>
</form>
<p id="grants-empty" class="empty">Choose a workspace to see and set its remembered decisions.</p>
<ul id="grant-list" class="cards" aria-labelledby="grants-title"></ul>
</section>
</div>
</main>
</body>
</html>
`
