/**
 * What both hosted refund pages share: the refund read by its page token and followed (polled) until it
 * ends, the page's language and its texts, the browser's wallets, and the details and transaction shown.
 */
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { formatToken } from '../amount.ts';
import { CheckoutApiError } from '../api.ts';
import { chainName, explorerOf } from '../chains.ts';
import { WalletDiscoveryController } from '../controllers/wallet-discovery.ts';
import { styles } from '../crypto-checkout/crypto-checkout.styles.ts';
import { type Lang, pickLocale } from '../i18n.ts';
import { loadWalletModule } from '../lazy-modules.ts';
import type { ChainTarget, WalletModule } from '../wallet/types.ts';
import { RefundApi, type RefundPayment } from './refund-api.ts';
import { refundStyles } from './refund-page.styles.ts';
import { loadRefundMessages, type RefundMessages } from './refund-texts.ts';

/** What both pages read of a refund. */
type RefundShown = Pick<
  RefundPayment,
  | 'status'
  | 'chain_id'
  | 'token'
  | 'amount'
  | 'tx_hash'
  | 'order'
  | 'cancel_reason'
  | 'paid_amount'
  | 'amount_due'
  | 'overpaid_amount'
  | 'part_payments'
>;

/** Statuses a refund never leaves: the page stops following it. */
const finalStatuses = new Set(['confirmed', 'canceled', 'expired']);

/** A failure on screen: its words in the page's texts, and what trying again does (if anything). */
export interface PageFailure {
  message: (t: RefundMessages) => string;
  retry?: (() => void) | undefined;
  /** Stays when the refund is read again (a wallet refused): only the visitor's next step clears it. */
  kept?: boolean;
}

/** The base of `<refund-claim>` and `<refund-pay>`. */
export abstract class RefundPage<T extends RefundShown> extends LitElement {
  static override styles = [styles, refundStyles];

  /** The page's token (from its link). */
  @property() token = '';
  /** Origin of the checkout service; the page's origin when empty. */
  @property({ attribute: 'api-base' }) apiBase = '';
  /** The chain's public RPC URL (for the wallet's reads, and to tell a local chain from a public one). */
  @property({ attribute: 'rpc-url' }) rpcUrl = '';
  /** How often the refund is read again while it can still change, in milliseconds. */
  @property({ type: Number, attribute: 'poll-interval' }) pollInterval = 3_000;

  /** The refund as last read. */
  @state() protected data: T | undefined;
  /** The page's texts, once fetched. */
  @state() protected t: RefundMessages | undefined;
  @state() protected failure: PageFailure | undefined;
  /** The refund link is unknown to the service. */
  @state() protected notFound = false;

  protected locale = 'en';
  protected language: Lang = 'en';
  protected readonly wallets = new WalletDiscoveryController(this);
  private timer: ReturnType<typeof setTimeout> | undefined;
  private reading = false;

  /** Reads the refund by the page's token. */
  protected abstract read(api: RefundApi): Promise<T>;

  protected get api(): RefundApi {
    return new RefundApi(this.apiBase || window.location.origin);
  }

  /** The wallet module; loaded on first use so the page's first paint needs no chain code. */
  protected loadWallet(): Promise<WalletModule> {
    return loadWalletModule();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    ({ locale: this.locale, lang: this.language } = pickLocale(
      this.closest('[lang]:not([lang=""])')?.getAttribute('lang') ?? undefined,
    ));
    loadRefundMessages(this.language).then(
      (t) => {
        this.t = t;
      },
      () => {},
    );
    void this.refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Reads the refund now, and again after `pollInterval` while it can still change. */
  protected async refresh(): Promise<void> {
    clearTimeout(this.timer);
    if (this.reading) return;
    this.reading = true;
    try {
      this.data = await this.read(this.api);
      if (this.failure && !this.failure.retry && !this.failure.kept) this.failure = undefined;
    } catch (error) {
      if (error instanceof CheckoutApiError && error.status === 404) {
        this.notFound = true;
        return;
      }
      // A refund already on screen stays; a page with nothing yet says so and offers to try again.
      if (!this.data) this.failure = this.apiFailure(error, () => void this.refresh());
    } finally {
      this.reading = false;
    }
    if (this.isConnected && this.data && !finalStatuses.has(this.data.status))
      this.timer = setTimeout(() => void this.refresh(), this.pollInterval);
  }

  /** An error answer or network failure in the page's words, with its retry. */
  protected apiFailure(_error: unknown, retry?: () => void): PageFailure {
    return { message: (t) => t.unavailable, retry };
  }

  /** Moves focus, after the next render, to the control the visitor goes on with. */
  protected focusSoon(selector: string): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(selector)?.focus());
  }

  /** The refund's chain, for the wallet module. */
  protected chainTarget(data: T): ChainTarget {
    return {
      chain_id: data.chain_id,
      blockchain: data.token.blockchain,
      network: data.token.network,
      is_test: data.token.network === 'testnet',
      rpc_url: this.rpcUrl || null,
    };
  }

  protected chainName(data: T): string {
    return chainName(this.chainTarget(data));
  }

  protected amountText(data: T): string {
    return formatToken(data.amount, data.token.symbol, this.locale);
  }

  /** A date and time in the visitor's time zone, which it names (every deadline and payment says its zone). */
  protected dateText(iso: string): string {
    return new Intl.DateTimeFormat(this.locale, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(new Date(iso));
  }

  /** The shop the refund is from: the product's business name, else the merchant's; '' when unknown. */
  protected shopName(data: T, fallback: string | null = null): string {
    return data.order?.shop_name ?? fallback ?? '';
  }

  /** The order refunded in one line (what, what was paid, when), or null when unknown. */
  protected orderText(t: RefundMessages, data: T, what: string): string | null {
    const order = data.order;
    if (!order) return null;
    const paid = formatToken(order.paid_amount, order.paid_token_symbol, this.locale);
    const dollars = order.dollar_amount
      ? new Intl.NumberFormat(this.locale, { style: 'currency', currency: 'USD' }).format(
          Number(order.dollar_amount),
        )
      : '';
    return t.orderOf([what, dollars].filter(Boolean).join(' · '), paid, this.dateText(order.paid_at));
  }

  /** A canceled refund: that the merchant canceled it, why when they said, and how to reach them. */
  protected canceled(t: RefundMessages, data: T, contact: string | null): TemplateResult {
    return html`<div class="ended" role="alert">
      <p part="message" class="failure">${t.canceled}</p>
      ${data.cancel_reason ? html`<p>${t.canceledBecause(data.cancel_reason)}</p>` : nothing}
      ${contact ? html`<p>${t.contact} <a href=${`mailto:${contact}`}>${contact}</a></p>` : nothing}
    </div>`;
  }

  /** The page's frame: before the texts or the refund, one line saying it is loading. */
  protected frame(
    title: (t: RefundMessages, data: T) => string,
    body: (t: RefundMessages, data: T) => unknown,
  ): TemplateResult {
    const { t, data } = this;
    if (!t || (!data && !this.notFound && !this.failure))
      return html`<div part="base" lang=${this.locale}><p part="message" role="status">${t?.loading ?? ''}</p></div>`;
    if (!data)
      return html`<div part="base" lang=${this.locale}>
        ${this.notFound ? html`<p part="message" class="failure" role="alert">${t.notFound}</p>` : this.renderFailure(t)}
      </div>`;
    const test = data.token.network === 'testnet';
    return html`<section part="base" lang=${this.locale} aria-labelledby="title">
      <header part="header">
        ${test ? html`<p class="badge">${t.testMode}</p>` : nothing}
        <h2 id="title">${title(t, data)}</h2>
      </header>
      ${body(t, data)} ${this.renderFailure(t)}
    </section>`;
  }

  /** Label and value pairs, in order; pairs without a value are left out. */
  protected details(rows: Array<[string, unknown]>): TemplateResult {
    return html`<dl part="details">
      ${rows
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([label, value]) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`)}
    </dl>`;
  }

  /**
   * An address in full, as code, in two halves that never break inside: on a narrow screen it takes two
   * lines of 21 characters, never one character alone on a line.
   */
  protected address(value: string | null): TemplateResult | string {
    if (!value) return '';
    const half = Math.ceil(value.length / 2);
    return html`<code class="address"><span>${value.slice(0, half)}</span><wbr /><span>${value.slice(half)}</span></code>`;
  }

  /**
   * The transfers that paid the refund so far, each with its amount and transaction, when it took more than
   * one or one of another amount is still short of it; nothing otherwise.
   */
  protected partPayments(data: T): TemplateResult | typeof nothing {
    const { t } = this;
    const parts = data.part_payments;
    if (!t || parts.length === 0 || (parts.length === 1 && data.status !== 'ready_to_pay')) return nothing;
    return html`<div part="part-payments">
      <p>${t.transfersReceived}</p>
      <ul>
        ${parts.map((part) => {
          const explorer = explorerOf(
            { chain_id: data.chain_id, rpc_url: this.rpcUrl || null },
            part.tx_hash,
          );
          const amount = formatToken(part.amount, data.token.symbol, this.locale);
          return html`<li>
            ${amount} · ${this.dateText(part.seen_at)} ·
            ${explorer ? html`<a href=${explorer.url} target="_blank" rel="noopener noreferrer">${t.viewOn(explorer.name)}</a>` : html`<code>${part.tx_hash}</code>`}
          </li>`;
        })}
      </ul>
    </div>`;
  }

  /** A status line; `tone` colours it. */
  protected message(text: string, tone?: 'success' | 'failure'): TemplateResult {
    return html`<p part="message" class=${tone ?? ''} role=${tone === 'failure' ? 'alert' : 'status'}>${text}</p>`;
  }

  /** The transaction that paid the refund, and where to look it up. */
  protected transaction(data: T, hash: string | null): TemplateResult | typeof nothing {
    const { t } = this;
    if (!hash || !t) return nothing;
    const explorer = explorerOf({ chain_id: data.chain_id, rpc_url: this.rpcUrl || null }, hash);
    return html`<div part="transaction">
      <p>${t.transaction}: <code>${hash}</code></p>
      ${explorer ? html`<a href=${explorer.url} target="_blank" rel="noopener noreferrer">${t.viewOn(explorer.name)}</a>` : nothing}
    </div>`;
  }

  protected renderFailure(t: RefundMessages): TemplateResult | typeof nothing {
    const failure = this.failure;
    if (!failure) return nothing;
    return html`<div part="error" role="alert">
      <p>${failure.message(t)}</p>
      ${failure.retry ? html`<button type="button" @click=${failure.retry}>${t.retry}</button>` : nothing}
    </div>`;
  }
}
