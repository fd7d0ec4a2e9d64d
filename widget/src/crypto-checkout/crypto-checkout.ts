/** The `<crypto-checkout>` element: a product's stablecoin checkout, from the form to the confirmed payment. */
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { formatToken } from '../amount.ts';
import { CheckoutApiError, type CheckoutSession, type CheckoutView } from '../api.ts';
import { chainName } from '../chains.ts';
import type { DiscoveredWallet } from '../controllers/wallet-discovery.ts';
import { type Localized, loadingTexts } from '../i18n.ts';
import { loadWalletModule } from '../lazy-modules.ts';
import type { Holding, PaymentPlan, WalletErrorKind, WalletFlow, WalletModule } from '../wallet/types.ts';
import { CheckoutState } from './checkout-state.ts';
import { styles } from './crypto-checkout.styles.ts';
import { describeApiError, describeWalletError } from './describe-error.ts';
import { renderFailure, renderOutcome, renderUnavailable } from './render-outcome.ts';
import { renderReview, renderWallets } from './render-payment.ts';
import { renderAmount, renderProgress, renderTimer } from './render-summary.ts';
import {
  type CheckoutFailureDetail,
  type CheckoutPhase,
  type CheckoutSuccessDetail,
  hashKey,
  isFinal,
  isUnavailable,
  readStored,
  store,
} from './state.ts';

export type { CheckoutFailureDetail, CheckoutPhase, CheckoutSuccessDetail };

/** The service's answers that a checkout was settled elsewhere: paid, closed or expired. */
const settledCodes = new Set(['checkout_already_paid', 'checkout_closed', 'checkout_expired']);

/**
 * A stablecoin checkout for one product: amount, tax, e-mail and custom fields, the shopper's wallets,
 * direct or swapped payment, a countdown, and live progress until the payment is confirmed.
 *
 * @event checkout-success - The payment resolved; detail `{ resolvedPaymentId, txHash, sessionId }`. Cancel it to stay on the page instead of going to `success_url`.
 * @event checkout-failure - The payment failed or the checkout expired; detail `{ reason, sessionId, error, txHash, resolvedPaymentId }`. Cancel it to stay on the page instead of going to `failure_url`.
 *
 * @csspart base - The card around everything.
 * @csspart header - Product name and test badge.
 * @csspart amount - Price in USD and in the token.
 * @csspart form - Amount, e-mail and custom fields.
 * @csspart field - One label, input and error.
 * @csspart input - Every text input.
 * @csspart wallet-list - The list of wallets.
 * @csspart wallet-button - One wallet's pay button.
 * @csspart other-device - "Pay from another device": a QR code and payment request instead of a wallet here.
 * @csspart payment-request - The QR code, exact amount, address and copyable EIP-681 request.
 * @csspart token-choice - The stablecoins of the wallet to pay with, each with its balance and quote.
 * @csspart pay-button - The final pay button (and "Start again" after an expiry).
 * @csspart timer - The countdown to expiry.
 * @csspart progress - The list of steps.
 * @csspart message - The status and result text.
 * @csspart error - An error with its retry button.
 * @csspart transaction - The transaction hash, its copy button and explorer link.
 * @csspart link - "Back to the shop" (the merchant's failure_url) after an expired expected payment.
 *
 * @cssproperty --cc-font - Font family.
 * @cssproperty --cc-radius - Corner radius of the card; controls use 60 % of it.
 * @cssproperty --cc-background - Card and input background.
 * @cssproperty --cc-foreground - Text colour.
 * @cssproperty --cc-muted - Secondary text colour.
 * @cssproperty --cc-border - Borders.
 * @cssproperty --cc-accent - Pay button background.
 * @cssproperty --cc-accent-foreground - Pay button text.
 * @cssproperty --cc-error - Errors and failure.
 * @cssproperty --cc-success - Success.
 * @cssproperty --cc-focus - Focus ring.
 */
export class CryptoCheckout extends CheckoutState {
  static override styles = styles;

  /** The ways the wallet can pay (one per stablecoin it holds) and the one chosen. */
  @state() private options: PaymentPlan[] = [];
  @state() private plan: PaymentPlan | undefined;
  @state() private payer = '';
  @state() private walletStep: 'approve' | 'pay' = 'pay';

  private flow: WalletFlow | undefined;
  private walletModule: WalletModule | undefined;
  /** The payment request panel the QR module made for one URI and language. */
  private requestPanel: { key: string; node: HTMLElement } | undefined;

  /** The wallet module; loaded on first use so the first paint needs no chain code. */
  protected loadWallet(): Promise<WalletModule> {
    return loadWalletModule();
  }

  /** The shopper changed the amount: an error about the old one goes, and so does its attempt. */
  private readonly amountChanged = (): void => {
    this.failure = undefined;
    if (!this.attempt.isFor(this.dollarAmount)) this.forgetAttempt();
  };

  private async choose(wallet: DiscoveredWallet): Promise<void> {
    const view = this.view;
    this.engaged = true;
    if (!view || this.busy || !this.form.validate(view, this.locale)) return;
    // A session with a payment request keeps its exact amount, whichever way it is paid.
    const amount = this.session?.payment_uri ? this.session.expected_token_amount : this.tokenAmount;
    const dollars = this.dollarAmount;
    if (!amount || !dollars) return;
    this.busy = true;
    this.failure = undefined;
    this.phase = 'connecting';
    try {
      this.walletModule ??= await this.loadWallet();
      this.flow = await this.walletModule.startWalletFlow({ view, wallet, config: this.wagmiConfig });
      this.payer = this.flow.address;
      // Another wallet than the attempt's payer: the open amount's attempt is given up for a new one.
      const sender = this.session?.sender_address;
      if (sender && sender.toLowerCase() !== this.payer.toLowerCase() && !view.expected_payment)
        this.forgetAttempt();
      const options = await this.flow.options(amount);
      const plan = options.find((o) => o.covers);
      if (!plan) throw new Error('no way to pay');
      const session = await this.openSession(view, dollars, plan.payToken.address, this.flow.address);
      this.options = options;
      this.plan = plan;
      this.phase = 'review';
      this.applySession(session);
    } catch (error) {
      this.phase = 'connect';
      if (!this.settledElsewhere(error)) this.showError(error, () => void this.choose(wallet));
    } finally {
      this.busy = false;
    }
  }

  /** Opens (or updates) the session with the form's details, for `sender` or for paying from another device. */
  private async openSession(
    view: CheckoutView,
    dollars: string,
    token: string,
    sender?: string,
  ): Promise<CheckoutSession> {
    const details = { ...this.form.values(view), locale: this.locale };
    const session = await this.attempt.open(this.api, view, dollars, details, token, sender);
    this.keepAttempt(session);
    return session;
  }

  /**
   * Whether the service refused because the checkout was settled elsewhere (paid in another tab, closed,
   * expired): then the page shows what it is, instead of an error — the session it knows, read again, or
   * (knowing none) the whole checkout loaded again.
   */
  private settledElsewhere(error: unknown): boolean {
    if (!(error instanceof CheckoutApiError) || !settledCodes.has(error.code)) return false;
    const session = this.session;
    if (!session) void this.load();
    else
      this.api.session(session.id).then(
        (now) => this.applySession(now),
        () => void this.load(),
      );
    return true;
  }

  /** Pay from another device: a session without a payer, shown as a QR code and payment request. */
  private async payElsewhere(): Promise<void> {
    const view = this.view;
    this.engaged = true;
    const dollars = this.dollarAmount;
    if (!view || !dollars || this.busy || !this.form.validate(view, this.locale)) return;
    this.busy = true;
    this.failure = undefined;
    try {
      const session = await this.openSession(view, dollars, view.token.address);
      await this.showRequest(session);
      this.applySession(session);
      this.focusNext = '[part="payment-request"] button';
    } catch (error) {
      if (!this.settledElsewhere(error)) this.showError(error, () => void this.payElsewhere());
    } finally {
      this.busy = false;
    }
  }

  /** The shopper picked another stablecoin to pay with. */
  private readonly choosePlan = (plan: PaymentPlan): void => {
    if (this.busy || !plan.covers) return;
    this.plan = plan;
    this.failure = undefined;
  };

  private async pay(): Promise<void> {
    const { flow, plan, session, view } = this;
    if (!flow || !plan || !session || !view || this.busy || this.isExpired) return;
    this.busy = true;
    this.failure = undefined;
    try {
      let hash = this.sentHash || readStored(hashKey(session.id));
      if (!hash) {
        // Read again right before the wallet is asked: paid in another tab, closed or expired, nothing is signed.
        const now = await this.api.session(session.id);
        if (now.status !== 'awaiting_payment' || now.tx_hash) {
          this.applySession(now);
          return;
        }
        // Another token than the session was opened with: the service learns it before the transfer.
        const reopened = await this.attempt.payWith(this.api, view.slug, plan.payToken.address);
        if (reopened) this.applySession(reopened);
        this.phase = 'wallet';
        hash = await flow.pay(plan, (step) => {
          this.walletStep = step;
        });
        // Kept before submitting: a failed submission is retried with this hash, never by paying again.
        store(hashKey(session.id), hash);
      }
      this.sentHash = hash;
      this.txHash = hash;
      this.phase = 'submitted';
      await this.submit(hash);
    } catch (error) {
      if (!this.txHash) this.phase = 'review';
      this.showError(error, () => void this.pay());
    } finally {
      this.busy = false;
    }
  }

  /**
   * Hands the hash to the service. When the service does not take it — the session was already paid,
   * closed or expired, or it failed (5xx) — the page reads the session and shows what it is; only a
   * session still waiting for this hash leaves an error to retry.
   */
  private async submit(hash: string): Promise<void> {
    const session = this.session;
    if (!session) return;
    try {
      this.applySession(await this.api.submitTransaction(session.id, hash));
    } catch (error) {
      const taken = error instanceof CheckoutApiError && error.code === 'tx_already_submitted';
      const settled =
        error instanceof CheckoutApiError && (settledCodes.has(error.code) || error.status >= 500);
      if (!taken && !settled) throw error;
      const now = await this.api.session(session.id);
      this.applySession(now);
      if (!taken && !isFinal(this.phase) && now.tx_hash !== hash) throw error;
    }
  }

  /** After an expiry of an open amount: a new attempt, with what the shopper typed kept. */
  private readonly startAgain = (): void => {
    this.forgetAttempt();
    this.txHash = '';
    this.sentHash = '';
    this.copied = undefined;
    this.outcome.reset();
    this.backToWallets('#amount');
  };

  private showError(error: unknown, retry: () => void): void {
    // What the message needs is taken now; its words are chosen when it is shown.
    const kind: WalletErrorKind = this.walletModule?.classifyWalletError(error) ?? 'unknown';
    const view = this.view;
    const amount = this.tokenAmount;
    const holdings = (error as { holdings?: Holding[] } | undefined)?.holdings ?? [];
    this.failure = {
      message: (lang) =>
        describeApiError(error, lang.messages) ?? describeWalletError(kind, view, amount, holdings, lang),
      retry,
    };
    // The control the shopper used may be gone or disabled: focus goes to the way on.
    this.focusNext = '[part="error"] button';
  }

  private readonly useAnotherWallet = (): void => {
    if (!this.busy) this.backToWallets('[part="wallet-button"]');
  };

  /** Back to the form and the wallet list, without the wallet's payment; `focus` is the control to go on with. */
  private backToWallets(focus: string): void {
    this.flow = undefined;
    this.options = [];
    this.plan = undefined;
    this.failure = undefined;
    this.phase = 'connect';
    this.focusNext = focus;
  }

  private async copyHash(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.txHash);
      this.copied = 'copied';
    } catch {
      this.copied = 'failed';
    }
  }

  override render(): TemplateResult {
    const view = this.view;
    const localized = this.language.current;
    // Before the view and its language's texts: one small template for the first render.
    if (!localized || (!view && !this.failure)) {
      const lang = this.language.wanted;
      return html`<div part="base" lang=${lang.locale}><p part="message" role="status">${loadingTexts[lang.lang]}</p></div>`;
    }
    const { locale, messages: t } = localized;
    if (!view)
      return html`<div part="base" lang=${locale}>${renderFailure(this.failure, this.busy, localized)}</div>`;
    const locked = this.phase !== 'connect' || this.busy;
    return html`<section part="base" lang=${locale} aria-labelledby="title">
      <header part="header">
        <h2 id="title">${view.name}${view.is_test ? html`<span class="badge">${t.testMode}</span>` : nothing}</h2>
      </header>
      ${
        isUnavailable(this.phase)
          ? renderUnavailable(this.phase, view, t)
          : html`${renderAmount(view, this.dollarAmount, this.tokenAmount, localized)} ${renderProgress(this.phase, t)}
      ${renderTimer(this.countdownController?.remainingMs ?? null, this.phase, t)}
      ${
        isFinal(this.phase) || (!view.expected_payment && !view.open_amount)
          ? nothing
          : this.form.render(view, locked, localized, this.amountChanged)
      }
      ${this.renderAction(view, localized)} ${renderFailure(this.failure, this.busy, localized)}`
      }
    </section>`;
  }

  private renderAction(view: CheckoutView, localized: Localized): TemplateResult | typeof nothing {
    const t = localized.messages;
    const wallets = () =>
      renderWallets(
        this.wallets.available,
        this.busy || this.isExpired,
        (name) => t.payWith(name || t.browserWallet),
        (w) => void this.choose(w),
      );
    switch (this.phase) {
      case 'connect': {
        if (!view.expected_payment && !view.open_amount) return html`<p part="message">${t.noAmount}</p>`;
        const other = html`<button part="other-device" type="button" ?disabled=${this.busy || this.isExpired} @click=${() => void this.payElsewhere()}>
          ${t.otherDevice}
        </button>`;
        if (this.wallets.available.length === 0) return html`<p part="message">${t.noWallet}</p>${other}`;
        return html`${wallets()}${other}`;
      }
      case 'qr':
        return html`${this.renderRequest(view, localized)}${wallets()}`;
      case 'connecting':
        return html`<p part="message" role="status">${t.connecting}</p>`;
      case 'review':
      case 'wallet': {
        const plan = this.plan;
        if (!plan) return nothing;
        return renderReview(
          {
            view,
            plan,
            options: this.options,
            payer: this.payer,
            asking: this.phase === 'wallet' ? this.walletStep : null,
            busy: this.busy,
            expired: this.isExpired,
          },
          localized,
          { plan: this.choosePlan, pay: () => void this.pay(), anotherWallet: this.useAnotherWallet },
        );
      }
      default:
        return renderOutcome(
          this.phase,
          view,
          this.session,
          {
            hash: this.txHash,
            unused: this.unusedHash,
            copied: this.copied,
            copy: () => void this.copyHash(),
          },
          {
            receiptTo: this.attempt.body?.email,
            canStartAgain: this.canStartAgain,
            startAgain: this.startAgain,
            redirect: this.outcome.pending,
          },
          t,
        );
    }
  }

  /** The transaction this tab sent, when the session was settled without it (paid by another, or closed). */
  private get unusedHash(): string {
    const { sentHash, session } = this;
    const settled = session?.status === 'resolved' || session?.status === 'failed';
    return session?.status === 'closed' ||
      (settled && session.tx_hash?.toLowerCase() !== sentHash.toLowerCase())
      ? sentHash
      : '';
  }

  /** The session's payment request (QR code), made by the lazy module once per URI and language. */
  private renderRequest(view: CheckoutView, { locale }: Localized): HTMLElement | typeof nothing {
    const session = this.session;
    const module = this.requestModule;
    if (!session?.payment_uri || !module) return nothing;
    const key = `${locale} ${session.payment_uri}`;
    const amount = formatToken(session.expected_token_amount, view.token.symbol, locale);
    if (this.requestPanel?.key !== key) {
      const node = module.paymentRequestPanel({
        uri: session.payment_uri,
        amount,
        receivingAddress: session.receiving_address,
        chainName: chainName(view),
        locale,
      });
      this.requestPanel = { key, node };
    }
    // Transfers of another amount paid nothing: said at once, not left to the expiry.
    const received = session.unmatched_transfers.map((u) =>
      formatToken(u.amount, u.token_symbol, locale, 'down'),
    );
    module.showUnmatched(this.requestPanel.node, received, amount, locale);
    return this.requestPanel.node;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'crypto-checkout': CryptoCheckout;
  }
  interface HTMLElementEventMap {
    'checkout-success': CustomEvent<CheckoutSuccessDetail>;
    'checkout-failure': CustomEvent<CheckoutFailureDetail>;
  }
}

if (!customElements.get('crypto-checkout')) customElements.define('crypto-checkout', CryptoCheckout);
