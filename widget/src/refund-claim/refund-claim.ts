/**
 * `<refund-claim>`: the customer's page of a refund. It shows who refunds what and why, takes the address
 * the refund goes to — from a browser wallet or pasted, with a warning against exchange deposit addresses —
 * and then follows the refund: ready to pay, sent (with its transaction), confirmed, expired or canceled.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { formatToken, toUnits } from '../amount.ts';
import { CheckoutApiError } from '../api.ts';
import type { DiscoveredWallet } from '../controllers/wallet-discovery.ts';
import { renderWallets } from '../crypto-checkout/render-wallets.ts';
import type { RefundApi, RefundClaim } from '../refunds/refund-api.ts';
import { RefundPage } from '../refunds/refund-page.ts';
import type { RefundMessages } from '../refunds/refund-texts.ts';

/** An address as the service takes it: 0x and 40 hexadecimal digits. */
const addressPattern = /^0x[0-9a-fA-F]{40}$/;

/**
 * The customer's refund claim: details, a wallet or a pasted address, and the refund's state after.
 *
 * @csspart base - The card around everything.
 * @csspart header - The title.
 * @csspart details - Merchant, purchase, amount, network, reason and deadline.
 * @csspart warning - Why an exchange deposit address must not be given.
 * @csspart wallet-list - The browser's wallets.
 * @csspart wallet-button - One wallet's button.
 * @csspart form - The address field and the claim button.
 * @csspart input - The address field.
 * @csspart pay-button - The claim button.
 * @csspart message - The status text.
 * @csspart transaction - The transaction that paid the refund.
 * @csspart error - An error with its retry button.
 */
export class RefundClaimPage extends RefundPage<RefundClaim> {
  @state() private refundAddress = '';
  @state() private addressProblem: 'invalid' | 'refused' | undefined;
  @state() private connected = '';
  @state() private busy: 'connecting' | 'claiming' | undefined;

  protected read(api: RefundApi): Promise<RefundClaim> {
    return api.claim(this.token);
  }

  /**
   * Reads the wallet's address through its provider alone (EIP-6963's announced provider and
   * `eth_requestAccounts`): no chain switch, nothing signed, and none of the payment's wallet code fetched.
   */
  private async useWallet(wallet: DiscoveredWallet): Promise<void> {
    if (this.busy) return;
    this.busy = 'connecting';
    this.failure = undefined;
    try {
      const accounts = await wallet.provider.request({ method: 'eth_requestAccounts' });
      const address = Array.isArray(accounts) ? String(accounts[0] ?? '') : '';
      if (!addressPattern.test(address)) throw new Error('the wallet gave no address');
      this.connected = address;
      this.refundAddress = address;
      this.addressProblem = undefined;
    } catch {
      this.failure = { message: (t) => t.walletFailed, retry: () => void this.useWallet(wallet) };
    } finally {
      this.busy = undefined;
    }
  }

  private async submit(event: Event): Promise<void> {
    event.preventDefault();
    if (this.busy) return;
    const address = this.refundAddress.trim();
    if (!addressPattern.test(address)) {
      this.addressProblem = 'invalid';
      this.focusSoon('#refund-address');
      return;
    }
    this.busy = 'claiming';
    this.failure = undefined;
    this.addressProblem = undefined;
    try {
      this.data = await this.api.submitClaim(this.token, address);
      void this.refresh();
    } catch (error) {
      if (error instanceof CheckoutApiError && error.status === 422) this.addressProblem = 'refused';
      // Claimed already (another tab), canceled or expired meanwhile: the refund as it is now.
      else if (error instanceof CheckoutApiError && (error.status === 409 || error.status === 404))
        void this.refresh();
      else this.failure = this.apiFailure(error, () => void this.submit(new Event('submit')));
    } finally {
      this.busy = undefined;
    }
  }

  override render(): TemplateResult {
    return this.frame(
      (t, data) => t.claimTitle(this.shopName(data, data.merchant_name)),
      (t, data) => html`${this.details([
        [t.merchant, this.shopName(data, data.merchant_name)],
        [t.order, this.orderText(t, data, data.product_name ?? '')],
        [t.amount, this.amountText(data)],
        [
          t.paidSoFar,
          this.paidSoFar(data) ? formatToken(data.paid_amount, data.token.symbol, this.locale) : null,
        ],
        [t.stillDue, this.paidSoFar(data) && data.status === 'ready_to_pay' ? this.dueText(data) : null],
        [t.network, this.chainName(data)],
        [t.reason, data.reason],
        [t.claimBy, data.status === 'awaiting_address' ? this.dateText(data.claim_expires_at) : null],
      ])}
      ${this.otherToken(t, data)} ${this.renderState(t, data)}`,
    );
  }

  /** Whether the shop has sent part of the refund already. */
  private paidSoFar(data: RefundClaim): boolean {
    return toUnits(data.paid_amount, data.token.decimal_count) > 0n;
  }

  /** What is still to come, in the visitor's words. */
  private dueText(data: RefundClaim): string {
    return formatToken(data.amount_due, data.token.symbol, this.locale);
  }

  /** A swap paid in another token than the shop's: the refund comes in the shop's token, and says so. */
  private otherToken(t: RefundMessages, data: RefundClaim): TemplateResult | typeof nothing {
    const paid = data.order?.paid_token_symbol;
    if (!paid || paid === data.token.symbol || data.status !== 'awaiting_address') return nothing;
    return html`<p part="message">${t.otherToken(paid, data.token.symbol)}</p>`;
  }

  private renderState(t: RefundMessages, data: RefundClaim): TemplateResult {
    const amount = this.amountText(data);
    const to = data.refund_address ?? '';
    switch (data.status) {
      case 'awaiting_address':
        return this.renderClaim(t, data);
      case 'ready_to_pay':
        return this.paidSoFar(data)
          ? html`${this.message(t.claimPartPaid(formatToken(data.paid_amount, data.token.symbol, this.locale), this.dueText(data), to))}${this.partPayments(data)}`
          : this.message(t.claimReady(amount, to));
      case 'sent':
        return html`${this.message(t.claimSent(amount, to))}${this.transaction(data, data.tx_hash)}${this.partPayments(data)}`;
      case 'confirmed':
        return html`${this.message(t.claimConfirmed(amount, to), 'success')}${this.transaction(data, data.tx_hash)}${this.partPayments(data)}`;
      case 'expired':
        return this.message(t.claimExpired(this.dateText(data.claim_expires_at)), 'failure');
      default:
        return this.canceled(t, data, data.merchant_contact);
    }
  }

  private renderClaim(t: RefundMessages, data: RefundClaim): TemplateResult {
    const wallets = this.wallets.available;
    const problem =
      this.addressProblem && { invalid: t.addressInvalid, refused: t.addressRefused }[this.addressProblem];
    return html`<p part="warning">${t.warning}</p>
      ${renderWallets(
        wallets,
        !!this.busy,
        (name) => t.useWallet(name || t.browserWallet),
        (w) => void this.useWallet(w),
      )}
      ${this.busy === 'connecting' ? this.message(t.connecting) : nothing}
      ${this.connected ? this.message(t.connected(this.connected)) : wallets.length ? html`<p>${t.orPaste}</p>` : nothing}
      <form part="form" novalidate @submit=${(e: Event) => void this.submit(e)}>
        <div part="field">
          <label for="refund-address">${t.address(this.chainName(data))}</label>
          <input
            id="refund-address"
            part="input"
            name="refund_address"
            autocomplete="off"
            spellcheck="false"
            placeholder="0x…"
            .value=${this.refundAddress}
            ?disabled=${!!this.busy}
            aria-invalid=${problem ? 'true' : 'false'}
            aria-describedby=${problem ? 'refund-address-error' : nothing}
            @input=${(e: Event) => {
              this.refundAddress = (e.target as HTMLInputElement).value;
              this.addressProblem = undefined;
            }}
          />
          ${problem ? html`<p id="refund-address-error" class="field-error">${problem}</p>` : nothing}
        </div>
        <button part="pay-button" type="submit" ?disabled=${!!this.busy}>${t.claim}</button>
      </form>
      ${this.busy === 'claiming' ? this.message(t.claiming) : nothing}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'refund-claim': RefundClaimPage;
  }
}

if (!customElements.get('refund-claim')) customElements.define('refund-claim', RefundClaimPage);
