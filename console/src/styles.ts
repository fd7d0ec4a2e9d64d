/** The console's one style sheet, adopted by every page: system colours in light and dark, 320 px up. */
import { css } from 'lit';

export const shared = css`
  :host {
    display: block;
    color-scheme: light dark;
    --fg: #111;
    --bg: #fff;
    --muted: #555;
    --line: #ccc;
    --accent: #0b57d0;
    --bad: #b3261e;
    --good: #146c2e;
    color: var(--fg);
    background: var(--bg);
    font: 15px/1.45 system-ui, sans-serif;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --fg: #eee;
      --bg: #151515;
      --muted: #bbb;
      --line: #555;
      --accent: #8ab4f8;
      --bad: #f2b8b5;
      --good: #6dd58c;
    }
  }
  h1 { font-size: 1.3rem; margin: 0 0 0.75rem; }
  h2 { font-size: 1.1rem; margin: 1.25rem 0 0.5rem; }
  a { color: var(--accent); }
  button, input, select, textarea {
    font: inherit;
    color: inherit;
    background: var(--bg);
    border: 1px solid var(--line);
    border-radius: 6px;
    padding: 0.4rem 0.6rem;
    min-height: 2.25rem;
    max-width: 100%;
    box-sizing: border-box;
  }
  button { cursor: pointer; border-color: var(--accent); color: var(--accent); }
  button.primary { background: var(--accent); color: var(--bg); }
  button:disabled { opacity: 0.6; cursor: default; }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  label { display: grid; gap: 0.2rem; font-size: 0.9rem; }
  form, .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
  .table { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
  th, td { text-align: left; padding: 0.4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  code, .hash { font-family: ui-monospace, monospace; overflow-wrap: anywhere; font-size: 0.85rem; }
  .muted { color: var(--muted); }
  .error { color: var(--bad); }
  .ok { color: var(--good); }
  dl { display: grid; grid-template-columns: minmax(6rem, max-content) 1fr; gap: 0.25rem 1rem; margin: 0; }
  dt { color: var(--muted); }
  dd { margin: 0; overflow-wrap: anywhere; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: 0.75rem; }
  .card { border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem; }
  .card strong { display: block; font-size: 1.4rem; }
  ol.attempts { margin: 0; padding-left: 1.2rem; }
  .visually-hidden {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
  }
`;
