/**
 * The payment of a `<crypto-checkout>` once it starts — a wallet picked, "Pay from another device", or a
 * session found when the page opens: the wallet's review and signature, the payment request and what the
 * payment shows, over its session (`SessionController`, `session.ts`: the attempt, its events, the
 * countdown, the outcome and its redirect). Its own
 * lazy file (`payment` in `widget-manifest.json`), fetched together with the wallet or QR module or with the
 * session found; like every lazy file it imports no Lit of its own (`takeTemplateTags`).
 */
import type { TemplateResult } from 'lit';
import { formatToken } from '../amount.ts';
import type { CheckoutSession, CheckoutView } from '../api.ts';
import { chainName } from '../chains.ts';
import type { DiscoveredWallet } from '../controllers/wallet-discovery.ts';
import { type PaymentLocalized, withPaymentTexts } from '../i18n/payment.ts';
import type { Localized } from '../i18n.ts';
import type { PaymentRequestModule } from '../lazy-modules.ts';
import type { Holding, PaymentPlan, WalletErrorKind, WalletFlow, WalletModule } from '../wallet/types.ts';
import { describeApiError, describeWalletError } from './describe-error.ts';
import type { Failure } from './render-failure.ts';
import { renderOutcome } from './render-outcome.ts';
import { renderReview } from './render-review.ts';
import { type CheckoutContext, type PaymentHost, SessionController } from './session.ts';
import { type CheckoutPhase, hashKey, isFinal, readStored, store } from './state.ts';
import { html, nothing, takeTemplateTags as takeShellTags } from './template-tags.ts';

/**
 * The wording of a service error, for the shell's load errors (the shell reaches it once this module loaded).
 * @public
 */
export const describeLoadError = (error: unknown, localized: Localized): string | undefined =>
  describeApiError(error, withPaymentTexts(localized).messages);
/**
 * Hands this module the shell's Lit template tags before it renders (it imports no Lit of its own).
 * @public
 */
export const takeTemplateTags = takeShellTags;

/** The payment of one checkout; the element renders its state and hands it the shopper's actions. */
export class CheckoutPayment {
  busy = false;
  /** The session, its countdown, events, outcome and focus. */
  private readonly state: SessionController;
  /** The outcome of the last copy of the transaction hash. */
  private copied: 'copied' | 'failed' | undefined;
  /** The ways the wallet can pay (one per stablecoin it holds) and the one chosen. */
  private options: PaymentPlan[] = [];
  private plan: PaymentPlan | undefined;
  private payer = '';
  private walletStep: 'approve' | 'pay' = 'pay';
  private flow: WalletFlow | undefined;
  private walletModule: WalletModule | undefined;
  private requestModule: typeof PaymentRequestModule | undefined;
  /** The payment request panel the QR module made for one URI and language. */
  private requestPanel: { key: string; node: HTMLElement } | undefined;
  private readonly host: PaymentHost;
  private readonly checkout: CheckoutContext;

  constructor(host: PaymentHost, checkout: CheckoutContext) {
    this.host = host;
    this.checkout = checkout;
    this.state = new SessionController(host, checkout);
  }

  /** Where the payment is; undefined until it starts (the element's own phase applies). */
  get phase(): CheckoutPhase | undefined {
    return this.state.phase;
  }

  /** The session as the service last told it. */
  get session(): CheckoutSession | undefined {
    return this.state.session;
  }

  get failure(): Failure | undefined {
    return this.state.failure;
  }

  /** Milliseconds left to pay, or null without a deadline. */
  get remainingMs(): number | null {
    return this.state.remainingMs;
  }

  /** Whether the session can take no payment from this page any more (expired or closed). */
  get isExpired(): boolean {
    return this.state.isExpired;
  }

  /** Whether the session's request is withdrawn after transfers of another amount (`SessionController`). */
  get withdrawn(): boolean {
    return this.state.withdrawn;
  }

  /** Renders the element again. */
  private changed(): void {
    this.host.requestUpdate();
  }

  /** Whether the session is paid from another device (its progress has no wallet steps). */
  get viaRequest(): boolean {
    return !!this.state.session?.payment_uri && !this.flow && !this.state.sentHash;
  }

  /** A wallet picked: connects it, opens (or updates) the session for its account, and reviews the payment. */
  async choose(wallet: DiscoveredWallet): Promise<void> {
    const s = this.state;
    const view = this.checkout.view();
    const locale = this.checkout.locale();
    s.engaged = true;
    if (!view || this.busy || !this.checkout.form.validate(view, locale)) return;
    // A session keeps its exact amount (a payment request's too), whichever way it is paid.
    const amount = s.session?.expected_token_amount ?? this.checkout.price();
    const dollars = this.checkout.dollars();
    if (!amount || !dollars) return;
    this.busy = true;
    s.failure = undefined;
    s.phase = 'connecting';
    this.changed();
    try {
      this.walletModule ??= await this.checkout.loadWallet();
      this.flow = await this.walletModule.startWalletFlow({
        view,
        wallet,
        config: this.host.wagmiConfig,
      });
      this.payer = this.flow.address;
      // Another wallet than the attempt's payer: the open amount's attempt is given up for a new one.
      const sender = s.session?.sender_address;
      if (sender && sender.toLowerCase() !== this.payer.toLowerCase() && !view.expected_payment)
        s.forgetAttempt();
      // The ways to pay, at least one of which covers the amount (else `options` fails).
      let options = await this.flow.options(amount);
      const token = options.find((o) => o.covers)!.payToken.address;
      const session = await s.open(view, dollars, token, this.flow.address);
      // The session holds another exact amount (the price plus a few millionths): the ways to pay are for it.
      if (session.expected_token_amount !== amount)
        options = await this.flow.options(session.expected_token_amount);
      this.options = options;
      this.plan = options.find((o) => o.covers);
      s.phase = 'review';
      s.focusNext ??= '[part="pay-button"]';
      s.apply(session);
    } catch (error) {
      s.phase = 'connect';
      if (!s.settledElsewhere(error)) this.showError(error, () => void this.choose(wallet));
    } finally {
      this.busy = false;
      this.changed();
    }
  }

  /** Pay from another device: a session without a payer, shown as a QR code and payment request. */
  async payElsewhere(): Promise<void> {
    const s = this.state;
    const view = this.checkout.view();
    s.engaged = true;
    const dollars = this.checkout.dollars();
    if (!view || !dollars || this.busy || !this.checkout.form.validate(view, this.checkout.locale())) return;
    this.busy = true;
    s.failure = undefined;
    this.changed();
    try {
      const session = await s.open(view, dollars, view.token.address);
      await this.showRequest(session);
      s.apply(session);
      s.focusNext = '[part="payment-request"] button';
    } catch (error) {
      if (!s.settledElsewhere(error)) this.showError(error, () => void this.payElsewhere());
    } finally {
      this.busy = false;
      this.changed();
    }
  }

  /** Loads the QR module and shows the session's payment request, following the session for its payment. */
  private async showRequest(session: CheckoutSession): Promise<void> {
    this.requestModule ??= await this.checkout.loadRequest();
    this.state.phase = 'qr';
    this.state.follow(session);
  }

  /** The shopper picked another stablecoin to pay with. */
  private readonly choosePlan = (plan: PaymentPlan): void => {
    if (this.busy || !plan.covers) return;
    this.plan = plan;
    this.state.failure = undefined;
    this.changed();
  };

  private async pay(): Promise<void> {
    const { flow, plan, state: s } = this;
    const session = s.session;
    const view = this.checkout.view();
    if (!flow || !plan || !session || !view || this.busy || s.isExpired || s.withdrawn) return;
    const api = this.checkout.api();
    this.busy = true;
    s.failure = undefined;
    this.changed();
    try {
      let hash = s.sentHash || readStored(hashKey(session.id));
      if (!hash) {
        // Read again right before the wallet is asked: paid in another tab, closed or expired, nothing is signed.
        const now = await api.session(session.id);
        if (now.status !== 'awaiting_payment' || now.tx_hash) {
          s.apply(now);
          return;
        }
        // Another token than the session was opened with: the service learns it before the transfer.
        const reopened = await s.attempt.payWith(api, view.slug, plan.payToken.address, session.id);
        if (reopened) s.apply(reopened);
        s.phase = 'wallet';
        this.changed();
        // The session as the service has it now: its exact amount, transaction and reference are paid.
        hash = await flow.pay(plan, reopened ?? now, (step) => {
          this.walletStep = step;
          this.changed();
        });
        // Kept before submitting: a failed submission is retried with this hash, never by paying again.
        store(hashKey(session.id), hash);
      }
      s.sentHash = hash;
      s.txHash = hash;
      s.phase = 'submitted';
      this.changed();
      await s.submit(hash);
    } catch (error) {
      if (!s.txHash) s.phase = 'review';
      this.showError(error, () => void this.pay());
    } finally {
      this.busy = false;
      this.changed();
    }
  }

  /**
   * A session found when the page opens: an open amount's attempt of this tab (`own`) is continued, a
   * payment request still awaited is shown again (same amount), and the session is shown as it is — an
   * outcome the shopper `returns` to (Back after the redirect) without being told again.
   */
  async resume(session: CheckoutSession, own: boolean, returns: boolean): Promise<void> {
    if (own) this.state.continueOwn(session);
    if (session.payment_uri && session.status === 'awaiting_payment' && !session.tx_hash)
      await this.showRequest(session);
    this.state.apply(session, returns);
  }

  /** Into the back-forward cache: the session's connection is closed. */
  pause(): void {
    this.state.pause();
  }

  /** Back from the back-forward cache: the session is read again (`SessionController.restored`). */
  restored(): void {
    this.state.restored();
  }

  /** The checkout is loaded again (another product, or a session this page did not know): nothing is kept. */
  reset(): void {
    this.state.reset();
  }

  /** The shopper changed the amount: an error about the old one goes, and so does its attempt. */
  amountChanged(dollars: string | null): void {
    this.state.failure = undefined;
    if (!this.state.attempt.isFor(dollars)) this.state.forgetAttempt();
    this.changed();
  }

  /** After an expiry of an open amount: a new attempt, with what the shopper typed kept. */
  private readonly startAgain = (): void => {
    this.state.startAgain();
    this.copied = undefined;
    this.backToWallets('#amount');
  };

  private showError(error: unknown, retry: () => void): void {
    // What the message needs is taken now; its words are chosen when it is shown.
    const kind: WalletErrorKind = this.walletModule?.classifyWalletError(error) ?? 'unknown';
    const view = this.checkout.view();
    const amount = this.state.session?.expected_token_amount ?? this.checkout.price();
    const holdings = (error as { holdings?: Holding[] } | undefined)?.holdings ?? [];
    this.state.failure = {
      message: (shown) => {
        const lang = withPaymentTexts(shown);
        return (
          describeApiError(error, lang.messages) ?? describeWalletError(kind, view, amount, holdings, lang)
        );
      },
      retry,
    };
    // The control the shopper used may be gone or disabled: focus goes to the way on.
    this.state.focusNext = '[part="error"] button';
  }

  private readonly useAnotherWallet = (): void => {
    if (!this.busy) this.backToWallets('[part="wallet-button"]');
  };

  /** Back to the form and the wallet list, without the wallet's payment; `focus` is the control to go on with. */
  private backToWallets(focus: string): void {
    this.flow = undefined;
    this.options = [];
    this.plan = undefined;
    this.state.failure = undefined;
    this.state.phase = 'connect';
    this.state.focusNext = focus;
    this.changed();
  }

  private async copyHash(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.state.txHash);
      this.copied = 'copied';
    } catch {
      this.copied = 'failed';
    }
    this.changed();
  }

  /** The transaction this tab sent, when the session was settled without it (paid by another, or closed). */
  private get unusedHash(): string {
    const { sentHash, session } = this.state;
    const settled = session?.status === 'resolved' || session?.status === 'failed';
    return session?.status === 'closed' ||
      (settled && session.tx_hash?.toLowerCase() !== sentHash.toLowerCase())
      ? sentHash
      : '';
  }

  /**
   * What the payment shows in `phase`: the review of a wallet's payment, or its progress and outcome; while
   * the request is withdrawn, only what arrived and what happens next.
   */
  render(phase: CheckoutPhase, shown: Localized): TemplateResult | HTMLElement | typeof nothing {
    const view = this.checkout.view();
    const localized = withPaymentTexts(shown);
    const t = localized.messages;
    if (!view) return nothing;
    if (this.withdrawn && phase !== 'wallet' && !isFinal(phase)) return this.renderWithdrawn(localized);
    // Expired after a transfer of another amount: the merchant settles what arrived, nothing is asked anew.
    if (this.withdrawn && phase === 'expired')
      return html`<p part="message" class="failure">${t.expired}</p>${this.renderWithdrawn(localized)}`;
    switch (phase) {
      case 'qr':
        return this.renderRequest(view, localized);
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
            asking: phase === 'wallet' ? this.walletStep : null,
            busy: this.busy,
            expired: this.isExpired,
          },
          localized,
          { plan: this.choosePlan, pay: () => void this.pay(), anotherWallet: this.useAnotherWallet },
        );
      }
      default:
        return renderOutcome(
          phase,
          view,
          this.session,
          {
            hash: this.state.txHash,
            unused: this.unusedHash,
            copied: this.copied,
            copy: () => void this.copyHash(),
          },
          {
            receiptTo: this.state.attempt.body?.email,
            canStartAgain: this.state.canStartAgain,
            startAgain: this.startAgain,
            redirect: this.state.outcome.pending,
          },
          t,
        );
    }
  }

  /** The amount asked, written as the header and the payment request write it (at least 2 decimals). */
  private asked(value: string, { locale }: PaymentLocalized): string {
    return formatToken(value, this.checkout.view()?.token.symbol ?? '', locale, 'up', 2);
  }

  /**
   * Transfers of another amount paid nothing by themselves, and the merchant has been told: the request
   * is gone, and the page says what arrived and that the merchant will confirm the order or refund it.
   */
  private renderWithdrawn(localized: PaymentLocalized): TemplateResult {
    const session = this.session!;
    const t = localized.messages;
    const expected = this.asked(session.expected_token_amount, localized);
    const received = session.unmatched_transfers.map((u) =>
      t.receivedOther(formatToken(u.amount, u.token_symbol, localized.locale, 'down', 2), expected),
    );
    return html`<div class="ended withdrawn" role="alert" tabindex="-1">
      <p part="message" class="failure">${received.join(' ')}</p>
      <p><strong>${t.doNotResend}</strong></p>
    </div>`;
  }

  /** The session's payment request (QR code), made by the lazy module once per URI and language. */
  private renderRequest(view: CheckoutView, localized: PaymentLocalized): HTMLElement | typeof nothing {
    const session = this.session;
    const module = this.requestModule;
    if (!session?.payment_uri || !module) return nothing;
    const { locale } = localized;
    const key = `${locale} ${session.payment_uri}`;
    if (this.requestPanel?.key !== key) {
      const node = module.paymentRequestPanel({
        uri: session.payment_uri,
        amount: this.asked(session.expected_token_amount, localized),
        // A session's own deposit address, when it has one, is where the phone pays.
        receivingAddress: session.deposit_address ?? session.receiving_address,
        ...(session.deposit_address ? { deposit: true } : {}),
        chainName: chainName(view),
        locale,
      });
      this.requestPanel = { key, node };
    }
    return this.requestPanel.node;
  }
}
