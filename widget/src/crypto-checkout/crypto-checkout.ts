/** The `<crypto-checkout>` element: a product's stablecoin checkout, from the form to the confirmed payment. */
import type { Config } from '@wagmi/core';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { fromUnits, parseDollarAmount, toUnits } from '../amount.ts';
import { CheckoutApi, CheckoutApiError, type CheckoutView } from '../api.ts';
import { LanguageController } from '../controllers/language.ts';
import { WalletDiscoveryController } from '../controllers/wallet-discovery.ts';
import { type Localized, loadingTexts } from '../i18n.ts';
import {
  loadPaymentModule,
  loadPaymentRequestModule,
  loadWalletModule,
  type PaymentModule,
} from '../lazy-modules.ts';
import type { WalletModule } from '../wallet/types.ts';
import type { CheckoutPayment } from './checkout-payment.ts';
import { styles } from './crypto-checkout.styles.ts';
import { CheckoutForm } from './form.ts';
import { type Failure, renderFailure, renderUnavailable } from './render-failure.ts';
import { renderAmount, renderProgress, renderTimer } from './render-summary.ts';
import { renderWallets } from './render-wallets.ts';
import {
  attemptKey,
  type CheckoutFailureDetail,
  type CheckoutPhase,
  type CheckoutSuccessDetail,
  isFinal,
  isUnavailable,
  navigationType,
  readStored,
} from './state.ts';

export type { CheckoutFailureDetail, CheckoutPhase, CheckoutSuccessDetail };

/** The page's moves into and out of the back-forward cache. */
const pageEvents = ['pagehide', 'pageshow'] as const;

/**
 * A stablecoin checkout for one product: amount, tax, e-mail and custom fields, the shopper's wallets,
 * direct or swapped payment, a countdown, and live progress until the payment is confirmed. The element
 * itself loads the checkout and shows it payable; the payment (`CheckoutPayment`, its own lazy file)
 * comes with the shopper's first step or with a session the page finds.
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

  /**
   * Seconds the outcome (paid, failed, expired) stays on screen, saying where the shopper is going, before
   * `success_url` or `failure_url` is opened; 0 opens it at once.
   */
  @property({ attribute: 'redirect-delay', type: Number }) redirectDelay = 3;

  @state() protected phase: CheckoutPhase = 'loading';
  @state() protected view: CheckoutView | undefined;
  /** An error of the element's own (loading the checkout, or the payment's module). */
  @state() protected failure: Failure | undefined;
  /** The payment, once its module is in: it holds the session. */
  @state() protected payment: CheckoutPayment | undefined;
  /** The payment's module is on its way after the shopper's first step. */
  @state() private starting = false;

  protected readonly form = new CheckoutForm(this);
  protected readonly language = new LanguageController(this);
  protected readonly wallets = new WalletDiscoveryController(this);
  protected api = new CheckoutApi('');
  private paymentModule: Promise<typeof PaymentModule> | undefined;

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
   * Into the back-forward cache (`pagehide`): the session's connection is closed. Back from it: the session
   * is read again (`restored`), or — a merchant's payment link this page knew no session of — the checkout
   * is loaded again, as it may have been paid meanwhile (in another tab, from a phone): it shows what it is
   * now, never the payable form it was left with, and tells no outcome again.
   */
  private readonly onPage = (event: PageTransitionEvent) => {
    if (!event.persisted) return;
    if (event.type === 'pagehide') return this.payment?.pause();
    if (this.payment?.session) this.payment.restored();
    else if (this.view?.expected_payment) void this.load(true);
  };

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('email')) this.form.prefill(this.email, changed.get('email') ?? '');
    if ((changed.has('slug') || changed.has('expectedPayment') || changed.has('apiBase')) && this.hasUpdated)
      void this.load();
  }

  /** The language tag in use (amounts are read and written its way). */
  protected get locale(): string {
    return this.language.current?.locale ?? this.language.wanted.locale;
  }

  /** The wallet module; loaded on first use so the first paint needs no chain code. */
  protected loadWallet(): Promise<WalletModule> {
    return loadWalletModule();
  }

  /** The payment's module, fetched once; the first time, it hands it Lit and makes this element's payment. */
  private loadPayment(): Promise<typeof PaymentModule> {
    this.paymentModule ??= loadPaymentModule().then(
      (module) => {
        module.takeTemplateTags({ html, nothing });
        this.payment = new module.CheckoutPayment(this, {
          view: () => this.view,
          api: () => this.api,
          locale: () => this.locale,
          dollars: () => this.dollarAmount,
          price: () => this.price,
          form: this.form,
          loadWallet: () => this.loadWallet(),
          loadRequest: loadPaymentRequestModule,
          reload: () => void this.load(),
        });
        return module;
      },
      (error: unknown) => {
        this.paymentModule = undefined;
        throw error;
      },
    );
    return this.paymentModule;
  }

  /**
   * Loads the checkout; `restored` when the page came back from the back-forward cache (an outcome it finds
   * was told before, and is not told again).
   */
  protected async load(restored = false): Promise<void> {
    if (!this.slug) return;
    this.phase = 'loading';
    this.failure = undefined;
    this.payment?.reset();
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
      const returning = restored ? 'back_forward' : navigationType();
      const kept = !view.expected_payment && returning ? readStored(attemptKey(view.slug)) : '';
      const existing = view.expected_payment?.session_id ?? kept;
      // The payment's module comes with the session found, not after it.
      const [session, module] = await Promise.all([
        existing
          ? this.api.session(existing).catch((error: unknown) => {
              // An attempt this tab kept that the service no longer knows is simply not resumed.
              if (existing !== kept) throw error;
            })
          : undefined,
        existing || view.expected_payment?.status === 'paid' ? this.loadPayment() : undefined,
      ]);
      // Back on a checkout that ended (after its redirect): shown as it is, not told or left again.
      if (session && module)
        await this.payment?.resume(session, !view.expected_payment, returning === 'back_forward');
      else if (view.expected_payment?.status === 'paid') this.phase = 'paid';
      else if (invalidLink) this.phase = 'invalid-link';
      // Said at once: an inactive product refuses every session, so nothing here could be paid.
      else if (!view.active) this.phase = 'inactive';
    } catch (error) {
      // No such checkout: trying again cannot help.
      const missing = error instanceof CheckoutApiError && error.status === 404;
      const module = missing ? undefined : await this.loadPayment().catch(() => undefined);
      this.phase = 'load-error';
      this.failure = {
        message: (localized) =>
          missing
            ? localized.messages.linkInvalid
            : (module?.describeLoadError(error, localized) ?? localized.messages.loadFailed),
        retry: missing ? null : () => void this.load(),
      };
    }
  }

  /** The price in the product token, or null while unknown. */
  private get price(): string | null {
    const view = this.view;
    if (view?.expected_payment) return view.expected_payment.expected_token_amount;
    const dollars = this.dollarAmount;
    // A USD stablecoin product: one token per dollar, written without trailing zeros as the service does.
    return dollars === null ? null : fromUnits(toUnits(dollars, 2), 2);
  }

  /** The amount asked in the product token: the session's exact amount once it has one, else the price. */
  protected get tokenAmount(): string | null {
    return this.payment?.session?.expected_token_amount ?? this.price;
  }

  /** The USD amount (at most 2 decimals, `"12.50"`), or null while unknown. */
  protected get dollarAmount(): string | null {
    const view = this.view;
    if (view?.expected_payment) return view.expected_payment.dollar_amount;
    if (view?.open_amount) return parseDollarAmount(this.form.amount, this.locale).amount;
    return null;
  }

  /** The shopper changed the amount: an error about the old one goes, and so does its attempt. */
  private readonly amountChanged = (): void => {
    this.failure = undefined;
    this.payment?.amountChanged(this.dollarAmount);
  };

  /**
   * The shopper's first step (a wallet, or another device): handed to the payment, whose module is fetched
   * the first time together with the module the step needs (`alongside`: the wallet's or the QR code's).
   */
  private async start(
    step: (payment: CheckoutPayment) => Promise<void>,
    alongside: () => Promise<unknown>,
  ): Promise<void> {
    const view = this.view;
    if (this.payment) return step(this.payment);
    if (!view || this.starting || !this.form.validate(view, this.locale)) return;
    this.starting = true;
    this.failure = undefined;
    alongside().catch(() => {});
    const loaded = await this.loadPayment().catch(() => undefined);
    this.starting = false;
    if (loaded && this.payment) return step(this.payment);
    this.failure = {
      message: ({ messages }) => messages.errors.unavailable,
      retry: () => void this.start(step, alongside),
    };
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part="error"] button')?.focus();
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
      return html`<div part="base" lang=${locale}>${renderFailure(this.failure, false, localized)}</div>`;
    const payment = this.payment;
    const phase = payment?.phase ?? this.phase;
    const busy = this.starting || !!payment?.busy;
    // Transfers of another amount arrived: nothing more is asked of the shopper.
    const withdrawn = !!payment?.withdrawn;
    return html`<section part="base" lang=${locale} aria-labelledby="title">
      <header part="header">
        <h2 id="title">${view.name}${view.is_test ? html`<span class="badge">${t.testMode}</span>` : nothing}</h2>
      </header>
      ${
        isUnavailable(phase)
          ? renderUnavailable(phase, view, t)
          : html`${renderAmount(view, this.dollarAmount, this.tokenAmount, localized)} ${renderProgress(phase, t, !!payment?.viaRequest)}
      ${withdrawn ? nothing : renderTimer(payment?.remainingMs ?? null, phase, t)}
      ${
        isFinal(phase) || withdrawn || (!view.expected_payment && !view.open_amount)
          ? nothing
          : this.form.render(view, phase !== 'connect' || busy, localized, this.amountChanged)
      }
      ${this.renderAction(view, phase, busy, localized)} ${renderFailure(payment?.failure ?? this.failure, busy, localized)}`
      }
    </section>`;
  }

  private renderAction(
    view: CheckoutView,
    phase: CheckoutPhase,
    busy: boolean,
    localized: Localized,
  ): TemplateResult | HTMLElement | typeof nothing {
    const t = localized.messages;
    const payment = this.payment;
    if (payment?.withdrawn && phase !== 'wallet' && !isFinal(phase)) return payment.render(phase, localized);
    const expired = !!payment?.isExpired;
    const wallets = () =>
      renderWallets(
        this.wallets.available,
        busy || expired,
        (name) => t.payWith(name || t.browserWallet),
        (w) =>
          void this.start(
            (p) => p.choose(w),
            () => this.loadWallet(),
          ),
      );
    switch (phase) {
      case 'connect': {
        if (!view.expected_payment && !view.open_amount) return html`<p part="message">${t.noAmount}</p>`;
        const other = html`<button part="other-device" type="button" ?disabled=${busy || expired} @click=${() => void this.start((p) => p.payElsewhere(), loadPaymentRequestModule)}>
          ${t.otherDevice}
        </button>`;
        if (this.wallets.available.length === 0) return html`<p part="message">${t.noWallet}</p>${other}`;
        return html`${wallets()}${other}`;
      }
      case 'qr':
        return html`${payment?.render(phase, localized) ?? nothing}${wallets()}`;
      default:
        return payment?.render(phase, localized) ?? nothing;
    }
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
