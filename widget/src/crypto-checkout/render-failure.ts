/** An error and its way on, and a checkout nothing can be paid in: shown before any session exists. */
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutView } from '../api.ts';
import type { Localized, Messages } from '../i18n.ts';
import { type CheckoutPhase, webUrl } from './state.ts';

/** An error on screen; its text is written in the language of the moment. */
export interface Failure {
  message: (lang: Localized) => string;
  retry: (() => void) | null;
}

/** A checkout nothing can be paid in, said at once, with the way back to the shop when the merchant gave one. */
export function renderUnavailable(phase: CheckoutPhase, view: CheckoutView, t: Messages): TemplateResult {
  const back = webUrl(view.failure_url);
  return html`<div class="ended">
    <p part="message" class="failure" role="alert">${phase === 'inactive' ? t.inactive : t.linkInvalid}</p>
    ${back ? html`<a part="link" href=${back}>${t.backToShop}</a>` : nothing}
  </div>`;
}

/** The error on screen and its way on. */
export function renderFailure(
  failure: Failure | undefined,
  busy: boolean,
  localized: Localized,
): TemplateResult | typeof nothing {
  if (!failure) return nothing;
  return html`<div part="error" role="alert">
    <p>${failure.message(localized)}</p>
    ${
      failure.retry
        ? html`<button type="button" ?disabled=${busy} @click=${failure.retry}>${localized.messages.retry}</button>`
        : nothing
    }
  </div>`;
}
