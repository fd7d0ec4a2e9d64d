/** Styles of `<crypto-checkout>`: every colour comes from a documented custom property. */
import { css } from 'lit';

/** The dark palette, by media query or `theme="dark"`. */
const dark = css`
  color-scheme: dark;
  --cc-background: #17191d;
  --cc-foreground: #f1f3f5;
  --cc-muted: #b3bac5;
  --cc-border: #4a505a;
  --cc-accent: #9db8ff;
  --cc-accent-foreground: #0b1020;
  --cc-error: #ffb4a9;
  --cc-success: #8ee0a6;
  --cc-focus: #9db8ff;
`;

/** The element's shadow styles, light by default, dark by media query or `theme="dark"`. */
export const styles = css`
  :host {
    --cc-font: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    --cc-radius: 10px;
    --cc-background: #ffffff;
    --cc-foreground: #17191c;
    --cc-muted: #4f5662;
    --cc-border: #c9ced6;
    --cc-accent: #1d4ed8;
    --cc-accent-foreground: #ffffff;
    --cc-error: #b42318;
    --cc-success: #146c2e;
    --cc-focus: #1d4ed8;
    display: block;
    max-width: 28rem;
    min-width: 0;
    color-scheme: light;
    font-family: var(--cc-font);
    color: var(--cc-foreground);
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${dark}
    }
  }
  :host([theme='dark']) {
    ${dark}
  }
  [part='base'] {
    box-sizing: border-box;
    background: var(--cc-background);
    border: 1px solid var(--cc-border);
    border-radius: var(--cc-radius);
    padding: 1rem;
    display: grid;
    gap: 0.75rem;
    overflow-wrap: anywhere;
  }
  h2 {
    margin: 0;
    font-size: 1.15rem;
  }
  .badge {
    display: inline-block;
    white-space: nowrap;
    font-size: 0.75rem;
    border: 1px solid var(--cc-border);
    border-radius: 999px;
    padding: 0.05rem 0.5rem;
    margin-inline-start: 0.5rem;
    color: var(--cc-muted);
    vertical-align: middle;
  }
  [part='amount'] {
    margin: 0;
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.75rem;
    align-items: baseline;
  }
  .usd {
    font-size: 1.6rem;
    font-weight: 600;
  }
  .muted,
  .token {
    color: var(--cc-muted);
  }
  p {
    margin: 0;
  }
  form {
    display: grid;
    gap: 0.6rem;
  }
  [part~='field'] {
    display: grid;
    gap: 0.2rem;
  }
  label {
    font-size: 0.9rem;
    font-weight: 500;
  }
  [part~='input'] {
    font: inherit;
    color: inherit;
    background: var(--cc-background);
    border: 1px solid var(--cc-border);
    border-radius: calc(var(--cc-radius) * 0.6);
    padding: 0.5rem 0.6rem;
    min-width: 0;
    width: 100%;
    box-sizing: border-box;
  }
  [part~='input'][aria-invalid='true'] {
    border-color: var(--cc-error);
  }
  [part~='input']:disabled {
    opacity: 0.75;
  }
  .field-error,
  [part='error'] {
    color: var(--cc-error);
    font-size: 0.9rem;
  }
  /* Room for the focus ring (3px + 2px offset) between the message and its button. */
  [part='error'],
  .ended,
  [part='transaction'] {
    display: grid;
    gap: 0.6rem;
    justify-items: start;
  }
  [part='error'] button {
    margin: 0.25rem 0;
  }
  a {
    color: var(--cc-accent);
    text-underline-offset: 0.2em;
  }
  a:focus-visible,
  [part='token-choice'] input:focus-visible,
  [tabindex='-1']:focus-visible {
    outline: 3px solid var(--cc-focus);
    outline-offset: 2px;
  }
  [part='token-choice'] {
    margin: 0;
    padding: 0.5rem 0.75rem 0.75rem;
    border: 1px solid var(--cc-border);
    border-radius: calc(var(--cc-radius) * 0.6);
    display: grid;
    gap: 0.5rem;
    min-width: 0;
  }
  legend {
    font-size: 0.9rem;
    font-weight: 500;
    padding: 0 0.25rem;
  }
  .option {
    display: flex;
    gap: 0.6rem;
    align-items: flex-start;
    cursor: pointer;
  }
  .option input {
    flex: none;
    margin: 0.2rem 0 0;
    width: 1.1rem;
    height: 1.1rem;
    accent-color: var(--cc-accent);
  }
  .option input:disabled + .option-text {
    color: var(--cc-muted);
  }
  .option-text {
    display: flex;
    flex-wrap: wrap;
    gap: 0 0.6rem;
  }
  [part='wallet-list'] {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.5rem;
  }
  button {
    font: inherit;
    cursor: pointer;
    border-radius: calc(var(--cc-radius) * 0.6);
    padding: 0.6rem 0.9rem;
    min-height: 2.75rem;
    border: 1px solid var(--cc-border);
    background: var(--cc-background);
    color: var(--cc-foreground);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button:focus-visible,
  [part~='input']:focus-visible {
    outline: 3px solid var(--cc-focus);
    outline-offset: 2px;
  }
  [part='wallet-button'],
  [part='other-device'] {
    width: 100%;
    display: flex;
    align-items: center;
    gap: 0.6rem;
    text-align: start;
  }
  [part='wallet-button'] img {
    width: 1.5rem;
    height: 1.5rem;
  }
  [part='pay-button'],
  [part='message'] + [part='other-device'] {
    background: var(--cc-accent);
    color: var(--cc-accent-foreground);
    border-color: var(--cc-accent);
    font-weight: 600;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .actions > * {
    flex: 1 1 9rem;
  }
  .tx-actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
  }
  [part='timer'] {
    font-variant-numeric: tabular-nums;
    color: var(--cc-muted);
  }
  [part='progress'] {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.6rem;
    font-size: 0.8rem;
    color: var(--cc-muted);
  }
  [part='progress'] li[aria-current='step'] {
    color: var(--cc-foreground);
    font-weight: 600;
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
  /* A note with a rule at its start, not a box: a status never looks like a control. */
  [part='message'] {
    padding: 0.2rem 0 0.2rem 0.75rem;
    border-inline-start: 4px solid var(--cc-border);
  }
  [part='message'].success {
    color: var(--cc-success);
    border-color: var(--cc-success);
  }
  [part='message'].failure {
    color: var(--cc-error);
    border-color: var(--cc-error);
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  code {
    font-size: 0.8rem;
  }
`;
