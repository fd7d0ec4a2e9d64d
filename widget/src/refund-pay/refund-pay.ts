/**
 * `<refund-pay>`: the merchant's page of a refund. Once the customer's address is known it pays the
 * refund's exact payment request from the receiving wallet — with the element's own wallet flow (connect,
 * move to the chain, sign the ERC-20 transfer) or by scanning the element's QR code of the EIP-681 URI —
 * and follows the refund until the chain shows it sent, then confirmed.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { formatToken, toUnits } from '../amount.ts';
import type { DiscoveredWallet } from '../controllers/wallet-discovery.ts';
import { describeWalletError } from '../crypto-checkout/describe-error.ts';
import { renderWallets } from '../crypto-checkout/render-wallets.ts';
import { readStored, store } from '../crypto-checkout/state.ts';
import { loadMessages, loadPaymentRequestModule, type PaymentRequestModule } from '../lazy-modules.ts';
import type { RefundApi, RefundPayment } from '../refunds/refund-api.ts';
import { type PageFailure, RefundPage } from '../refunds/refund-page.ts';
import type { RefundMessages } from '../refunds/refund-texts.ts';
import type { Holding, PaymentPlan, PaymentTarget, WalletFlow, WalletModule } from '../wallet/types.ts';

/** Where the hash of a transfer this tab sent is kept, so a reload never asks the wallet again. */
const sentKey = (token: string) => `refund-pay:${token}`;

/** `transfer(to, units)` ABI-encoded, lowercase: what the payment request's transaction must carry. */
function transferData(to: string, units: bigint): string {
  return `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, '0')}${units.toString(16).padStart(64, '0')}`;
}

/**
 * Whether the payment request is exactly this refund: what is still due in the token's base units (the whole
 * amount before any part payment), a transfer of the refund's token from the receiving wallet to the
 * customer's address on the refund's chain.
 * @internal exported for its unit test
 */
export function requestMatches(data: RefundPayment): boolean {
  const request = data.payment_request;
  if (!request || !data.refund_address || !/^\d+$/.test(data.amount_base_units)) return false;
  const whole = BigInt(data.amount_base_units);
  const due = toUnits(data.amount_due, data.token.decimal_count);
  const tx = request.transaction;
  return (
    due > 0n &&
    due <= whole &&
    toUnits(data.amount, data.token.decimal_count) === whole &&
    tx.chain_id === data.chain_id &&
    tx.value === '0' &&
    tx.to.toLowerCase() === data.token.address.toLowerCase() &&
    tx.from.toLowerCase() === data.from_address.toLowerCase() &&
    tx.data.toLowerCase() === transferData(data.refund_address, due)
  );
}

/** Whether transfers of another amount were recorded against the refund. */
const paidOtherwise = (data: RefundPayment) => toUnits(data.paid_amount, data.token.decimal_count) > 0n;

type Phase = 'connect' | 'connecting' | 'review' | 'wallet' | 'submitted' | 'qr';

/**
 * The merchant's refund payment: details, the receiving wallet's transfer or a QR code, and the state after.
 *
 * @csspart base - The card around everything.
 * @csspart header - The title.
 * @csspart details - Amount, network, reason, the customer's address and the receiving wallet.
 * @csspart wallet-list - The browser's wallets.
 * @csspart wallet-button - One wallet's pay button.
 * @csspart other-device - "Pay from another device": the QR code of the payment request.
 * @csspart payment-request - The QR code, exact amount, address and copyable EIP-681 request.
 * @csspart pay-button - The button that sends the refund.
 * @csspart message - The status text.
 * @csspart transaction - The transaction that paid the refund.
 * @csspart error - An error with its retry button.
 */
export class RefundPayPage extends RefundPage<RefundPayment> {
  @state() private phase: Phase = 'connect';
  @state() private payer = '';
  @state() private sentHash = '';
  private flow: WalletFlow | undefined;
  private plan: PaymentPlan | undefined;
  private walletModule: WalletModule | undefined;
  private requestModule: typeof PaymentRequestModule | undefined;
  private requestPanel: { key: string; node: HTMLElement } | undefined;

  protected read(api: RefundApi): Promise<RefundPayment> {
    return api.payment(this.token);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Without storage (privacy settings) a reload shows the refund as the service has it.
    this.sentHash = readStored(sentKey(this.token));
    if (this.sentHash) this.phase = 'submitted';
  }

  /** The refund's payment as the element's wallet flow pays a checkout: the customer is the receiver. */
  private target(data: RefundPayment): PaymentTarget {
    return {
      ...this.chainTarget(data),
      token: { ...data.token, chain_id: data.chain_id },
      payment_tokens: [],
      swappable: false,
      router_address: null,
      receiving_address: data.refund_address ?? '',
    };
  }

  private async choose(wallet: DiscoveredWallet, data: RefundPayment): Promise<void> {
    if (this.phase === 'connecting' || this.phase === 'wallet' || !this.checkRequest(data)) return;
    this.phase = 'connecting';
    try {
      this.walletModule ??= await this.loadWallet();
      this.flow = await this.walletModule.startWalletFlow({ view: this.target(data), wallet });
      this.payer = this.flow.address;
      if (this.payer.toLowerCase() !== data.from_address.toLowerCase()) {
        this.phase = 'connect';
        this.refuse(wallet, this.payer, data.from_address);
        return;
      }
      const options = await this.flow.options(data.amount_due);
      this.plan = options.find((o) => o.kind === 'direct' && o.covers);
      if (!this.plan) throw new Error('no direct transfer covers the refund');
      this.phase = 'review';
      this.focusSoon('[part="pay-button"]');
    } catch (error) {
      this.phase = 'connect';
      await this.showWalletError(error, data, () => void this.choose(wallet, data));
    }
  }

  private async pay(data: RefundPayment): Promise<void> {
    const { flow, plan } = this;
    if (!flow || !plan || this.phase !== 'review' || !this.checkRequest(data)) return;
    this.failure = undefined;
    this.phase = 'wallet';
    try {
      // The request's transaction itself, which `requestMatches` found to be exactly this refund.
      const order = {
        expected_token_amount: data.amount_due,
        transaction: data.payment_request?.transaction ?? null,
      };
      const hash = await flow.pay(plan, order, () => {});
      this.sentHash = hash;
      store(sentKey(this.token), hash);
      this.phase = 'submitted';
      void this.refresh();
    } catch (error) {
      this.phase = 'review';
      await this.showWalletError(error, data, () => void this.pay(data));
    }
  }

  /**
   * Says that the connected wallet is not the receiving one, until the merchant picks a wallet again or this
   * one reports another account (`accountsChanged`): the page's refresh never takes it away.
   */
  private refuse(wallet: DiscoveredWallet, payer: string, from: string): void {
    const failure: PageFailure = { message: (t) => t.wrongWallet(payer, from), kept: true };
    this.failure = failure;
    const provider = wallet.provider;
    const changed = () => {
      provider.removeListener?.('accountsChanged', changed);
      if (this.failure === failure) this.failure = undefined;
    };
    provider.on?.('accountsChanged', changed);
  }

  /** A wallet's failure in the element's own words (its texts fetched for it), with its retry. */
  private async showWalletError(error: unknown, data: RefundPayment, retry: () => void): Promise<void> {
    const kind = this.walletModule?.classifyWalletError(error) ?? 'unknown';
    const holdings = (error as { holdings?: Holding[] } | undefined)?.holdings ?? [];
    let text: string | undefined;
    try {
      const [messages, { withPaymentTexts }] = await Promise.all([
        loadMessages(this.language),
        import('../i18n/payment.ts'),
      ]);
      const lang = withPaymentTexts({ locale: this.locale, messages });
      text = describeWalletError(kind, this.target(data), data.amount_due, holdings, lang);
    } catch {
      // The element's texts could not be fetched: the page's own words.
    }
    this.failure = { message: (t) => text ?? t.unavailable, retry };
    this.focusSoon('[part="error"] button');
  }

  /** Clears the last failure, or says the payment request is not exactly this refund (nothing is then paid). */
  private checkRequest(data: RefundPayment): boolean {
    this.failure = requestMatches(data) ? undefined : { message: (t) => t.requestMismatch };
    return !this.failure;
  }

  private async payElsewhere(data: RefundPayment): Promise<void> {
    if (!this.checkRequest(data)) return;
    try {
      this.requestModule ??= await loadPaymentRequestModule();
      this.phase = 'qr';
      this.focusSoon('[part="payment-request"] button');
    } catch (error) {
      this.failure = this.apiFailure(error, () => void this.payElsewhere(data));
    }
  }

  private readonly useAnotherWallet = (): void => {
    this.flow = undefined;
    this.plan = undefined;
    this.failure = undefined;
    this.phase = 'connect';
    this.focusSoon('[part="wallet-button"]');
  };

  override render(): TemplateResult {
    return this.frame(
      (t, data) => t.payTitle(this.amountText(data)),
      (t, data) => html`<p>${t.payFrom(this.shopName(data) || t.merchant)}</p>
      ${this.details([
        [t.order, this.orderText(t, data, data.order?.resolved_payment_id ?? '')],
        [t.amount, this.amountText(data)],
        [t.paidSoFar, paidOtherwise(data) ? this.tokenText(data, data.paid_amount) : null],
        [t.stillDue, paidOtherwise(data) && data.status === 'ready_to_pay' ? this.dueText(data) : null],
        [t.overpaid, data.overpaid_amount === null ? null : this.tokenText(data, data.overpaid_amount)],
        [t.network, this.chainName(data)],
        [t.reason, data.reason],
        [t.to, this.address(data.refund_address)],
        [t.from, this.address(data.from_address)],
      ])}
      ${this.renderState(t, data)}`,
    );
  }

  private renderState(t: RefundMessages, data: RefundPayment): TemplateResult | HTMLElement | typeof nothing {
    switch (data.status) {
      case 'awaiting_address':
        return this.message(t.payAwaiting);
      case 'ready_to_pay':
        if (this.phase === 'submitted')
          return html`${this.message(t.submitted)}${this.transaction(data, this.sentHash)}`;
        return html`${
          paidOtherwise(data)
            ? this.message(t.partPaid(this.tokenText(data, data.paid_amount), this.dueText(data)))
            : nothing
        }${this.partPayments(data)}${this.renderAction(t, data)}`;
      case 'sent':
        return html`${this.message(t.paySent)}${this.overpaidNote(t, data)}${this.transaction(data, data.tx_hash)}${this.partPayments(data)}`;
      case 'confirmed':
        return html`${this.message(t.payConfirmed, 'success')}${this.overpaidNote(t, data)}${this.transaction(data, data.tx_hash)}${this.partPayments(data)}`;
      case 'expired':
        return this.message(t.payExpired, 'failure');
      default:
        return this.canceled(t, data, null);
    }
  }

  /** An amount of the refund's token in the visitor's words. */
  private tokenText(data: RefundPayment, amount: string): string {
    return formatToken(amount, data.token.symbol, this.locale);
  }

  /** What is still to send. */
  private dueText(data: RefundPayment): string {
    return this.tokenText(data, data.amount_due);
  }

  /** Says how much more than the refund the wallet sent, when it did. */
  private overpaidNote(t: RefundMessages, data: RefundPayment): TemplateResult | typeof nothing {
    return data.overpaid_amount === null
      ? nothing
      : this.message(t.overpaidNote(this.tokenText(data, data.overpaid_amount)));
  }

  private renderAction(
    t: RefundMessages,
    data: RefundPayment,
  ): TemplateResult | HTMLElement | typeof nothing {
    const busy = this.phase === 'connecting' || this.phase === 'wallet';
    const wallets = this.wallets.available;
    const walletList = renderWallets(
      wallets,
      busy,
      (name) => t.payWith(name || t.browserWallet),
      (w) => void this.choose(w, data),
    );
    switch (this.phase) {
      case 'connecting':
        return this.message(t.connecting);
      case 'review':
      case 'wallet':
        return html`<p>${t.review(this.dueText(data))}</p>
          <div class="actions">
            <button part="pay-button" type="button" ?disabled=${busy} @click=${() => void this.pay(data)}>${t.send}</button>
            <button type="button" ?disabled=${busy} @click=${this.useAnotherWallet}>${t.changeWallet}</button>
          </div>
          ${this.phase === 'wallet' ? this.message(t.waitingWallet) : nothing}`;
      case 'qr':
        return html`${this.renderRequest(data)}${walletList}`;
      default:
        return html`${wallets.length ? walletList : html`<p part="message">${t.noWallet}</p>`}
          <button part="other-device" type="button" @click=${() => void this.payElsewhere(data)}>${t.otherDevice}</button>`;
    }
  }

  /** The element's payment request panel for the refund's EIP-681 URI, made once per URI and language. */
  private renderRequest(data: RefundPayment): HTMLElement | typeof nothing {
    const module = this.requestModule;
    const uri = data.payment_request?.uri;
    if (!module || !uri) return nothing;
    const key = `${this.locale} ${uri}`;
    if (this.requestPanel?.key !== key)
      this.requestPanel = {
        key,
        node: module.paymentRequestPanel({
          uri,
          amount: this.dueText(data),
          receivingAddress: data.refund_address ?? '',
          chainName: this.chainName(data),
          locale: this.locale,
          refund: true,
        }),
      };
    return this.requestPanel.node;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'refund-pay': RefundPayPage;
  }
}

if (!customElements.get('refund-pay')) customElements.define('refund-pay', RefundPayPage);
