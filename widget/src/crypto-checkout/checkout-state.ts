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
import { SessionStreamController } from '../controllers/session-stream.ts';
import { WalletDiscoveryController } from '../controllers/wallet-discovery.ts';
import { loadPaymentRequestModule, type PaymentRequestModule } from '../lazy-modules.ts';
import { PaymentAttempt } from './attempt.ts';
import { describeApiError } from './describe-error.ts';
import { CheckoutForm, typesAmount } from './form.ts';
import { OutcomeController } from './outcome.ts';
import type { Failure } from './render-outcome.ts';
import {
  attemptKey,
  type CheckoutPhase,
  focusElsewhere,
  hashKey,
  isFinal,
  navigationType,
  readStored,
  store,
} from './state.ts';

/** The page's moves into and out of the back-forward cache. */
const pageEvents = ['pagehide', 'pageshow'] as const;

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
  /** The transaction this tab sent for the session, which may not be the one that paid it. */
  protected sentHash = '';

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
    for (const type of pageEvents) window.addEventListener(type, this.onPage);
    if (this.phase === 'loading') void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const type of pageEvents) window.removeEventListener(type, this.onPage);
  }

  /**
   * Into the back-forward cache (`pagehide`): the session's connection is closed. Back from it (the
   * shopper pressed Back after the redirect): no redirect is on its way any more, the connection is opened
   * again and the session read again, so the page shows what it is now — paid, not the form it was left
   * with. What it finds was told when it happened (or is the shopper's own return): no event.
   */
  private readonly onPage = (event: PageTransitionEvent) => {
    if (!event.persisted) return;
    if (event.type === 'pagehide') return this.streamController?.pause();
    this.outcome.cancel();
    const session = this.session;
    if (!session) return;
    this.streamController?.resume();
    this.api.session(session.id).then(
      (now) => this.applySession(now, true),
      () => {},
    );
  };

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
      const returning = navigationType();
      const kept = !view.expected_payment && returning ? readStored(attemptKey(view.slug)) : '';
      const existing = view.expected_payment?.session_id ?? kept;
      // An attempt this tab kept that the service no longer knows is simply not resumed.
      const session = existing
        ? await this.api.session(existing).catch((error: unknown) => {
            if (existing !== kept) throw error;
          })
        : undefined;
      if (session) {
        if (!view.expected_payment) this.resumeAttempt(session);
        // A payment request still awaited is shown again, with the same amount.
        if (session.payment_uri && session.status === 'awaiting_payment' && !session.tx_hash)
          await this.showRequest(session);
        // Back on a checkout that ended (after its redirect): shown as it is, not told or left again.
        this.applySession(session, returning === 'back_forward');
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

  /**
   * Gives up the open amount's attempt (another amount, "Start again", another wallet): its session is
   * closed on the service, so it claims nothing, and its countdown and expected payment go with it.
   */
  protected forgetAttempt(): void {
    const session = this.session;
    this.streamController?.stop();
    if (session && this.attempt.owns(session)) this.api.closeSession(session.id);
    this.attempt.forget();
    store(attemptKey(this.slug), '');
    this.session = undefined;
    this.countdownController?.set(null);
  }

  /** An open amount's attempt this tab made before a reload or a Back: the next wallet pick continues it. */
  private resumeAttempt(session: CheckoutSession): void {
    this.attempt.resume(session);
    this.form.amount = session.dollar_amount;
    this.sentHash = readStored(hashKey(session.id));
  }

  /** Remembers the open amount's attempt of this tab, for a reload or a Back to find it. */
  protected keepAttempt(session: CheckoutSession): void {
    if (this.attempt.owns(session)) store(attemptKey(this.slug), session.id);
  }

  /** Loads the QR module and shows the session's payment request, following the session for its payment. */
  protected async showRequest(session: CheckoutSession): Promise<void> {
    this.requestModule ??= await loadPaymentRequestModule();
    this.session = session;
    this.phase = 'qr';
    this.stream.follow(this.api, session.id);
  }

  /**
   * Shows the session as the service has it, and follows it from the moment it opens: another tab's
   * payment, a late one, or its closing shows here as it happens. An outcome found when the shopper
   * `returns` to the page is shown without being told (or redirected to) again.
   */
  protected applySession(session: CheckoutSession, returns = false): void {
    this.session = session;
    if (session.tx_hash) this.txHash = session.tx_hash;
    this.countdown.set(
      session.expires_at && !session.tx_hash && !isFinal(this.phase) ? Date.parse(session.expires_at) : null,
    );
    const status = session.status;
    // An error was about an action on the open session: it goes once the session has moved on.
    if (status !== 'awaiting_payment') this.failure = undefined;
    if (
      returns &&
      (status === 'resolved' || status === 'failed' || status === 'closed' || status === 'expired')
    )
      this.outcome.told(status === 'resolved');
    if (status === 'resolved') {
      if (this.phase !== 'paid') this.focusNext = '[part="transaction"] button';
      this.phase = 'paid';
      this.countdown.set(null);
      this.succeed(session);
    } else if (status === 'failed' || status === 'expired' || status === 'closed') {
      this.finish(status, session.error);
    } else if (status === 'confirming') {
      this.phase = session.confirmations > 0 ? 'confirming' : 'submitted';
    } else if (session.tx_hash) {
      this.phase = 'submitted';
    }
    if (status !== 'resolved' && status !== 'failed' && status !== 'closed')
      this.stream.follow(this.api, session.id);
  }

  /** Whether the session can take no payment from this page any more (expired or closed). */
  protected get isExpired(): boolean {
    const status = this.session?.status;
    return this.countdownController?.remainingMs === 0 || status === 'expired' || status === 'closed';
  }

  protected onExpired(): void {
    if (['submitted', 'confirming', 'paid', 'failed'].includes(this.phase)) return;
    this.finish('expired', null);
  }

  private succeed(session: CheckoutSession): void {
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

  /**
   * The checkout ended without a payment (failed, expired, closed): `checkout-failure`, then `failure_url`
   * — unless the shopper can start again, or a payment request may still be paid late (its session is
   * followed through its grace window, and a late payment shows as paid).
   */
  protected finish(reason: 'failed' | 'expired' | 'closed', error: string | null): void {
    if (this.phase !== reason)
      this.focusNext = reason === 'failed' ? '[part="transaction"] button' : '.ended > :last-child';
    this.phase = reason;
    this.countdown.set(null);
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
      (reason !== 'failed' && this.canStartAgain) || (reason === 'expired' && !!session?.payment_uri),
    );
  }
}
