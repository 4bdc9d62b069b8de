// The approvals console stylesheet (`docs/console.md`).
// Kept as a string so the handler serves it from memory, with no file to find at run time and no
// build step: edit it here. No backtick or dollar-brace may appear in it (String.raw keeps every
// backslash as written).

/** The approvals console stylesheet (`docs/console.md`). */
export const CONSOLE_STYLE: string = String.raw`/* The approvals console (docs/console.md): readable from 320 px to wide screens, visible focus. */
:root {
  color-scheme: light;
  --ink: #1b1f24;
  --muted: #4d5761;
  --line: #c9d1d9;
  --paper: #ffffff;
  --wash: #f3f5f7;
  --accent: #0b5cad;
  --ok: #11632a;
  --bad: #a40e26;
  --focus: #e8a200;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  line-height: 1.45;
  color: var(--ink);
  background: var(--wash);
}
* { box-sizing: border-box; }
body { margin: 0; padding: 0 0.75rem 2rem; }
h1 { font-size: 1.5rem; margin: 0.75rem 0 0.25rem; }
h2 { font-size: 1.15rem; margin: 0.5rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 0 0 0.4rem; overflow-wrap: anywhere; }
p { margin: 0.25rem 0 0.5rem; }
.top p { color: var(--muted); }
main { max-width: 80rem; margin: 0 auto; }
.top { max-width: 80rem; margin: 0 auto; }
.skip { position: absolute; left: -100vw; }
.skip:focus { position: static; display: inline-block; margin: 0.5rem 0; }
.panel { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; margin: 0.75rem 0; min-width: 0; }
.fields { display: grid; gap: 0.5rem 1rem; grid-template-columns: 1fr; }
.field { display: flex; flex-direction: column; gap: 0.2rem; margin-bottom: 0.5rem; min-width: 0; }
label, legend { font-weight: 600; }
small, .hint, .empty, .label { color: var(--muted); font-size: 0.875rem; }
input, select, button { font: inherit; min-height: 2.75rem; border-radius: 4px; }
input, select { border: 1px solid var(--muted); padding: 0.4rem 0.5rem; background: var(--paper); color: var(--ink); width: 100%; }
input:disabled, select:disabled { background: var(--wash); }
fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
fieldset:disabled { opacity: 0.6; }
button { border: 1px solid var(--accent); background: var(--accent); color: #fff; padding: 0.4rem 1rem; cursor: pointer; }
button.secondary, button.revoke { background: var(--paper); color: var(--accent); }
button.approve { background: var(--ok); border-color: var(--ok); }
button.deny { background: var(--bad); border-color: var(--bad); }
button:disabled { opacity: 0.55; cursor: not-allowed; }
.cards button[data-key]:not([data-armed]) { opacity: 0.7; cursor: wait; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.5rem 0; }
.status { min-height: 1.5rem; font-weight: 600; margin: 0.5rem 0; overflow-wrap: anywhere; }
.status.error { color: var(--bad); }
.cards { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.75rem; }
.card { border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 4px; padding: 0.6rem 0.75rem; min-width: 0; }
.card[data-status="denied"], .card[data-status="expired"], .card[data-status="canceled"], .card[data-decision="reject"] { border-left-color: var(--bad); }
.card[data-status="approved"], .card[data-decision="allow"] { border-left-color: var(--ok); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.75rem; margin: 0 0 0.4rem; font-size: 0.9rem; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
.facts dd, .card h3, pre, .value, .note { unicode-bidi: isolate; }
pre.input { max-height: 20rem; overflow-y: auto; }
.card.held { opacity: 0.75; border-left-style: dashed; }
.note { color: var(--muted); margin: 0.5rem 0 0; }
pre { background: var(--wash); border: 1px solid var(--line); border-radius: 4px; padding: 0.5rem; margin: 0.25rem 0; overflow-x: auto; max-width: 100%; font-size: 0.85rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.outcome { border-top: 1px solid var(--line); margin-top: 0.5rem; padding-top: 0.4rem; overflow-wrap: anywhere; }
.outcome.ok strong { color: var(--ok); }
.outcome.failed strong { color: var(--bad); }
summary { cursor: pointer; min-height: 1.75rem; }
@media (min-width: 40rem) {
  .fields { grid-template-columns: 1fr 1fr; }
}
@media (min-width: 64rem) {
  .columns { display: grid; grid-template-columns: 3fr 2fr; gap: 0 1rem; align-items: start; }
}
`
