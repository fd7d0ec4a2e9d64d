/**
 * The state of a checkout and how its session is shown: what the element is given, the view and the
 * session it loads and follows, the countdown, the outcome; the shopper's actions are the element's own.
 */
import type { Config } from '@wagmi/core';
import { LitElement, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { fromUnits, parseDollarAmount, toUnits } from '../amount.ts';
import { CheckoutApi, CheckoutApiError, type CheckoutSession, type CheckoutView } from '../api.ts';
import { CountdownController } from '../controllers/countdown.ts';
import { LanguageController } from '../controllers/language.ts';
import { OutcomeController } from '../controllers/outcome.ts';
import { SessionStreamController } from '../controllers/session-stream.ts';
import { WalletDiscoveryController } from '../controllers/wallet-discovery.ts';
import { loadPaymentRequestModule, type PaymentRequestModule } from '../lazy-modules.ts';
import { PaymentAttempt } from './attempt.ts';
import { describeApiError } from './describe-error.ts';
import { CheckoutForm, typesAmount } from './form.ts';
import type { Failure } from './render-outcome.ts';
import { type CheckoutPhase, focusElsewhere, isFinal } from './state.ts';

/** The element's properties and state, its view and session; `CryptoCheckout` adds the shopper's actions. */
export abstract class CheckoutState extends LitElement {
  /** The product's checkout slug. */
  @property({ reflect: true }) slug = '';

  /** The merchant's expected payment id, which fixes the amount. */
  @property({ attribute: 'expected-payment' }) expectedPayment = '';

  /** Origin of the checkout service; the page's origin when empty. */
  @property({ attribute: 'api-base' }) apiBase = '';

  /** Colour scheme: follow the system, or force light or dark. */
  @property({ reflect: true, useDefault: true }) theme: 'auto' | 'light' | 'dark' = 'auto';

  /** A dapp's wagmi config to share (the React wrapper sets it); used when it includes the product's chain. */
  @property({ attribute: false }) wagmiConfig: Config | undefined;

  /** The shopper's e-mail, pre-filled in the form (the hosted page sets the expected payment's). */
  @property() email = '';

  /**
   * Seconds the outcome (paid, failed, expired) stays on screen, saying where the shopper is going, before
   * `success_url` or `failure_url` is opened; 0 opens it at once.
   */
  @property({ attribute: 'redirect-delay', type: Number }) redirectDelay = 3;

  @state() protected phase: CheckoutPhase = 'loading';
  @state() protected view: CheckoutView | undefined;
  @state() protected session: CheckoutSession | undefined;
  @state() protected failure: Failure | undefined;
  @state() protected busy = false;
  @state() protected txHash = '';
  /** The outcome of the last copy of the transaction hash. */
  @state() protected copied: 'copied' | 'failed' | undefined;

  protected readonly form = new CheckoutForm(this);
  protected readonly language = new LanguageController(this);
  protected readonly wallets = new WalletDiscoveryController(this);
  protected readonly outcome = new OutcomeController(this);
  protected readonly attempt = new PaymentAttempt();
  // The countdown and the session stream exist once a session does.
  protected countdownController: CountdownController | undefined;
  protected streamController: SessionStreamController | undefined;
  /** The payment request module (QR code), once loaded. */
  protected requestModule: typeof PaymentRequestModule | undefined;
  protected api = new CheckoutApi('');
  /** A control to focus after the next render, so focus never falls to the page when one goes away. */
  protected focusNext: string | undefined;
  /** The shopper has acted in the element: only then is focus moved (never on a page that just opened). */
  protected engaged = false;

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.phase === 'loading') void this.load();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('email')) this.form.prefill(this.email, changed.get('email') ?? '');
    if ((changed.has('slug') || changed.has('expectedPayment') || changed.has('apiBase')) && this.hasUpdated)
      void this.load();
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('phase') && this.phase === 'review' && !this.focusNext)
      this.focusNext = '[part="pay-button"]';
    const selector = this.focusNext;
    if (!selector) return;
    if (!this.engaged) {
      // A page that just opened on a final state keeps focus where the browser put it.
      this.focusNext = undefined;
      return;
    }
    const target = this.renderRoot.querySelector<HTMLElement>(selector);
    // A control still disabled (busy) is focused by the render that enables it.
    if (target && (target as HTMLButtonElement).disabled) return;
    this.focusNext = undefined;
    if (target && !focusElsewhere(this.renderRoot)) target.focus();
  }

  protected get countdown(): CountdownController {
    this.countdownController ??= new CountdownController(this, () => this.onExpired());
    return this.countdownController;
  }

  protected get stream(): SessionStreamController {
    this.streamController ??= new SessionStreamController(this, (s) => this.applySession(s));
    return this.streamController;
  }

  /** The language tag in use (amounts are read and written its way). */
  protected get locale(): string {
    return this.language.current?.locale ?? this.language.wanted.locale;
  }

  protected async load(): Promise<void> {
    if (!this.slug) return;
    this.phase = 'loading';
    this.failure = undefined;
    this.api = new CheckoutApi(this.apiBase || window.location.origin);
    const expected = this.expectedPayment || undefined;
    let invalidLink = false;
    try {
      const view = await this.api.view(this.slug, expected).catch((error: unknown) => {
        // A payment link naming no payment of this product: the product's own view still says where to go.
        if (!expected || !(error instanceof CheckoutApiError) || error.status !== 404) throw error;
        invalidLink = true;
        return this.api.view(this.slug);
      });
      this.view = view;
      this.form.fieldsOf(view);
      this.phase = 'connect';
      const existing = view.expected_payment?.session_id;
      if (existing) {
        const session = await this.api.session(existing);
        // A payment request still awaited is shown again, with the same amount.
        if (session.payment_uri && session.status === 'awaiting_payment' && !session.tx_hash)
          await this.showRequest(session);
        this.applySession(session);
      } else if (view.expected_payment?.status === 'paid') this.phase = 'paid';
      else if (invalidLink) this.phase = 'invalid-link';
      // Said at once: an inactive product refuses every session, so nothing here could be paid.
      else if (!view.active) this.phase = 'inactive';
    } catch (error) {
      // No such checkout: trying again cannot help.
      const missing = error instanceof CheckoutApiError && error.status === 404;
      this.phase = 'load-error';
      this.failure = {
        message: ({ messages }) =>
          missing ? messages.linkInvalid : (describeApiError(error, messages) ?? messages.loadFailed),
        retry: missing ? null : () => void this.load(),
      };
    }
  }

  /** Amount in the product token the merchant must receive, or null while unknown. */
  protected get tokenAmount(): string | null {
    const view = this.view;
    if (view?.expected_payment) return view.expected_payment.expected_token_amount;
    const dollars = this.dollarAmount;
    // A USD stablecoin product: one token per dollar, written without trailing zeros as the service does.
    return dollars === null ? null : fromUnits(toUnits(dollars, 2), 2);
  }

  /** The USD amount (at most 2 decimals, `"12.50"`), or null while unknown. */
  protected get dollarAmount(): string | null {
    const view = this.view;
    if (view?.expected_payment) return view.expected_payment.dollar_amount;
    if (view?.open_amount) return parseDollarAmount(this.form.amount, this.locale).amount;
    return null;
  }

  /** Drops the open amount's session: its countdown and its expected payment belong to another amount. */
  protected forgetAttempt(): void {
    this.attempt.forget();
    this.session = undefined;
    this.countdownController?.set(null);
  }

  /** Loads the QR module and shows the session's payment request, following the session for its payment. */
  protected async showRequest(session: CheckoutSession): Promise<void> {
    this.requestModule ??= await loadPaymentRequestModule();
    this.session = session;
    this.phase = 'qr';
    this.stream.follow(this.api, session.id);
  }

  protected applySession(session: CheckoutSession): void {
    this.session = session;
    if (session.tx_hash) this.txHash = session.tx_hash;
    this.countdown.set(
      session.expires_at && !session.tx_hash && !isFinal(this.phase) ? Date.parse(session.expires_at) : null,
    );
    if (session.status === 'resolved') {
      if (this.phase !== 'paid') this.focusNext = '[part="transaction"] button';
      this.phase = 'paid';
      this.countdown.set(null);
      this.succeed(session);
    } else if (session.status === 'failed') {
      this.finish('failed', session.error);
    } else if (session.status === 'expired') {
      this.finish('expired', session.error);
    } else if (session.status === 'confirming') {
      this.phase = session.confirmations > 0 ? 'confirming' : 'submitted';
      this.stream.follow(this.api, session.id);
    } else if (session.tx_hash) {
      this.phase = 'submitted';
      this.stream.follow(this.api, session.id);
    }
  }

  protected get isExpired(): boolean {
    return this.countdownController?.remainingMs === 0 || this.session?.status === 'expired';
  }

  protected onExpired(): void {
    if (['submitted', 'confirming', 'paid', 'failed'].includes(this.phase)) return;
    this.finish('expired', null);
  }

  private succeed(session: CheckoutSession): void {
    if (this.outcome.sent) return;
    this.streamController?.stop();
    this.outcome.success(
      {
        resolvedPaymentId: session.resolved_payment_id ?? '',
        txHash: session.tx_hash ?? this.txHash,
        sessionId: session.id,
      },
      this.view?.success_url,
    );
  }

  /**
   * Whether the shopper can start again after an expiry: only when the amount is theirs (an open amount,
   * without the merchant's expected payment) and nothing was sent. A merchant's expected payment ends with
   * its session; a new one takes a new link from the merchant.
   */
  protected get canStartAgain(): boolean {
    return !!this.view && typesAmount(this.view) && !this.txHash;
  }

  protected finish(reason: 'failed' | 'expired', error: string | null): void {
    if (this.phase !== reason)
      this.focusNext = reason === 'failed' ? '[part="transaction"] button' : '.ended > :last-child';
    this.phase = reason;
    this.countdown.set(null);
    if (this.outcome.sent) return;
    this.streamController?.stop();
    const session = this.session;
    this.outcome.failure(
      {
        reason,
        sessionId: session?.id ?? null,
        error,
        txHash: session?.tx_hash ?? (this.txHash || null),
        resolvedPaymentId: session?.resolved_payment_id ?? null,
      },
      this.view?.failure_url,
      // An expiry the shopper can start again from stays on the page, offering that.
      reason === 'expired' && this.canStartAgain,
    );
  }
}
