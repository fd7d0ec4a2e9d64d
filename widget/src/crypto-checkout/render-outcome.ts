/** After the payment is sent: its progress, its transaction, and how the checkout ended. */
import type { TemplateResult } from 'lit';
import type { CheckoutSession, CheckoutView } from '../api.ts';
import { explorerOf } from '../chains.ts';
import type { PaymentMessages } from '../i18n/payment.ts';
import type { PendingRedirect } from './outcome.ts';
import { type CheckoutPhase, shortAddress, webUrl } from './state.ts';
import { html, nothing } from './template-tags.ts';

/** The transaction of the payment, with the outcome of the last copy of its hash. */
export interface Transaction {
  hash: string;
  /** The transaction this tab sent, when it is not the one that settled the checkout. */
  unused: string;
  copied: 'copied' | 'failed' | undefined;
  copy: () => void;
}

/** The transaction hash, a button copying it whole, and its page on the chain's explorer. */
function renderHash(
  view: CheckoutView,
  tx: Transaction,
  t: PaymentMessages,
): TemplateResult | typeof nothing {
  const { hash, copied } = tx;
  if (!hash) return nothing;
  const explorer = explorerOf(view, hash);
  return html`<div part="transaction">
    <p class="muted">${t.transaction}: <code>${copied === 'failed' ? hash : shortAddress(hash)}</code></p>
    <div class="tx-actions">
      <button type="button" aria-label=${t.copyHash} @click=${tx.copy}>${t.copy}</button>
      ${
        explorer
          ? html`<a href=${explorer.url} target="_blank" rel="noopener noreferrer">${t.viewOn(explorer.name)}</a>`
          : nothing
      }
    </div>
    <p class="muted" role="status">${copied === 'copied' ? t.copied : copied === 'failed' ? t.copyFailed : ''}</p>
  </div>`;
}

/** This tab's own transaction, when it paid nothing because the checkout was settled otherwise. */
function renderUnused(tx: Transaction, t: PaymentMessages): TemplateResult | typeof nothing {
  return tx.unused ? html`<p>${t.notUsed(shortAddress(tx.unused))}</p>` : nothing;
}

/** Sent, confirming, paid, failed or expired. */
export function renderOutcome(
  phase: CheckoutPhase,
  view: CheckoutView,
  session: CheckoutSession | undefined,
  tx: Transaction,
  ended: {
    receiptTo: string | undefined;
    canStartAgain: boolean;
    startAgain: () => void;
    redirect: PendingRedirect | undefined;
  },
  t: PaymentMessages,
): TemplateResult | typeof nothing {
  const redirect = ended.redirect;
  const leaving = redirect
    ? html`<div class="ended">
        <p role="status">${t.redirecting(redirect.site)}</p>
        <a part="link" href=${redirect.url}>${t.goNow}</a>
      </div>`
    : nothing;
  switch (phase) {
    case 'submitted':
    case 'confirming': {
      const text =
        phase === 'confirming' && session
          ? t.confirming(session.confirmations, session.required_confirmations)
          : t.submitted;
      return html`<p part="message" role="status">${text}</p>${renderHash(view, tx, t)}`;
    }
    case 'paid':
      // The receipt goes to the e-mail the session was opened with, when the merchant sends receipts;
      // a session resumed after a reload no longer knows the address, so it is not named then.
      return html`<p part="message" class="success" role="status">${session?.late ? t.paidLate : t.paid}</p>${
        view.sends_receipt ? html`<p part="receipt">${t.receiptSent(ended.receiptTo ?? '')}</p>` : nothing
      }${renderHash(view, tx, t)}${renderUnused(tx, t)}${leaving}`;
    case 'failed':
      return html`<div part="message" class="failure" role="alert">
          <p><strong>${t.failed}</strong></p>
          <p>${t.failedReverted}</p>
        </div>${renderHash(view, tx, t)}${renderUnused(tx, t)}${leaving}`;
    case 'expired':
    case 'closed': {
      const back = webUrl(view.failure_url);
      return html`<div class="ended">
        <p part="message" class="failure" role="alert">${phase === 'closed' ? t.closed : t.expired}</p>
        ${renderUnused(tx, t)}
        ${
          // A payment request's transfer may still land within the grace window: the page keeps watching.
          phase === 'expired' && session?.payment_uri ? html`<p>${t.expiredWatching}</p>` : nothing
        }
        ${
          ended.canStartAgain
            ? html`<p>${t.expiredRestart}</p>
                <button part="pay-button" type="button" @click=${ended.startAgain}>${t.startAgain}</button>`
            : back && !redirect
              ? html`<p>${t.expiredAskMerchant}</p>
                  <a part="link" href=${back}>${t.backToShop}</a>`
              : html`<p tabindex="-1">${t.expiredAskMerchant}</p>`
        }
      </div>${leaving}`;
    }
    default:
      return nothing;
  }
}
