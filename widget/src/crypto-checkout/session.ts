/**
 * The session of a `<crypto-checkout>` payment, a controller of the element in the manner of a form control
 * controller: it holds the attempt and its session as the service last told it, follows it through its
 * events, runs its countdown, tells its outcome once (and redirects), and moves focus after a render to
 * the control the shopper goes on with. The payment (`checkout-payment.ts`) hands it what the shopper does.
 */
import type { Config } from '@wagmi/core';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CheckoutApi, CheckoutSession, CheckoutView } from '../api.ts';
import { CountdownController } from '../controllers/countdown.ts';
import { SessionStreamController } from '../controllers/session-stream.ts';
import type { PaymentRequestModule } from '../lazy-modules.ts';
import type { WalletModule } from '../wallet/types.ts';
import { PaymentAttempt } from './attempt.ts';
import { isApiError } from './describe-error.ts';
import type { CheckoutForm } from './form.ts';
import { OutcomeController } from './outcome.ts';
import type { Failure } from './render-failure.ts';
import {
  attemptKey,
  type CheckoutPhase,
  focusElsewhere,
  hashKey,
  isFinal,
  readStored,
  store,
} from './state.ts';

/** The service's answers that a checkout was settled elsewhere: paid, closed or expired. */
const settledCodes = new Set(['checkout_already_paid', 'checkout_closed', 'checkout_expired']);

/** The element the payment runs in (its public properties, events and render root). */
export interface PaymentHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  redirectDelay: number;
  wagmiConfig: Config | undefined;
}

/** What the element tells its payment: the checkout, what the shopper typed, and how modules are loaded. */
export interface CheckoutContext {
  view(): CheckoutView | undefined;
  api(): CheckoutApi;
  /** The language tag in use. */
  locale(): string;
  /** The USD amount, or null while unknown. */
  dollars(): string | null;
  /** The price in the product token, before any session holds an exact amount; null while unknown. */
  price(): string | null;
  form: CheckoutForm;
  loadWallet(): Promise<WalletModule>;
  loadRequest(): Promise<typeof PaymentRequestModule>;
  /** Loads the whole checkout again: a session settled elsewhere that this page does not know yet. */
  reload(): void;
}

/** The session of one checkout's payment, from its attempt to its outcome. */
export class SessionController implements ReactiveController {
  /** Where the payment is; undefined until it starts (the element's own phase applies). */
  phase: CheckoutPhase | undefined;
  /** The session as the service last told it. */
  session: CheckoutSession | undefined;
  failure: Failure | undefined;
  /** The transaction shown: the one that settled the session, or the one this tab sent. */
  txHash = '';
  /** The transaction this tab sent for the session, which may not be the one that paid it. */
  sentHash = '';
  /** A control to focus after the next render, so focus never falls to the page when one goes away. */
  focusNext: string | undefined;
  /** The shopper has acted in the element: only then is focus moved (never on a page that just opened). */
  engaged = false;
  readonly attempt = new PaymentAttempt();
  readonly outcome: OutcomeController;
  private readonly countdown: CountdownController;
  private readonly stream: SessionStreamController;
  private readonly host: PaymentHost;
  private readonly checkout: CheckoutContext;

  constructor(host: PaymentHost, checkout: CheckoutContext) {
    this.host = host;
    this.checkout = checkout;
    this.outcome = new OutcomeController(host);
    this.countdown = new CountdownController(host, () => this.onExpired());
    this.stream = new SessionStreamController(host, (s) => this.apply(s));
    host.addController(this);
  }

  hostUpdated(): void {
    const selector = this.focusNext;
    if (!selector) return;
    if (!this.engaged) {
      // A page that just opened on a final state keeps focus where the browser put it.
      this.focusNext = undefined;
      return;
    }
    const target = this.host.renderRoot.querySelector<HTMLElement>(selector);
    // A control still disabled (busy) is focused by the render that enables it.
    if (target && (target as HTMLButtonElement).disabled) return;
    this.focusNext = undefined;
    if (target && !focusElsewhere(this.host.renderRoot)) target.focus();
  }

  /** Renders the element again. */
  changed(): void {
    this.host.requestUpdate();
  }

  /** Milliseconds left to pay, or null without a deadline. */
  get remainingMs(): number | null {
    return this.countdown.remainingMs;
  }

  /** Whether the session can take no payment from this page any more (expired or closed). */
  get isExpired(): boolean {
    const status = this.session?.status;
    return this.countdown.remainingMs === 0 || status === 'expired' || status === 'closed';
  }

  /**
   * Whether the session received transfers of another amount and still waits: its payment request and
   * every way to pay are withdrawn, since the merchant settles what arrived (confirms the order or refunds).
   */
  get withdrawn(): boolean {
    const session = this.session;
    return (
      !!session?.unmatched_transfers.length &&
      !session.tx_hash &&
      (session.status === 'awaiting_payment' || session.status === 'expired')
    );
  }

  /** Opens (or updates) the session with the form's details, for `sender` or for paying from another device. */
  async open(view: CheckoutView, dollars: string, token: string, sender?: string): Promise<CheckoutSession> {
    const details = { ...this.checkout.form.values(view), locale: this.checkout.locale() };
    const session = await this.attempt.open(
      this.checkout.api(),
      view,
      dollars,
      details,
      token,
      sender,
      this.session?.id,
    );
    // The open amount's attempt of this tab is remembered, for a reload or a Back to find it.
    if (this.attempt.owns(session)) store(attemptKey(view.slug), session.id);
    return session;
  }

  /** Starts following `session` through its events (a payment request shown, before it is applied). */
  follow(session: CheckoutSession): void {
    this.session = session;
    this.stream.follow(this.checkout.api(), session.id);
  }

  /**
   * Whether the service refused because the checkout was settled elsewhere (paid in another tab, closed,
   * expired): then the page shows what it is, instead of an error — the session it knows, read again, or
   * (knowing none) the whole checkout loaded again.
   */
  settledElsewhere(error: unknown): boolean {
    if (!isApiError(error) || !settledCodes.has(error.code)) return false;
    const session = this.session;
    if (!session) this.checkout.reload();
    else
      this.checkout
        .api()
        .session(session.id)
        .then(
          (now) => this.apply(now),
          () => this.checkout.reload(),
        );
    return true;
  }

  /**
   * Hands the hash to the service. When the service does not take it — the session was already paid,
   * closed or expired, or it failed (5xx) — the page reads the session and shows what it is; only a
   * session still waiting for this hash leaves an error to retry.
   */
  async submit(hash: string): Promise<void> {
    const session = this.session;
    if (!session) return;
    const api = this.checkout.api();
    try {
      this.apply(await api.submitTransaction(session.id, hash));
    } catch (error) {
      const taken = isApiError(error) && error.code === 'tx_already_submitted';
      const settled = isApiError(error) && (settledCodes.has(error.code) || error.status >= 500);
      if (!taken && !settled) throw error;
      const now = await api.session(session.id);
      this.apply(now);
      if (!taken && !isFinal(this.phase ?? 'connect') && now.tx_hash !== hash) throw error;
    }
  }

  /**
   * Shows the session as the service has it, and follows it from the moment it opens: another tab's
   * payment, a late one, or its closing shows here as it happens. An outcome found when the shopper
   * `returns` to the page is shown without being told (or redirected to) again.
   */
  apply(session: CheckoutSession, returns = false): void {
    const withdrawn = this.withdrawn;
    this.session = session;
    if (session.tx_hash) this.txHash = session.tx_hash;
    this.countdown.set(
      session.expires_at && !session.tx_hash && !isFinal(this.phase ?? 'connect')
        ? Date.parse(session.expires_at)
        : null,
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
    // The request is withdrawn under the shopper's eyes: focus goes to what it says instead.
    if (this.withdrawn && !withdrawn && this.phase !== 'wallet') this.focusNext = '.withdrawn';
    if (status !== 'resolved' && status !== 'failed' && status !== 'closed')
      this.stream.follow(this.checkout.api(), session.id);
    this.changed();
  }

  /** An open amount's attempt of this tab, found when the page opens: continued with its amount and hash. */
  continueOwn(session: CheckoutSession): void {
    this.attempt.resume(session);
    this.checkout.form.amount = session.dollar_amount;
    this.sentHash = readStored(hashKey(session.id));
  }

  /** Into the back-forward cache: the session's connection is closed. */
  pause(): void {
    this.stream.pause();
  }

  /**
   * Back from the back-forward cache (the shopper pressed Back after the redirect): no redirect is on its
   * way any more, the connection is opened again and the session read again, so the page shows what it is
   * now — paid, not the form it was left with. What it finds was told when it happened: no event.
   */
  restored(): void {
    this.outcome.cancel();
    const session = this.session;
    if (!session) return;
    this.stream.resume();
    this.checkout
      .api()
      .session(session.id)
      .then(
        (now) => this.apply(now, true),
        () => {},
      );
  }

  /** The checkout is loaded again (another product, or a session this page did not know): nothing is kept. */
  reset(): void {
    this.stream.stop();
    this.countdown.set(null);
    this.outcome.cancel();
    this.phase = undefined;
    this.session = undefined;
    this.failure = undefined;
    this.txHash = '';
    this.sentHash = '';
  }

  /**
   * Gives up the open amount's attempt (another amount, "Start again", another wallet): its session is
   * closed on the service, so it claims nothing, and its countdown and expected payment go with it.
   */
  forgetAttempt(): void {
    const session = this.session;
    this.stream.stop();
    if (session && this.attempt.owns(session)) this.checkout.api().closeSession(session.id);
    this.attempt.forget();
    store(attemptKey(this.checkout.view()?.slug ?? ''), '');
    this.session = undefined;
    this.countdown.set(null);
  }

  /** After an expiry of an open amount: a new attempt, its outcome still to come. */
  startAgain(): void {
    this.forgetAttempt();
    this.txHash = '';
    this.sentHash = '';
    this.outcome.reset();
  }

  /** The session's time ran out before anything was sent. */
  onExpired(): void {
    if (['submitted', 'confirming', 'paid', 'failed'].includes(this.phase ?? '')) return;
    this.finish('expired', null);
  }

  private succeed(session: CheckoutSession): void {
    this.outcome.success(
      {
        resolvedPaymentId: session.resolved_payment_id ?? '',
        txHash: session.tx_hash ?? this.txHash,
        sessionId: session.id,
      },
      this.checkout.view()?.success_url,
    );
  }

  /**
   * Whether the shopper can start again after an expiry: only when the amount is theirs (an open amount,
   * without the merchant's expected payment) and nothing was sent. A merchant's expected payment ends with
   * its session; a new one takes a new link from the merchant.
   */
  get canStartAgain(): boolean {
    const view = this.checkout.view();
    return !!view && view.open_amount && !view.expected_payment && !this.txHash && !this.withdrawn;
  }

  /**
   * The checkout ended without a payment (failed, expired, closed): `checkout-failure`, then `failure_url`
   * — unless the shopper can start again, or a payment request may still be paid late (its session is
   * followed through its grace window, and a late payment shows as paid).
   */
  private finish(reason: 'failed' | 'expired' | 'closed', error: string | null): void {
    if (this.phase !== reason)
      this.focusNext =
        reason === 'failed'
          ? '[part="transaction"] button'
          : this.withdrawn
            ? '.withdrawn'
            : '.ended > :last-child';
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
      this.checkout.view()?.failure_url,
      (reason !== 'failed' && this.canStartAgain) || (reason === 'expired' && !!session?.payment_uri),
    );
    this.changed();
  }
}
