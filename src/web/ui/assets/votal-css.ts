/** The one stylesheet of the dashboard and the live page (served as /ui/static/votal.css). */
export const VOTAL_CSS = String.raw`
:root {
  color-scheme: light dark;
  --bg: #f6f7f9; --panel: #ffffff; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de;
  --accent: #0b5cad; --accent-ink: #ffffff; --good: #1a7f37; --warn: #9a6700; --bad: #b42318;
  --chip: #eef2f6; --focus: #ff9f1c; --del: #ffebe9; --ins: #dafbe1; --forum: #fafbfc;
  --l1: #fff4d6; --major: #ffe1dd;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  line-height: 1.45;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --panel: #161b22; --ink: #e6edf3; --muted: #9da7b3; --line: #30363d;
    --accent: #58a6ff; --accent-ink: #0d1117; --good: #3fb950; --warn: #d29922; --bad: #ff7b72;
    --chip: #21262d; --del: #4b1d1d; --ins: #163b22; --forum: #1c2128; --l1: #3a2e0a; --major: #4a1d1a;
  }
}
*, *::before, *::after { box-sizing: border-box; }
/* hidden means hidden, whatever display a class gives (a chip shown only while a read runs). */
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px;
}
.skip { position: absolute; left: -9999px; top: 0; }
.skip:focus { left: 8px; top: 8px; background: var(--panel); padding: 8px; z-index: 10; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.top { background: var(--panel); border-bottom: 1px solid var(--line); }
header.top .bar { max-width: 1200px; margin: 0 auto; padding: 10px 16px; display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
header.top .brand { font-weight: 700; text-decoration: none; color: var(--ink); font-size: 1.1rem; }
header.top nav { display: flex; gap: 12px; flex-wrap: wrap; margin-left: auto; align-items: center; }
main { max-width: 1200px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 0.2em 0 0.4em; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 0 0 0.6em; }
h3 { font-size: 1.05rem; margin: 0.8em 0 0.4em; }
.muted { color: var(--muted); }
.late { color: var(--warn); font-weight: 600; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 16px; margin-bottom: 16px; min-width: 0; }
.grid { display: grid; gap: 16px; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); align-items: start; }
.grid > * { min-width: 0; }
@media (max-width: 900px) { .grid { grid-template-columns: minmax(0, 1fr); } }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 600; padding-bottom: 6px; }
th, td { text-align: left; padding: 8px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 0.85rem; color: var(--muted); font-weight: 600; }
tbody th { font-size: 1rem; color: var(--ink); }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.voters { display: flex; flex-wrap: wrap; gap: 4px 8px; list-style: none; margin: 0; padding: 0; }
.voters li { overflow-wrap: anywhere; }
.chip { display: inline-block; background: var(--chip); border-radius: 999px; padding: 1px 8px; font-size: 0.85rem; white-space: nowrap; }
.marker { display: inline-block; border-radius: 4px; padding: 0 6px; font-size: 0.8rem; font-weight: 700; margin-left: 6px; white-space: nowrap; }
.marker.l1 { background: var(--l1); color: var(--warn); border: 1px solid var(--warn); }
.marker.majority { background: var(--major); color: var(--bad); border: 1px solid var(--bad); }
.marker.loose { background: var(--chip); color: var(--warn); border: 1px dashed var(--warn); font-weight: 600; }
.voters .loose .actions { display: inline-flex; flex-wrap: wrap; gap: 4px; margin: 2px 0 0 6px; }
tr.l1 td:first-child { box-shadow: inset 4px 0 0 var(--warn); }
tr.majority td:first-child { box-shadow: inset 4px 0 0 var(--bad); }
.target { font-weight: 600; overflow-wrap: anywhere; }
.summary { display: flex; flex-wrap: wrap; gap: 8px 20px; margin: 0 0 12px; padding: 0; list-style: none; }
.summary li strong { font-size: 1.05rem; }
.countdown { font-variant-numeric: tabular-nums; font-weight: 700; }
.status { display: inline-block; padding: 2px 8px; border-radius: 6px; font-size: 0.85rem; font-weight: 600; background: var(--chip); }
.status.live { color: var(--good); }
.status.off { color: var(--warn); }
.changes { list-style: none; padding: 0; margin: 0; }
.changes li { padding: 4px 0; border-bottom: 1px dashed var(--line); overflow-wrap: anywhere; }
.timeline-scroll { overflow-x: auto; }
.chart { width: 100%; min-width: 480px; height: auto; display: block; }
.chart text { fill: var(--muted); font-size: 12px; }
.chart .axis { stroke: var(--line); }
.chart .threshold { stroke: var(--bad); stroke-dasharray: 5 4; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 12px; list-style: none; padding: 0; margin: 8px 0 0; font-size: 0.9rem; }
.legend .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
.s0 { fill: #0b72d9; stroke: #0b72d9; background: #0b72d9; } .s1 { fill: #d9480f; stroke: #d9480f; background: #d9480f; }
.s2 { fill: #2b8a3e; stroke: #2b8a3e; background: #2b8a3e; } .s3 { fill: #9c36b5; stroke: #9c36b5; background: #9c36b5; }
.s4 { fill: #c2255c; stroke: #c2255c; background: #c2255c; } .s5 { fill: #5f6b7a; stroke: #5f6b7a; background: #5f6b7a; }
.chart polyline { fill: none; stroke-width: 2.5; }
.chart circle { stroke: none; }
/* On a phone the chart fits the screen (axis included) instead of scrolling it away; its text grows to stay readable. */
@media (max-width: 480px) { .chart { min-width: 0; } .chart text { font-size: 20px; } }
form.inline { display: inline; }
form.inline select { width: auto; max-width: 12em; }
label { display: block; font-weight: 600; margin: 10px 0 4px; }
label.check { font-weight: 400; display: flex; gap: 6px; align-items: center; }
input[type=text], input[type=url], input[type=password], input[type=number], input[type=datetime-local], select, textarea {
  width: 100%; max-width: 100%; padding: 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--ink); font: inherit;
}
textarea { min-height: 8em; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9rem; }
.hint { font-size: 0.85rem; color: var(--muted); margin: 2px 0 0; }
button, .button { display: inline-block; font: inherit; font-weight: 600; padding: 7px 14px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-ink); cursor: pointer; text-decoration: none; }
button.secondary, .button.secondary { background: transparent; color: var(--accent); }
button.danger { background: transparent; color: var(--bad); border-color: var(--bad); }
.actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 10px 0; }
.row { display: grid; gap: 0 12px; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); }
.notice { border-left: 4px solid var(--accent); background: var(--panel); padding: 8px 12px; margin-bottom: 12px; }
.notice.error { border-color: var(--bad); }
.queue { list-style: none; padding: 0; margin: 0; }
.queue > li { border: 1px solid var(--line); border-radius: 8px; padding: 10px; margin-bottom: 10px; }
.queue .kind { font-weight: 700; }
.queue .raw { font-family: ui-monospace, Menlo, Consolas, monospace; background: var(--chip); padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; }
.queue .resolved { color: var(--good); font-weight: 600; }
.diff { margin: 0; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9rem; white-space: pre-wrap; overflow-wrap: anywhere; background: var(--chip); padding: 8px; border-radius: 6px; }
.diff del { background: var(--del); text-decoration: line-through; }
.diff ins { background: var(--ins); text-decoration: none; }
.games { list-style: none; padding: 0; margin: 0; }
.games li { padding: 8px 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.forum-post { border: 1px solid var(--line); border-radius: 4px; background: var(--forum); display: grid; grid-template-columns: 120px minmax(0, 1fr); }
.forum-post .author { border-right: 1px solid var(--line); padding: 12px; text-align: center; font-weight: 700; color: var(--accent); }
.forum-post .author .avatar { width: 64px; height: 64px; border-radius: 50%; background: var(--chip); margin: 0 auto 6px; display: flex; align-items: center; justify-content: center; font-size: 1.6rem; }
.forum-post .forum-body { padding: 12px; overflow-wrap: anywhere; }
@media (max-width: 600px) { .forum-post { grid-template-columns: minmax(0, 1fr); } .forum-post .author { border-right: 0; border-bottom: 1px solid var(--line); text-align: left; } .forum-post .author .avatar { display: none; } }
.bb-quote { border-left: 3px solid var(--accent); margin: 6px 0; padding: 4px 10px; background: var(--chip); }
.bb-quote cite { display: block; font-style: normal; font-weight: 600; font-size: 0.85rem; }
.bb-code { background: var(--chip); padding: 8px; overflow-x: auto; }
.bb-list { margin: 4px 0; }
.bb-img { color: var(--muted); font-style: italic; }
pre.raw { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--chip); padding: 10px; border-radius: 6px; font-size: 0.9rem; max-height: 30em; overflow: auto; }
details.box { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin-bottom: 12px; }
details.box > summary { cursor: pointer; font-weight: 600; }
footer.foot { max-width: 1200px; margin: 0 auto; padding: 8px 16px 24px; color: var(--muted); font-size: 0.85rem; }
@media (max-width: 480px) {
  main { padding: 10px; }
  .panel { padding: 12px; }
  th, td { padding: 6px 4px; }
  h1 { font-size: 1.25rem; }
  .hide-narrow { display: none; }
  /* The games table fits a phone: long names, errors and chips wrap instead of pushing columns off screen. */
  tbody th, td .muted { overflow-wrap: anywhere; }
  td .chip { white-space: normal; }
}
`;
