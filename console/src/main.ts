/**
 * `<checkout-console>`: the merchant console's shell — sign-in with the receiving wallet (EIP-4361), the
 * navigation, the language, and the page of the address (`/console/…`), each page a chunk of its own fetched
 * the first time it is shown.
 */
import type { CheckoutClient } from '@checkout/client';
import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { type ConsoleSession, endSession, nonce, readSession, sessionClient, startSession } from './api.ts';
import { english, type Lang, languages, loadMessages, type Messages, startLanguage } from './i18n.ts';
import type { App } from './page.ts';
import { shared } from './styles.ts';

/** The pages by the first segment after `/console/`; each module defines its element. */
const pages: Record<string, { tag: string; load: () => Promise<unknown> }> = {
  '': { tag: 'console-home', load: () => import('./pages/home.ts') },
  payments: { tag: 'console-payments', load: () => import('./pages/payments.ts') },
  payment: { tag: 'console-payment', load: () => import('./pages/payment.ts') },
  refunds: { tag: 'console-refunds', load: () => import('./pages/refunds.ts') },
  inbox: { tag: 'console-inbox', load: () => import('./pages/inbox.ts') },
  products: { tag: 'console-products', load: () => import('./pages/products.ts') },
  webhooks: { tag: 'console-webhooks', load: () => import('./pages/webhooks.ts') },
  keys: { tag: 'console-keys', load: () => import('./pages/keys.ts') },
  audit: { tag: 'console-audit', load: () => import('./pages/audit.ts') },
  team: { tag: 'console-team', load: () => import('./pages/team.ts') },
};
const navigation = [
  '',
  'payments',
  'refunds',
  'inbox',
  'products',
  'webhooks',
  'keys',
  'team',
  'audit',
] as const;
const base = '/console';

/** The page and its parameter of a path under `/console`. */
function route(path: string): { page: string; param: string } {
  const [page = '', param = ''] = path.slice(base.length).replace(/^\/+/, '').split('/');
  return pages[page] ? { page, param: decodeURIComponent(param) } : { page: '', param: '' };
}

class CheckoutConsole extends LitElement {
  static override styles = [
    shared,
    css`
      :host { min-height: 100vh; }
      header, nav, main { padding: 0.5rem 1rem; }
      header { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; border-bottom: 1px solid var(--line); }
      header strong { margin-right: auto; }
      nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; border-bottom: 1px solid var(--line); }
      nav a[aria-current='page'] { font-weight: 600; text-decoration: none; }
      main { max-width: 64rem; }
      main:focus { outline: none; }
      .who { font-size: 0.8rem; overflow-wrap: anywhere; margin: 0 0 0.5rem; }
      .skip { position: absolute; left: -100vw; }
      .skip:focus { left: 0.5rem; top: 0.5rem; background: var(--bg); padding: 0.25rem 0.5rem; }
    `,
  ];
  /** Undefined while the session is read; null when nobody is signed in. */
  @state() private session: ConsoleSession | null | undefined;
  @state() private t: Messages = english;
  @state() private language: Lang = 'en';
  @state() private where = route(location.pathname);
  @state() private shown = new Set<string>();
  @state() private signIn: { busy: boolean; error?: string } = { busy: false };
  private app: App | undefined;
  /** The client of the signed-in session, on its receiving wallet. */
  private client: CheckoutClient | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', this.onPop);
    void this.setLanguage(startLanguage());
    void readSession().then(
      (session) => this.enter(session),
      () => this.enter(null),
    );
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPop);
  }

  private readonly onPop = () => this.go(location.pathname, false);

  /** Takes the signed-in session (or none): its client first, then its page. */
  private async enter(session: ConsoleSession | null): Promise<void> {
    this.app = undefined;
    this.client = undefined;
    if (session) {
      try {
        this.client = await sessionClient(session);
      } catch {
        session = null;
      }
    }
    this.session = session;
    if (session) await this.show(this.where.page);
  }

  private async setLanguage(lang: Lang): Promise<void> {
    this.t = await loadMessages(lang);
    this.language = lang;
    document.documentElement.lang = lang;
    document.title = this.t.title;
    this.app = undefined;
  }

  private async show(page: string): Promise<void> {
    const entry = pages[page];
    if (!entry || this.shown.has(page)) return;
    await entry.load();
    this.shown = new Set([...this.shown, page]);
  }

  /** Moves to `path` (under /console) without a reload; focus goes to the page's heading. */
  private go(path: string, push = true): void {
    if (push) history.pushState(null, '', path);
    this.where = route(path);
    void this.show(this.where.page).then(() =>
      this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('main')?.focus()),
    );
  }

  /** Links inside the console move without a reload. */
  private readonly onClick = (event: MouseEvent) => {
    const link = event.composedPath().find((n): n is HTMLAnchorElement => n instanceof HTMLAnchorElement);
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const url = new URL(link.href);
    if (url.origin !== location.origin || !url.pathname.startsWith(base) || link.target) return;
    event.preventDefault();
    this.go(url.pathname + url.search);
  };

  private async signInWithWallet(): Promise<void> {
    this.signIn = { busy: true };
    try {
      const wallet = await import('./wallet/sign-in-wallet.ts');
      try {
        const signed = await wallet.signInMessage(nonce, this.t.signIn);
        await this.enter(await startSession(signed.message, signed.signature));
        this.signIn = { busy: false };
      } catch (error) {
        const noWallet = error instanceof wallet.NoWalletError;
        this.signIn = { busy: false, error: noWallet ? this.t.noWallet : this.t.signInFailed };
      }
    } catch {
      this.signIn = { busy: false, error: this.t.signInFailed };
    }
  }

  private async signOut(): Promise<void> {
    await endSession().catch(() => {});
    await this.enter(null);
  }

  private appOf(session: ConsoleSession, client: CheckoutClient): App {
    this.app ??= {
      client,
      session,
      t: this.t,
      locale: this.language,
      navigate: (path) => this.go(path),
    };
    return this.app;
  }

  override render(): TemplateResult {
    const { t } = this;
    // The skip control is a button: a link's `#main` would not reach into the shadow root.
    return html`<header>
        <button class="skip" type="button" @click=${() => this.renderRoot.querySelector<HTMLElement>('main')?.focus()}>
          ${t.skip}
        </button>
        <strong>${t.title}</strong>
        <label class="lang">
          <span class="visually-hidden">${t.language}</span>
          <select @change=${(e: Event) => void this.setLanguage((e.target as HTMLSelectElement).value as Lang)}>
            ${languages.map((l) => html`<option value=${l} ?selected=${l === this.language}>${l.toUpperCase()}</option>`)}
          </select>
        </label>
        ${this.session ? html`<button type="button" @click=${() => void this.signOut()}>${t.signOut}</button>` : nothing}
      </header>
      ${this.session ? this.nav(t) : nothing}
      <main id="main" tabindex="-1" @click=${this.onClick}>${this.body(t)}</main>`;
  }

  private nav(t: Messages): TemplateResult {
    const names: Record<string, string> = {
      '': t.home,
      payments: t.payments,
      refunds: t.refunds,
      inbox: t.inbox,
      products: t.products,
      webhooks: t.webhooks,
      keys: t.keys,
      team: t.team.title,
      audit: t.audit,
    };
    const current = this.where.page === 'payment' ? 'payments' : this.where.page;
    return html`<nav aria-label=${t.nav} @click=${this.onClick}>
      ${navigation.map(
        (page) =>
          html`<a href=${page ? `${base}/${page}` : base} aria-current=${page === current ? 'page' : 'false'}>${names[page]}</a>`,
      )}
    </nav>`;
  }

  private body(t: Messages): TemplateResult {
    if (this.session === undefined) return html`<p role="status">${t.loading}</p>`;
    if (this.session === null)
      return html`<h1>${t.signIn}</h1>
        <p>${t.signInIntro}</p>
        <button class="primary" type="button" ?disabled=${this.signIn.busy} @click=${() => void this.signInWithWallet()}>
          ${t.signInButton}
        </button>
        ${this.signIn.busy ? html`<p role="status">${t.signingIn}</p>` : nothing}
        ${this.signIn.error ? html`<p role="alert" class="error">${this.signIn.error}</p>` : nothing}`;
    const { page, param } = this.where;
    if (!this.client || !this.shown.has(page)) return html`<p role="status">${t.loading}</p>`;
    const app = this.appOf(this.session, this.client);
    return html`<p class="muted who">${t.signedInAs(this.session.wallet, this.session.role)}</p>${this.page(app, page, param)}`;
  }

  private page(app: App, page: string, param: string): TemplateResult {
    switch (page) {
      case 'payments':
        return html`<console-payments .app=${app}></console-payments>`;
      case 'payment':
        return html`<console-payment .app=${app} .paymentId=${param}></console-payment>`;
      case 'refunds':
        return html`<console-refunds .app=${app}></console-refunds>`;
      case 'inbox':
        return html`<console-inbox .app=${app}></console-inbox>`;
      case 'products':
        return html`<console-products .app=${app}></console-products>`;
      case 'webhooks':
        return html`<console-webhooks .app=${app}></console-webhooks>`;
      case 'keys':
        return html`<console-keys .app=${app}></console-keys>`;
      case 'audit':
        return html`<console-audit .app=${app}></console-audit>`;
      case 'team':
        return html`<console-team .app=${app}></console-team>`;
      default:
        return html`<console-home .app=${app}></console-home>`;
    }
  }
}

if (!customElements.get('checkout-console')) customElements.define('checkout-console', CheckoutConsole);
