/** The `<crypto-checkout>` element: a product's stablecoin checkout, from the form to the confirmed payment. */
import type { Config } from '@wagmi/core';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import {
  formatToken,
  formatUsd,
  fromUnits,
  includedTaxCents,
  maxDollarAmount,
  parseDollarAmount,
  toUnits,
} from '../amount.ts';
import {
  CheckoutApi,
  CheckoutApiError,
  type CheckoutSession,
  type CheckoutView,
  type SessionRequest,
} from '../api.ts';
import { chainName, explorerOf, nativeSymbol } from '../chains.ts';
import { CountdownController } from '../controllers/countdown.ts';
import { SessionStreamController } from '../controllers/session-stream.ts';
import { type DiscoveredWallet, WalletDiscoveryController } from '../controllers/wallet-discovery.ts';
import { type Localized, type Messages, pickLocale } from '../i18n.ts';
import { loadPaymentRequestModule, loadWalletModule, type PaymentRequestModule } from '../load-wallet.ts';
import type { PaymentPlan, WalletErrorKind, WalletFlow, WalletModule } from '../wallet/types.ts';
import { styles } from './crypto-checkout.styles.ts';

/** Where the checkout is. */
export type CheckoutPhase =
  | 'loading'
  | 'load-error'
  | 'connect'
  | 'connecting'
  | 'review'
  | 'wallet'
  | 'qr'
  | 'submitted'
  | 'confirming'
  | 'paid'
  | 'failed'
  | 'expired';

/** Detail of `checkout-success`. */
export interface CheckoutSuccessDetail {
  resolvedPaymentId: string;
  txHash: string;
  sessionId: string;
}

/** Detail of `checkout-failure`. */
export interface CheckoutFailureDetail {
  reason: 'failed' | 'expired';
  sessionId: string | null;
  error: string | null;
  /** The reverted transaction of a failed payment; null when nothing was sent. */
  txHash: string | null;
  /** The resolved payment the service recorded for a failed transaction, if any. */
  resolvedPaymentId: string | null;
}

const stepOfPhase: Record<CheckoutPhase, number> = {
  loading: 0,
  'load-error': 0,
  connect: 0,
  connecting: 0,
  review: 1,
  wallet: 2,
  qr: 2,
  submitted: 3,
  confirming: 4,
  paid: 5,
  failed: 5,
  expired: 5,
};

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** What is wrong with a field, as the key of its text. */
type FieldProblem =
  | 'amountRequired'
  | 'amountFormat'
  | 'amountPositive'
  | 'amountMax'
  | 'emailInvalid'
  | 'fieldRequired';
const amountProblems = {
  required: 'amountRequired',
  format: 'amountFormat',
  positive: 'amountPositive',
  max: 'amountMax',
} as const satisfies Record<string, FieldProblem>;
// Guards against pathological trees: ancestors watched for `lang`, and shadow roots crossed to find it.
const maxLangDepth = 1_000;
const maxShadowHops = 100;
const txStorageKey = (sessionId: string) => `crypto-checkout:tx:${sessionId}`;

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
export class CryptoCheckout extends LitElement {
  static override styles = styles;

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

  @state() private phase: CheckoutPhase = 'loading';
  @state() private view: CheckoutView | undefined;
  @state() private session: CheckoutSession | undefined;
  @state() private amountValue = '';
  @state() private emailValue = '';
  @state() private fields: Record<string, string> = {};
  @state() private fieldErrors: Record<string, FieldProblem | undefined> = {};
  /** The ways the wallet can pay (one per stablecoin it holds) and the one chosen. */
  @state() private options: PaymentPlan[] = [];
  @state() private plan: PaymentPlan | undefined;
  @state() private payer = '';
  @state() private walletStep: 'approve' | 'pay' = 'pay';
  /** The error on screen; its text is written in the language of the moment. */
  @state() private failure: { message: (lang: Localized) => string; retry: (() => void) | null } | undefined;
  @state() private busy = false;
  @state() private txHash = '';
  /** The outcome of the last copy of the transaction hash. */
  @state() private copied: 'copied' | 'failed' | undefined;
  /** Language and texts, from the nearest `lang` (followed while connected). */
  @state() private language: Localized | undefined;

  private readonly wallets = new WalletDiscoveryController(this);
  // The countdown and the session stream exist once a session does.
  private countdownController: CountdownController | undefined;
  private streamController: SessionStreamController | undefined;
  private langObserver: MutationObserver | undefined;
  private langWatchTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly followLanguage = () => this.watchLanguage();
  private flow: WalletFlow | undefined;
  private walletModule: WalletModule | undefined;
  /** The payment request module (QR code), once loaded, and the panel it made for one URI and language. */
  private requestModule: typeof PaymentRequestModule | undefined;
  private requestPanel: { key: string; node: HTMLElement } | undefined;
  private outcomeSent = false;
  private api = new CheckoutApi('');
  /** What the session was opened with, to open it again for another token. */
  private sessionBody: SessionRequest | undefined;
  /**
   * An open amount's attempt: the expected payment the first session created for this dollar amount. Every
   * later wallet pick for the same amount reuses it (one session, one workflow); a new amount forgets it.
   */
  private attempt: { dollarAmount: string; expectedPaymentId: string } | undefined;
  /** A control to focus after the next render, so focus never falls to the page when one goes away. */
  private focusNext: string | undefined;
  /** The shopper has acted in the element: only then is focus moved (never on a page that just opened). */
  private engaged = false;

  override connectedCallback(): void {
    super.connectedCallback();
    // The language now; watching it for changes starts in the next task, after the first render.
    this.language = this.readLanguage().language;
    clearTimeout(this.langWatchTimer);
    this.langWatchTimer = setTimeout(() => {
      this.langWatchTimer = undefined;
      window.addEventListener('languagechange', this.followLanguage);
      this.watchLanguage();
    }, 0);
    if (this.phase === 'loading') void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.langWatchTimer);
    this.langWatchTimer = undefined;
    this.langObserver?.disconnect();
    window.removeEventListener('languagechange', this.followLanguage);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('email')) {
      // A pre-filled e-mail never overwrites what the shopper typed.
      const before = changed.get('email') ?? '';
      if (this.emailValue === '' || this.emailValue === before) this.emailValue = this.email;
    }
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

  /** The wallet module; loaded on first use so the first paint needs no chain code. */
  protected loadWallet(): Promise<WalletModule> {
    return loadWalletModule();
  }

  private get countdown(): CountdownController {
    this.countdownController ??= new CountdownController(this, () => this.onExpired());
    return this.countdownController;
  }

  private get stream(): SessionStreamController {
    this.streamController ??= new SessionStreamController(this, (s) => this.applySession(s));
    return this.streamController;
  }

  private get t(): Messages {
    return this.localized.messages;
  }

  private get localized(): Localized {
    return this.language ?? this.readLanguage().language;
  }

  /**
   * The language of the nearest non-empty `lang`: on the element or an ancestor, across shadow roots to
   * their hosts (as HTML defines an element's language), else the browser's; and the element carrying it.
   */
  private readLanguage(): { language: Localized; from: Element | null } {
    let node: Element = this;
    for (let hops = 0; hops < maxShadowHops; hops++) {
      const from = node.closest('[lang]:not([lang=""])');
      if (from) return { language: pickLocale(from.getAttribute('lang') ?? undefined), from };
      const root = node.getRootNode();
      if (!(root instanceof ShadowRoot)) break;
      node = root.host;
    }
    return { language: pickLocale(undefined), from: null };
  }

  /**
   * Takes the language of the nearest `lang` and watches, for a change of `lang`, the element carrying it
   * and every element between it and this one (any of them could gain one), shadow hosts included.
   */
  private watchLanguage(): void {
    const { language, from } = this.readLanguage();
    if (language.locale !== this.language?.locale) this.language = language;
    this.langObserver ??= new MutationObserver(this.followLanguage);
    this.langObserver.disconnect();
    let node: Element | null = this;
    for (let depth = 0; node && depth < maxLangDepth; depth++) {
      this.langObserver.observe(node, { attributes: true, attributeFilter: ['lang'] });
      if (node === from) break;
      const parent: Node | null = node.parentNode;
      node = parent instanceof ShadowRoot ? parent.host : parent instanceof Element ? parent : null;
    }
  }

  private async load(): Promise<void> {
    if (!this.slug) return;
    this.phase = 'loading';
    this.failure = undefined;
    this.api = new CheckoutApi(this.apiBase || window.location.origin);
    try {
      const view = await this.api.view(this.slug, this.expectedPayment || undefined);
      this.view = view;
      this.fields = Object.fromEntries(view.custom_fields.map((f) => [f, this.fields[f] ?? '']));
      this.phase = 'connect';
      const existing = view.expected_payment?.session_id;
      if (existing) {
        const session = await this.api.session(existing);
        // A payment request still awaited is shown again, with the same amount.
        if (session.payment_uri && session.status === 'awaiting_payment' && !session.tx_hash)
          await this.showRequest(session);
        this.applySession(session);
      } else if (view.expected_payment?.status === 'paid') this.phase = 'paid';
    } catch (error) {
      this.phase = 'load-error';
      this.failure = {
        message: ({ messages }) => this.describeApiError(error, messages) ?? messages.loadFailed,
        retry: () => void this.load(),
      };
    }
  }

  /** Amount in the product token the merchant must receive, or null while unknown. */
  private get tokenAmount(): string | null {
    const view = this.view;
    if (view?.expected_payment) return view.expected_payment.expected_token_amount;
    const dollars = this.dollarAmount;
    // A USD stablecoin product: one token per dollar, written without trailing zeros as the service does.
    return dollars === null ? null : fromUnits(toUnits(dollars, 2), 2);
  }

  /** The USD amount (at most 2 decimals, `"12.50"`), or null while unknown. */
  private get dollarAmount(): string | null {
    const view = this.view;
    if (view?.expected_payment) return view.expected_payment.dollar_amount;
    if (view?.open_amount) return parseDollarAmount(this.amountValue, this.localized.locale).amount;
    return null;
  }

  /** The shopper changed the amount: an error about the old one goes, and so does its attempt. */
  private amountChanged(value: string): void {
    this.amountValue = value;
    this.failure = undefined;
    if (this.attempt && this.attempt.dollarAmount !== this.dollarAmount) this.forgetAttempt();
  }

  /** Drops the open amount's session: its countdown and its expected payment belong to another amount. */
  private forgetAttempt(): void {
    this.attempt = undefined;
    this.session = undefined;
    this.sessionBody = undefined;
    this.countdownController?.set(null);
  }

  private validate(): boolean {
    const view = this.view;
    if (!view) return false;
    const errors: Record<string, FieldProblem> = {};
    if (view.open_amount && !view.expected_payment) {
      const { problem } = parseDollarAmount(this.amountValue, this.localized.locale);
      if (problem) errors.amount = amountProblems[problem];
    }
    if (!emailPattern.test(this.emailValue.trim())) errors.email = 'emailInvalid';
    for (const field of view.custom_fields) {
      if (!this.fields[field]?.trim()) errors[`field-${field}`] = 'fieldRequired';
    }
    this.fieldErrors = errors;
    const first = Object.keys(errors)[0];
    if (first) {
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLInputElement>(`#${first}`)?.focus(),
      );
      return false;
    }
    return true;
  }

  private async choose(wallet: DiscoveredWallet): Promise<void> {
    const view = this.view;
    this.engaged = true;
    if (!view || this.busy || !this.validate()) return;
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
      this.showError(error, () => void this.choose(wallet));
    } finally {
      this.busy = false;
    }
  }

  /**
   * Opens (or updates) the session with the form's details, for `sender` or — without one — for paying
   * from another device. The same attempt of an open amount keeps its expected payment.
   */
  private async openSession(
    view: CheckoutView,
    dollars: string,
    token: string,
    sender?: string,
  ): Promise<CheckoutSession> {
    const expectedPaymentId =
      view.expected_payment?.id ??
      (this.attempt?.dollarAmount === dollars ? this.attempt.expectedPaymentId : undefined);
    const body: SessionRequest = {
      ...(expectedPaymentId ? { expected_payment_id: expectedPaymentId } : { dollar_amount: dollars }),
      email: this.emailValue.trim(),
      custom_fields: Object.fromEntries(view.custom_fields.map((f) => [f, this.fields[f]?.trim() ?? ''])),
      ...(sender ? { sender_address: sender } : {}),
      token_address: token,
      // The shopper's language, for the receipt the merchant may send.
      locale: this.localized.locale,
    };
    const session = await this.api.openSession(view.slug, body);
    const { dollar_amount: _opened, ...payer } = body;
    this.sessionBody = { ...payer, expected_payment_id: session.expected_payment_id };
    if (!view.expected_payment)
      this.attempt = { dollarAmount: dollars, expectedPaymentId: session.expected_payment_id };
    return session;
  }

  /** Pay from another device: a session without a payer, shown as a QR code and payment request. */
  private async payElsewhere(): Promise<void> {
    const view = this.view;
    this.engaged = true;
    const dollars = this.dollarAmount;
    if (!view || !dollars || this.busy || !this.validate()) return;
    this.busy = true;
    this.failure = undefined;
    try {
      const session = await this.openSession(view, dollars, view.token.address);
      await this.showRequest(session);
      this.applySession(session);
      this.focusNext = '[part="payment-request"] button';
    } catch (error) {
      this.showError(error, () => void this.payElsewhere());
    } finally {
      this.busy = false;
    }
  }

  /** Loads the QR module and shows the session's payment request, following the session for its payment. */
  private async showRequest(session: CheckoutSession): Promise<void> {
    this.requestModule ??= await loadPaymentRequestModule();
    this.session = session;
    this.phase = 'qr';
    this.stream.follow(this.api, session.id);
  }

  /** The shopper picked another stablecoin to pay with. */
  private choosePlan(plan: PaymentPlan): void {
    if (this.busy || !plan.covers) return;
    this.plan = plan;
    this.failure = undefined;
  }

  private async pay(): Promise<void> {
    const { flow, plan, session, view } = this;
    if (!flow || !plan || !session || !view || this.busy || this.isExpired) return;
    this.busy = true;
    this.failure = undefined;
    try {
      let hash = this.txHash || readStoredHash(session.id);
      const body = this.sessionBody;
      if (!hash && body && body.token_address.toLowerCase() !== plan.payToken.address.toLowerCase()) {
        // Another token than the session was opened with: the service learns it before the transfer.
        const reopened = { ...body, token_address: plan.payToken.address };
        this.applySession(await this.api.openSession(view.slug, reopened));
        this.sessionBody = reopened;
      }
      if (!hash) {
        this.phase = 'wallet';
        hash = await flow.pay(plan, (step) => {
          this.walletStep = step;
        });
        // Kept before submitting: a failed submission is retried with this hash, never by paying again.
        storeHash(session.id, hash);
      }
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

  private async submit(hash: string): Promise<void> {
    const session = this.session;
    if (!session) return;
    try {
      this.applySession(await this.api.submitTransaction(session.id, hash));
    } catch (error) {
      if (error instanceof CheckoutApiError && error.code === 'tx_already_submitted') {
        this.applySession(await this.api.session(session.id));
      } else if (error instanceof CheckoutApiError && error.code === 'checkout_expired') {
        this.finish('expired', null);
        return;
      } else {
        throw error;
      }
    }
    this.stream.follow(this.api, session.id);
  }

  private applySession(session: CheckoutSession): void {
    this.session = session;
    if (session.tx_hash) this.txHash = session.tx_hash;
    const finalPhase = this.phase === 'paid' || this.phase === 'failed' || this.phase === 'expired';
    this.countdown.set(
      session.expires_at && !session.tx_hash && !finalPhase ? Date.parse(session.expires_at) : null,
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

  private get isExpired(): boolean {
    return this.countdownController?.remainingMs === 0 || this.session?.status === 'expired';
  }

  private onExpired(): void {
    if (['submitted', 'confirming', 'paid', 'failed'].includes(this.phase)) return;
    this.finish('expired', null);
  }

  private succeed(session: CheckoutSession): void {
    if (this.outcomeSent) return;
    this.outcomeSent = true;
    this.streamController?.stop();
    const detail: CheckoutSuccessDetail = {
      resolvedPaymentId: session.resolved_payment_id ?? '',
      txHash: session.tx_hash ?? this.txHash,
      sessionId: session.id,
    };
    const event = new CustomEvent('checkout-success', {
      detail,
      bubbles: true,
      composed: true,
      cancelable: true,
    });
    if (this.dispatchEvent(event)) redirect(this.view?.success_url);
  }

  /**
   * Whether the shopper can start again after an expiry: only when the amount is theirs (an open amount,
   * without the merchant's expected payment) and nothing was sent. A merchant's expected payment ends with
   * its session; a new one takes a new link from the merchant.
   */
  private get canStartAgain(): boolean {
    return !!this.view?.open_amount && !this.view.expected_payment && !this.txHash;
  }

  private finish(reason: 'failed' | 'expired', error: string | null): void {
    if (this.phase !== reason)
      this.focusNext = reason === 'failed' ? '[part="transaction"] button' : '.ended > :last-child';
    this.phase = reason;
    this.countdown.set(null);
    if (this.outcomeSent) return;
    this.outcomeSent = true;
    this.streamController?.stop();
    const detail: CheckoutFailureDetail = {
      reason,
      sessionId: this.session?.id ?? null,
      error,
      txHash: this.session?.tx_hash ?? (this.txHash || null),
      resolvedPaymentId: this.session?.resolved_payment_id ?? null,
    };
    const event = new CustomEvent('checkout-failure', {
      detail,
      bubbles: true,
      composed: true,
      cancelable: true,
    });
    // An expiry the shopper can start again from stays on the page, offering that.
    if (this.dispatchEvent(event) && !(reason === 'expired' && this.canStartAgain))
      redirect(this.view?.failure_url);
  }

  /** After an expiry of an open amount: a new attempt, with what the shopper typed kept. */
  private startAgain(): void {
    this.forgetAttempt();
    this.streamController?.stop();
    this.flow = undefined;
    this.options = [];
    this.plan = undefined;
    this.failure = undefined;
    this.txHash = '';
    this.copied = undefined;
    this.outcomeSent = false;
    this.phase = 'connect';
    this.focusNext = '#amount';
  }

  private showError(error: unknown, retry: () => void): void {
    // What the message needs is taken now; its words are chosen when it is shown.
    const kind: WalletErrorKind = this.walletModule?.classifyWalletError(error) ?? 'unknown';
    const view = this.view;
    const amount = this.tokenAmount;
    this.failure = {
      message: (lang) =>
        this.describeApiError(error, lang.messages) ?? describeWalletError(kind, view, amount, lang),
      retry,
    };
    // The control the shopper used may be gone or disabled: focus goes to the way on.
    this.focusNext = '[part="error"] button';
  }

  private describeApiError(error: unknown, t: Messages): string | undefined {
    if (!(error instanceof CheckoutApiError)) return undefined;
    if (error.status === 0) return t.errors.rpc;
    if (error.code === 'checkout_expired') return t.errors.expired;
    if (error.code === 'tx_already_used') return t.errors.tx_already_used;
    if (error.code === 'tx_rejected') return t.errors.tx_rejected;
    const details = error.errors.map((e) => `${e.path} ${e.message}`).join('; ');
    return details ? `${error.message}: ${details}` : error.message;
  }

  private useAnotherWallet(): void {
    if (this.busy) return;
    this.flow = undefined;
    this.options = [];
    this.plan = undefined;
    this.failure = undefined;
    this.phase = 'connect';
    this.focusNext = '[part="wallet-button"]';
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
    const { locale, messages: t } = this.localized;
    // Before the view: one small template for the first render, another for a load error.
    if (!view && !this.failure)
      return html`<div part="base" lang=${locale}><p part="message" role="status">${t.loading}</p></div>`;
    if (!view) return html`<div part="base" lang=${locale}>${this.renderFailure()}</div>`;
    return html`<section part="base" lang=${locale} aria-labelledby="title">
      <header part="header">
        <h2 id="title">${view.name}${view.is_test ? html`<span class="badge">${t.testMode}</span>` : nothing}</h2>
      </header>
      ${this.renderAmount(view)} ${this.renderProgress()} ${this.renderTimer()} ${this.renderForm(view)}
      ${this.renderAction(view)} ${this.renderFailure()}
    </section>`;
  }

  private renderAmount(view: CheckoutView): TemplateResult {
    const { locale } = this.localized;
    const dollars = this.dollarAmount;
    const tokens = this.tokenAmount;
    const tax =
      dollars && view.tax_rate > 0
        ? this.t.taxIncluded(
            new Intl.NumberFormat(locale, { maximumFractionDigits: 4 }).format(view.tax_rate),
            formatUsd(fromUnits(includedTaxCents(toUnits(dollars, 2), view.tax_rate), 2), locale),
          )
        : null;
    return html`<div>
      ${
        dollars
          ? html`<p part="amount">
            <span class="usd">${formatUsd(dollars, locale)}</span>
            ${tokens ? html`<span class="token">${formatToken(tokens, view.token.symbol, locale)}</span>` : nothing}
          </p>`
          : nothing
      }
      ${tax ? html`<p class="muted">${tax}</p>` : nothing}
    </div>`;
  }

  private renderProgress(): TemplateResult {
    const current = stepOfPhase[this.phase];
    const t = this.t;
    const ended = this.phase === 'failed' ? t.stepFailed : this.phase === 'expired' ? t.stepExpired : null;
    const steps = ended ? [...t.steps.slice(0, -1), ended] : t.steps;
    return html`<ol part="progress" aria-label=${t.progress}>
      ${steps.map(
        (label, i) => html`<li aria-current=${i === current ? 'step' : nothing}>${i + 1}. ${label}</li>`,
      )}
    </ol>`;
  }

  private renderTimer(): TemplateResult | typeof nothing {
    const remaining = this.countdownController?.remainingMs ?? null;
    if (remaining === null || ['paid', 'failed', 'expired'].includes(this.phase)) return nothing;
    const seconds = Math.ceil(remaining / 1000);
    const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    // Screen readers hear minutes, then 15-second steps in the last minute; the clock itself stays silent.
    const coarse =
      seconds > 60
        ? this.t.minutesLeft(Math.ceil(seconds / 60))
        : this.t.secondsLeft(Math.ceil(seconds / 15) * 15);
    return html`<div part="timer" role="timer" aria-live="polite" aria-atomic="true">
      <span aria-hidden="true">${this.t.expiresIn(clock)}</span><span class="sr-only">${coarse}</span>
    </div>`;
  }

  private renderForm(view: CheckoutView): TemplateResult | typeof nothing {
    if (['paid', 'failed', 'expired'].includes(this.phase)) return nothing;
    // Without an amount nothing can be paid: no field to fill above "needs a payment link".
    if (!view.expected_payment && !view.open_amount) return nothing;
    const t = this.t;
    const locked = this.phase !== 'connect' || this.busy;
    const input = (
      id: string,
      label: string,
      value: string,
      onInput: (v: string) => void,
      extra: Partial<{ type: string; autocomplete: string; inputmode: string }> = {},
    ) => {
      const error = this.fieldErrors[id];
      return html`<div part="field">
        <label for=${id}>${label}</label>
        <input
          part="input"
          id=${id}
          name=${id}
          type=${extra.type ?? 'text'}
          autocomplete=${extra.autocomplete ?? 'off'}
          inputmode=${extra.inputmode ?? nothing}
          required
          .value=${value}
          ?disabled=${locked}
          aria-invalid=${error ? 'true' : 'false'}
          aria-describedby=${error ? `${id}-error` : nothing}
          @input=${(e: Event) => {
            onInput((e.target as HTMLInputElement).value);
            if (error) this.fieldErrors = { ...this.fieldErrors, [id]: undefined };
          }}
        />
        ${
          error
            ? html`<span class="field-error" id=${`${id}-error`}
                >${error === 'amountMax' ? t.amountMax(formatUsd(maxDollarAmount, this.localized.locale)) : t[error]}</span
              >`
            : nothing
        }
      </div>`;
    };
    const autocompletes: Record<string, string> = {
      full_name: 'name',
      company: 'organization',
      job_title: 'organization-title',
    };
    return html`<form part="form" novalidate @submit=${(e: Event) => e.preventDefault()}>
      ${
        view.open_amount && !view.expected_payment
          ? input('amount', t.amountUsd, this.amountValue, (v) => this.amountChanged(v), {
              inputmode: 'decimal',
            })
          : nothing
      }
      ${input(
        'email',
        t.email,
        this.emailValue,
        (v) => {
          this.emailValue = v;
        },
        { type: 'email', autocomplete: 'email' },
      )}
      ${view.custom_fields.map((field) =>
        input(
          `field-${field}`,
          t.customField[field] ?? field,
          this.fields[field] ?? '',
          (v) => {
            this.fields = { ...this.fields, [field]: v };
          },
          { autocomplete: autocompletes[field] ?? 'off' },
        ),
      )}
    </form>`;
  }

  private renderAction(view: CheckoutView): TemplateResult | typeof nothing {
    const t = this.t;
    const { locale } = this.localized;
    switch (this.phase) {
      case 'connect': {
        if (!view.expected_payment && !view.open_amount) return html`<p part="message">${t.noAmount}</p>`;
        const other = html`<button part="other-device" type="button" ?disabled=${this.busy || this.isExpired} @click=${() => void this.payElsewhere()}>
          ${t.otherDevice}
        </button>`;
        if (this.wallets.available.length === 0) return html`<p part="message">${t.noWallet}</p>${other}`;
        return html`${this.renderWallets()}${other}`;
      }
      case 'qr':
        return html`${this.renderRequest(view)}${this.renderWallets()}`;
      case 'connecting':
        return html`<p part="message" role="status">${t.connecting}</p>`;
      case 'review':
      case 'wallet': {
        const plan = this.plan;
        if (!plan) return nothing;
        const receive = formatToken(plan.amount, view.token.symbol, locale);
        return html`${this.renderTokenChoice(plan)}<div>
          <p class="muted">${t.payingFrom(shortAddress(this.payer))}</p>
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
          this.phase === 'wallet'
            ? html`<p part="message" role="status">
              ${this.walletStep === 'approve' ? t.waitingApproval : t.waitingWallet}
            </p>`
            : nothing
        }
        <div class="actions">
          <button part="pay-button" type="button" ?disabled=${this.busy || this.isExpired} @click=${() => void this.pay()}>
            ${t.pay}
          </button>
          <button type="button" ?disabled=${this.busy} @click=${() => this.useAnotherWallet()}>${t.changeWallet}</button>
        </div>`;
      }
      case 'submitted':
      case 'confirming': {
        const s = this.session;
        const text =
          this.phase === 'confirming' && s
            ? t.confirming(s.confirmations, s.required_confirmations)
            : t.submitted;
        return html`<p part="message" role="status">${text}</p>${this.renderHash()}`;
      }
      case 'paid': {
        // The receipt goes to the e-mail the session was opened with, when the merchant sends receipts;
        // a session resumed after a reload no longer knows the address, so it is not named then.
        return html`<p part="message" class="success" role="status">${t.paid}</p>${
          view.sends_receipt
            ? html`<p part="receipt">${t.receiptSent(this.sessionBody?.email ?? '')}</p>`
            : nothing
        }${this.renderHash()}`;
      }
      case 'failed':
        return html`<div part="message" class="failure" role="alert">
            <p><strong>${t.failed}</strong></p>
            <p>${t.failedReverted}</p>
          </div>${this.renderHash()}`;
      case 'expired': {
        const back = /^https?:\/\//i.test(view.failure_url) ? view.failure_url : '';
        return html`<div class="ended">
          <p part="message" class="failure" role="alert">${t.expired}</p>
          ${
            this.canStartAgain
              ? html`<p>${t.expiredRestart}</p>
                  <button part="pay-button" type="button" @click=${() => this.startAgain()}>${t.startAgain}</button>`
              : back
                ? html`<p>${t.expiredAskMerchant}</p>
                    <a part="link" href=${back}>${t.backToShop}</a>`
                : html`<p tabindex="-1">${t.expiredAskMerchant}</p>`
          }
        </div>`;
      }
      default:
        return nothing;
    }
  }

  /** The browser's wallets, one pay button each. */
  private renderWallets(): TemplateResult | typeof nothing {
    const wallets = this.wallets.available;
    const t = this.t;
    if (wallets.length === 0) return nothing;
    return html`<ul part="wallet-list">
      ${wallets.map(
        (w) => html`<li>
          <button part="wallet-button" type="button" ?disabled=${this.busy || this.isExpired} @click=${() => void this.choose(w)}>
            ${w.icon ? html`<img src=${w.icon} alt="" />` : nothing}
            <span>${t.payWith(w.name || t.browserWallet)}</span>
          </button>
        </li>`,
      )}
    </ul>`;
  }

  /** The session's payment request (QR code), made by the lazy module once per URI and language. */
  private renderRequest(view: CheckoutView): HTMLElement | typeof nothing {
    const uri = this.session?.payment_uri;
    const module = this.requestModule;
    if (!uri || !module) return nothing;
    const { locale } = this.localized;
    const key = `${locale} ${uri}`;
    if (this.requestPanel?.key !== key) {
      const node = module.paymentRequestPanel({
        uri,
        amount: formatToken(this.session!.expected_token_amount, view.token.symbol, locale),
        receivingAddress: this.session!.receiving_address,
        chainName: chainName(view),
        locale,
      });
      this.requestPanel = { key, node };
    }
    return this.requestPanel.node;
  }

  /** The stablecoins the wallet can pay with, when there is a choice; those it cannot are shown disabled. */
  private renderTokenChoice(chosen: PaymentPlan): TemplateResult | typeof nothing {
    const options = this.options;
    if (options.length < 2) return nothing;
    const { locale, messages: t } = this.localized;
    const locked = this.phase !== 'review' || this.busy;
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
            @change=${() => this.choosePlan(option)}
          />
          <span class="option-text">
            <strong>${symbol}</strong>
            <span>${option.covers ? how : t.notEnough}</span>
            <span class="muted">${t.balance(formatToken(option.balance, symbol, locale))}</span>
          </span>
        </label>`;
      })}
    </fieldset>`;
  }

  /** The transaction hash, a button copying it whole, and its page on the chain's explorer. */
  private renderHash(): TemplateResult | typeof nothing {
    const hash = this.txHash;
    const view = this.view;
    if (!hash || !view) return nothing;
    const t = this.t;
    const explorer = explorerOf(view, hash);
    return html`<div part="transaction">
      <p class="muted">
        ${t.transaction}: <code>${this.copied === 'failed' ? hash : shortAddress(hash)}</code>
      </p>
      <div class="tx-actions">
        <button type="button" aria-label=${t.copyHash} @click=${() => void this.copyHash()}>${t.copy}</button>
        ${
          explorer
            ? html`<a href=${explorer.url} target="_blank" rel="noopener noreferrer">${t.viewOn(explorer.name)}</a>`
            : nothing
        }
      </div>
      <p class="muted" role="status">${
        this.copied === 'copied' ? t.copied : this.copied === 'failed' ? t.copyFailed : ''
      }</p>
    </div>`;
  }

  private renderFailure(): TemplateResult | typeof nothing {
    const failure = this.failure;
    if (!failure) return nothing;
    return html`<div part="error" role="alert">
      <p>${failure.message(this.localized)}</p>
      ${
        failure.retry
          ? html`<button type="button" ?disabled=${this.busy} @click=${() => failure.retry?.()}>${this.t.retry}</button>`
          : nothing
      }
    </div>`;
  }
}

function describeWalletError(
  kind: WalletErrorKind,
  view: CheckoutView | undefined,
  amount: string | null,
  { locale, messages: t }: Localized,
): string {
  switch (kind) {
    case 'rejected':
      return t.errors.rejected;
    case 'wrong_chain':
      return t.errors.wrong_chain(view ? chainName(view) : '');
    case 'insufficient':
      return t.errors.insufficient(view && amount ? formatToken(amount, view.token.symbol, locale) : '');
    case 'fee_funds':
      return t.errors.fee_funds(view ? nativeSymbol(view) : '');
    case 'rpc':
      return t.errors.rpc;
    default:
      return t.errors.unknown;
  }
}

/** Whether focus is on a control outside `root` (another part of the page), which must not lose it. */
function focusElsewhere(root: Node): boolean {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  if (!active || active === document.body || active === document.documentElement) return false;
  return active.getRootNode() !== root && !(root instanceof ShadowRoot && active === root.host);
}

function shortAddress(value: string): string {
  return value.length > 14 ? `${value.slice(0, 6)}…${value.slice(-4)}` : value;
}

function redirect(url: string | undefined): void {
  // Only web URLs: a merchant-configured javascript: URL must not run in the shopper's page.
  if (url && /^https?:\/\//i.test(url)) window.location.assign(url);
}

function readStoredHash(sessionId: string): string {
  try {
    return sessionStorage.getItem(txStorageKey(sessionId)) ?? '';
  } catch {
    return '';
  }
}

function storeHash(sessionId: string, hash: string): void {
  try {
    sessionStorage.setItem(txStorageKey(sessionId), hash);
  } catch {
    // Storage may be disabled; the hash stays in memory for this page.
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
