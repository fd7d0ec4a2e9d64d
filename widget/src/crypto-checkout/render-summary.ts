/** The top of the checkout: the amount with its tax, the progress list and the countdown. */
import { html, nothing, type TemplateResult } from 'lit';
import { formatToken, formatUsd, fromUnits, includedTaxCents, toUnits } from '../amount.ts';
import type { CheckoutView } from '../api.ts';
import type { Localized, Messages } from '../i18n.ts';
import { type CheckoutPhase, isFinal, stepOfPhase } from './state.ts';

/** The price in USD and in the token, and the tax it includes. */
export function renderAmount(
  view: CheckoutView,
  dollars: string | null,
  tokens: string | null,
  { locale, messages: t }: Localized,
): TemplateResult {
  const tax =
    dollars && view.tax_rate > 0
      ? t.taxIncluded(
          new Intl.NumberFormat(locale, { maximumFractionDigits: 4 }).format(view.tax_rate),
          formatUsd(fromUnits(includedTaxCents(toUnits(dollars, 2), view.tax_rate), 2), locale),
        )
      : null;
  return html`<div>
    ${
      dollars
        ? html`<p part="amount">
          <span class="usd">${formatUsd(dollars, locale)}</span>
          ${tokens ? html`<span class="token">${formatToken(tokens, view.token.symbol, locale, 'up', 2)}</span>` : nothing}
        </p>`
        : nothing
    }
    ${tax ? html`<p class="muted">${tax}</p>` : nothing}
  </div>`;
}

/**
 * The steps, the current one marked; the last reads "Failed" or "Expired" when the checkout ended so. Paid
 * from another device (`viaRequest`), "Scan and pay" stands for the review and the wallet.
 */
export function renderProgress(phase: CheckoutPhase, t: Messages, viaRequest: boolean): TemplateResult {
  const current = viaRequest ? Math.max(0, stepOfPhase[phase] - 1) : stepOfPhase[phase];
  const endings: Partial<Record<CheckoutPhase, string>> = {
    failed: t.stepFailed,
    expired: t.stepExpired,
    closed: t.stepClosed,
  };
  const ended = endings[phase];
  const all = viaRequest ? [t.steps[0] ?? '', t.stepScan, ...t.steps.slice(3)] : t.steps;
  const steps = ended ? [...all.slice(0, -1), ended] : all;
  return html`<ol part="progress" aria-label=${t.progress}>
    ${steps.map((label, i) => html`<li aria-current=${i === current ? 'step' : nothing}>${i + 1}. ${label}</li>`)}
  </ol>`;
}

/** The time left to pay, while there is a deadline and the checkout has not ended. */
export function renderTimer(
  remaining: number | null,
  phase: CheckoutPhase,
  t: Messages,
): TemplateResult | typeof nothing {
  if (remaining === null || isFinal(phase)) return nothing;
  const seconds = Math.ceil(remaining / 1000);
  const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  // Screen readers hear minutes, then 15-second steps in the last minute; the clock itself stays silent.
  const coarse =
    seconds > 60 ? t.minutesLeft(Math.ceil(seconds / 60)) : t.secondsLeft(Math.ceil(seconds / 15) * 15);
  return html`<div part="timer" role="timer" aria-live="polite" aria-atomic="true">
    <span aria-hidden="true">${t.expiresIn(clock)}</span><span class="sr-only">${coarse}</span>
  </div>`;
}
