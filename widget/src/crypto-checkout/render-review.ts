/** The review of one wallet's payment: what leaves the wallet, its stablecoins, and "Pay now". */
import type { TemplateResult } from 'lit';
import { formatToken } from '../amount.ts';
import type { CheckoutView } from '../api.ts';
import type { PaymentLocalized } from '../i18n/payment.ts';
import type { PaymentPlan } from '../wallet/types.ts';
import { shortAddress } from './state.ts';
import { html, nothing } from './template-tags.ts';

/** One wallet's payment before and while it signs. */
export interface Review {
  view: CheckoutView;
  plan: PaymentPlan;
  options: PaymentPlan[];
  payer: string;
  /** What the wallet is being asked (null: nothing yet, the shopper reviews). */
  asking: 'approve' | 'pay' | null;
  busy: boolean;
  expired: boolean;
}

/** What leaves the wallet, the stablecoin to pay with, and "Pay now". */
export function renderReview(
  review: Review,
  localized: PaymentLocalized,
  on: { plan(plan: PaymentPlan): void; pay(): void; anotherWallet(): void },
): TemplateResult {
  const { plan, view, asking, busy } = review;
  const { locale, messages: t } = localized;
  const receive = formatToken(plan.amount, view.token.symbol, locale);
  return html`${renderTokenChoice(review, localized, on.plan)}<div>
      <p class="muted">${t.payingFrom(shortAddress(review.payer))}</p>
      <p>
        ${
          plan.kind === 'swap' && plan.spendMax
            ? t.swap(formatToken(plan.spendMax, plan.payToken.symbol, locale), receive)
            : t.direct(receive)
        }
      </p>
      ${plan.needsApproval ? html`<p class="muted">${t.approveFirst}</p>` : nothing}
    </div>
    ${
      asking
        ? html`<p part="message" role="status">${asking === 'approve' ? t.waitingApproval : t.waitingWallet}</p>`
        : nothing
    }
    <div class="actions">
      <button part="pay-button" type="button" ?disabled=${busy || review.expired} @click=${on.pay}>
        ${t.pay}
      </button>
      <button type="button" ?disabled=${busy} @click=${on.anotherWallet}>${t.changeWallet}</button>
    </div>`;
}

/** The stablecoins the wallet can pay with, when there is a choice; those it cannot are shown disabled. */
function renderTokenChoice(
  { options, plan: chosen, asking, busy }: Review,
  { locale, messages: t }: PaymentLocalized,
  onPick: (plan: PaymentPlan) => void,
): TemplateResult | typeof nothing {
  if (options.length < 2) return nothing;
  const locked = asking !== null || busy;
  return html`<fieldset part="token-choice">
    <legend>${t.tokenChoice}</legend>
    ${options.map((option) => {
      const symbol = option.payToken.symbol;
      const how =
        option.kind === 'swap' && option.spendMax
          ? t.optionSwap(formatToken(option.spendMax, symbol, locale))
          : t.optionDirect;
      return html`<label class="option">
        <input
          type="radio"
          name="pay-token"
          .checked=${option === chosen}
          ?disabled=${locked || !option.covers}
          @change=${() => onPick(option)}
        />
        <span class="option-text">
          <strong>${symbol}</strong>
          <span>${option.covers ? how : t.notEnough}</span>
          <span class="muted">${t.balance(formatToken(option.balance, symbol, locale, 'down'))}</span>
        </span>
      </label>`;
    })}
  </fieldset>`;
}
