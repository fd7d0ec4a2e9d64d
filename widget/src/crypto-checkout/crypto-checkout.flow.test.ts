// @vitest-environment happy-dom
/** The element's wallet steps with a scripted wallet module and a recorded public API. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import './crypto-checkout.ts';
import { toUnits } from '../amount.ts';
import type { CheckoutSession, CheckoutView } from '../api.ts';
import type { PaymentOrder, PaymentPlan, WalletFlow, WalletModule } from '../wallet/types.ts';
import type { CryptoCheckout } from './crypto-checkout.ts';

const busd = {
  symbol: 'BUSD',
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  name: 'BUSD Token',
  decimal_count: 18,
  blockchain: 'binance-smart-chain',
  network: 'testnet',
  chain_id: 97,
};
const usdc = {
  ...busd,
  symbol: 'USDC',
  name: 'USD Coin',
  address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
};

const openView: CheckoutView = {
  slug: 'tip-jar',
  name: 'Tip jar',
  active: true,
  is_test: true,
  sends_receipt: false,
  token: busd,
  payment_tokens: [busd, usdc],
  custom_fields: [],
  open_amount: true,
  swappable: true,
  tax_rate: 0,
  expires_in_minutes: 30,
  receiving_address: '0xE242783c186CcBe3a0021DAf39D7e424A2E28DbF',
  chain_id: 97,
  blockchain: 'binance-smart-chain',
  network: 'testnet',
  router_address: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  rpc_url: 'http://127.0.0.1:8545',
  required_confirmations: 1,
  success_url: '',
  failure_url: '',
  expected_payment: null,
};

const payer = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const reference = `0x${'5e'.repeat(32)}`;

/** The service's direct transaction of a session: `transfer(receiving, amount)` and the reference. */
const transactionOf = (amount: string) => ({
  chain_id: 97,
  to: busd.address,
  data: `0xa9059cbb${openView.receiving_address.slice(2).toLowerCase().padStart(64, '0')}${toUnits(amount, 18)
    .toString(16)
    .padStart(64, '0')}${reference.slice(2)}`,
  value: '0' as const,
});

/**
 * A public API that keeps one expected payment and session per expected payment, and records every call.
 * Like the service, it gives a new session's opener a secret, changes an existing session only for a
 * request that carries it (any other is answered the session as it is, without a secret), and closes a
 * session only with it.
 */
function recordingServer(view: CheckoutView) {
  const posts: Array<Record<string, string>> = [];
  /** The `X-Client-Secret` of each post, in order (null: none). */
  const postSecrets: Array<string | null> = [];
  const closed: string[] = [];
  /** Closes refused for a missing or wrong secret. */
  const refusedCloses: string[] = [];
  const secrets = new Map<string, string>();
  /** The amount the service holds for the next session (the price plus a tail when another holds it). */
  let nextAmount: ((dollars: string) => string) | undefined;
  /** Whether the next re-post by the opener is answered without its secret. */
  let withholdSecret = false;
  const submitted: string[] = [];
  const sessions = new Map<string, CheckoutSession>();
  /** How the service answers a hash; by default the session resolves with it. */
  let answerSubmit = (session: CheckoutSession, hash: string): { status: number; body: unknown } => {
    const next: CheckoutSession = {
      ...session,
      status: 'resolved',
      tx_hash: hash,
      confirmations: 1,
      resolved_payment_id: '20000000-0000-4000-8000-000000000001',
    };
    sessions.set(session.expected_payment_id, next);
    return { status: 200, body: { session: next } };
  };
  let payments = 0;
  const fetch = vi.fn(async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const secret = (init?.headers as Record<string, string> | undefined)?.['x-client-secret'] ?? null;
    if (init?.method === 'POST' && url.pathname === `/api/v1/checkout/${view.slug}/sessions`) {
      const body = JSON.parse(String(init.body)) as Record<string, string>;
      posts.push(body);
      postSecrets.push(secret);
      const expectedPaymentId =
        body.expected_payment_id ?? `00000000-0000-4000-8000-00000000000${++payments}`;
      const existing = sessions.get(expectedPaymentId);
      if (existing && secrets.get(existing.id) !== secret)
        return json(200, { session: existing, client_secret: null });
      const now = new Date().toISOString();
      const dollars = body.dollar_amount ?? existing?.dollar_amount ?? '0';
      const amount = existing?.expected_token_amount ?? nextAmount?.(dollars) ?? String(Number(dollars));
      const token = body.token_address ?? busd.address;
      const next: CheckoutSession = {
        id: existing?.id ?? `10000000-0000-4000-8000-00000000000${sessions.size + 1}`,
        expected_payment_id: expectedPaymentId,
        status: 'awaiting_payment',
        dollar_amount: dollars,
        expected_token: busd,
        expected_token_amount: amount,
        payment_token_address: token,
        receiving_address: view.receiving_address,
        sender_address: body.sender_address ?? payer,
        reference,
        transaction: token === busd.address ? transactionOf(amount) : null,
        deposit_address: null,
        payment_uri: null,
        tx_hash: null,
        confirmations: 0,
        required_confirmations: 1,
        resolved_payment_id: null,
        late: false,
        error: null,
        unmatched_transfers: [],
        expires_at: existing?.expires_at ?? new Date(Date.now() + 30 * 60_000).toISOString(),
        created_at: now,
        updated_at: now,
      };
      sessions.set(expectedPaymentId, next);
      if (!existing) secrets.set(next.id, `cs_${next.id.slice(-4)}`);
      const answered = withholdSecret && existing ? null : (secrets.get(next.id) ?? null);
      if (existing) withholdSecret = false;
      return json(200, { session: next, client_secret: answered });
    }
    if (url.pathname === `/api/v1/checkout/${view.slug}`) return json(200, { checkout: view });
    const byId = [...sessions.values()].find((s) =>
      url.pathname.startsWith(`/api/v1/checkout/sessions/${s.id}`),
    );
    if (byId && init?.method === 'POST' && url.pathname.endsWith('/close')) {
      if (!secret || secrets.get(byId.id) !== secret) {
        refusedCloses.push(byId.id);
        return json(403, { error_code: 'forbidden', message: 'Forbidden', errors: [] });
      }
      closed.push(byId.id);
      const next = { ...byId, status: 'closed' as const };
      sessions.set(byId.expected_payment_id, next);
      return json(200, { session: next });
    }
    if (byId && init?.method === 'POST' && url.pathname.endsWith('/transactions')) {
      const { tx_hash: hash } = JSON.parse(String(init.body)) as { tx_hash: string };
      submitted.push(hash);
      const answer = answerSubmit(byId, hash);
      return json(answer.status, answer.body);
    }
    if (byId && url.pathname === `/api/v1/checkout/sessions/${byId.id}`) return json(200, { session: byId });
    return json(404, { error_code: 'not_found', message: 'Not found', errors: [] });
  });
  /** The only session, as the service holds it. */
  const only = () => [...sessions.values()].at(-1)!;
  return {
    fetch,
    posts,
    postSecrets,
    sessions,
    secrets,
    closed,
    refusedCloses,
    submitted,
    only,
    /** Changes the session on the service's side (another tab, the chain), without telling the page. */
    change(patch: Partial<CheckoutSession>) {
      const next = { ...only(), ...patch };
      sessions.set(next.expected_payment_id, next);
      return next;
    },
    onSubmit(answer: typeof answerSubmit) {
      answerSubmit = answer;
    },
    /** Makes the service hold `amount(dollars)` for each new session. */
    holdAmounts(amount: (dollars: string) => string) {
      nextAmount = amount;
    },
    /** Answers the opener's next re-post without its secret (as for anyone else). */
    withholdNextSecret() {
      withholdSecret = true;
    },
  };
}

/** A wallet module whose wallet holds `balances` (whole tokens) and pays with what the element chose. */
function scriptedWallet(balances: Record<string, number>) {
  const paid: PaymentPlan[] = [];
  /** What the element asked each payment to send. */
  const orders: PaymentOrder[] = [];
  /** The amounts the ways to pay were asked for. */
  const asked: string[] = [];
  const flow: WalletFlow = {
    address: payer,
    async options(amount) {
      asked.push(amount);
      const need = Number(amount); // test data only: small amounts
      const options: PaymentPlan[] = [];
      if ((balances.BUSD ?? 0) > 0)
        options.push({
          kind: 'direct',
          payToken: busd,
          amount,
          needsApproval: false,
          balance: String(balances.BUSD),
          covers: (balances.BUSD ?? 0) >= need,
        });
      if ((balances.USDC ?? 0) > 0)
        options.push({
          kind: 'swap',
          payToken: usdc,
          amount,
          spend: amount,
          spendMax: `${amount}.05`,
          needsApproval: true,
          balance: String(balances.USDC),
          covers: (balances.USDC ?? 0) > need,
        });
      if (!options.some((o) => o.covers))
        throw Object.assign(new Error('low'), {
          name: 'InsufficientBalanceError',
          holdings: Object.entries(balances).map(([symbol, balance]) => ({
            symbol,
            balance: String(balance),
          })),
        });
      return options;
    },
    async pay(plan, order) {
      paid.push(plan);
      orders.push(order);
      return `0x${'cd'.repeat(32)}`;
    },
  };
  const module: WalletModule = {
    startWalletFlow: vi.fn(async () => flow),
    classifyWalletError: (error) =>
      (error as Error).name === 'InsufficientBalanceError' ? 'insufficient' : 'unknown',
  };
  return { module, paid, orders, asked, flow };
}

const root = (el: CryptoCheckout) => el.shadowRoot!;
const text = (el: CryptoCheckout) => root(el).textContent?.replace(/\s+/g, ' ') ?? '';

async function settle(el: CryptoCheckout, until: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !until(); i++) {
    await new Promise((r) => setTimeout(r, 5));
    await el.updateComplete;
  }
}

async function mountOpen(view: CheckoutView, module: WalletModule): Promise<CryptoCheckout> {
  vi.stubGlobal('ethereum', { request: vi.fn() });
  const el = document.createElement('crypto-checkout');
  el.setAttribute('slug', view.slug);
  el.setAttribute('api-base', 'http://shop.test');
  (el as unknown as { loadWallet(): Promise<WalletModule> }).loadWallet = async () => module;
  document.body.append(el);
  await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
  return el;
}

function type(el: CryptoCheckout, id: string, value: string): void {
  const input = root(el).querySelector<HTMLInputElement>(`#${id}`)!;
  input.value = value;
  input.dispatchEvent(new Event('input'));
}

const click = (el: CryptoCheckout, selector: string) =>
  root(el).querySelector<HTMLButtonElement>(selector)!.click();

const buttonNamed = (el: CryptoCheckout, name: string) =>
  [...root(el).querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.trim() === name);

/** An event stream the test feeds: each `send` reaches the element as the service's `session` event. */
class FeedEventSource {
  static readonly CONNECTING = 0;
  static opened: FeedEventSource[] = [];
  readonly readyState = 0;
  onerror: (() => void) | null = null;
  readonly url: string;
  closed = false;
  private readonly listeners: Array<(event: MessageEvent<string>) => void> = [];
  constructor(url: string) {
    this.url = url;
    FeedEventSource.opened.push(this);
  }
  addEventListener(_type: 'session', listener: (event: MessageEvent<string>) => void): void {
    this.listeners.push(listener);
  }
  close(): void {
    this.closed = true;
  }
  send(session: CheckoutSession): void {
    for (const listener of this.listeners)
      listener({ data: JSON.stringify(session) } as MessageEvent<string>);
  }
  /** The open stream of the page's session. */
  static of(session: CheckoutSession): FeedEventSource {
    const open = FeedEventSource.opened.filter((s) => !s.closed && s.url.includes(session.id));
    if (open.length !== 1) throw new Error(`${open.length} open streams of ${session.id}`);
    return open[0]!;
  }
}

describe('<crypto-checkout> wallet steps', () => {
  beforeEach(() => {
    document.documentElement.lang = 'en';
    FeedEventSource.opened = [];
    vi.stubGlobal('EventSource', FeedEventSource);
    // Session ids repeat from test to test here: no hash kept by an earlier one.
    sessionStorage.clear();
  });
  afterEach(() => {
    document.body.replaceChildren();
    vi.unstubAllGlobals();
  });

  it('keeps one expected payment and session per open amount across wallet picks; a new amount starts a new one', async () => {
    const server = recordingServer(openView);
    vi.stubGlobal('fetch', server.fetch);
    const { module } = scriptedWallet({ BUSD: 100 });
    const el = await mountOpen(openView, module);
    type(el, 'amount', '12.50');
    type(el, 'email', 'shopper@example.com');

    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Pay now'));
    buttonNamed(el, 'Use another wallet')!.click();
    await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Pay now'));

    expect(server.posts).toHaveLength(2);
    const [first] = [...server.sessions.keys()];
    expect(server.posts[0]).toMatchObject({ dollar_amount: '12.50' });
    expect(server.posts[1]).toMatchObject({ expected_payment_id: first });
    expect(server.posts[1]!.dollar_amount).toBeUndefined();
    expect(server.sessions.size).toBe(1);
    // The opener's secret, given with the new session, goes with the re-post that changes it, and is kept for the tab.
    const opened = server.only().id;
    expect(server.postSecrets).toEqual([null, server.secrets.get(opened)]);
    expect(sessionStorage.getItem(`crypto-checkout:secret:${opened}`)).toBe(server.secrets.get(opened));

    // Another amount: the old countdown goes with its session, and the next pick opens a new attempt.
    buttonNamed(el, 'Use another wallet')!.click();
    await settle(el, () => !!root(el).querySelector('#amount'));
    expect(root(el).querySelector('[part="timer"]')).not.toBeNull();
    type(el, 'amount', '20');
    await el.updateComplete;
    expect(root(el).querySelector('[part="timer"]')).toBeNull();
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Pay now'));
    expect(server.posts[2]).toMatchObject({ dollar_amount: '20.00' });
    expect(server.sessions.size).toBe(2);
  });

  it('clears a wallet error when the amount changes, and focuses the way on after one', async () => {
    const server = recordingServer(openView);
    vi.stubGlobal('fetch', server.fetch);
    const { module } = scriptedWallet({ BUSD: 10 });
    const el = await mountOpen(openView, module);
    type(el, 'email', 'shopper@example.com');
    type(el, 'amount', '50000');
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('does not hold enough'));
    expect(text(el)).toContain('Your wallet does not hold enough to pay 50,000 BUSD. It holds 10 BUSD.');
    expect(root(el).activeElement?.textContent).toBe('Try again');

    type(el, 'amount', '5');
    await el.updateComplete;
    expect(text(el)).not.toContain('does not hold enough');
    expect(root(el).querySelector('[part="error"]')).toBeNull();
  });

  it('reads the amount in the page language and refuses one above the service cap', async () => {
    document.documentElement.lang = 'pt-BR';
    const server = recordingServer(openView);
    vi.stubGlobal('fetch', server.fetch);
    const { module } = scriptedWallet({ BUSD: 100 });
    const el = await mountOpen(openView, module);
    type(el, 'email', 'shopper@example.com');
    type(el, 'amount', '1.000.000.000,01');
    await el.updateComplete;
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('não pode passar'));
    expect(text(el)).toContain('O valor não pode passar de US$ 1.000.000.000,00.');
    expect(server.posts).toHaveLength(0);

    type(el, 'amount', '12,50');
    await el.updateComplete;
    expect(text(el)).toContain('US$ 12,50');
    click(el, '[part="wallet-button"]');
    await settle(el, () => server.posts.length > 0);
    expect(server.posts[0]).toMatchObject({ dollar_amount: '12.50' });
  });

  it('lets the shopper pay with another stablecoin of the wallet, telling the service first', async () => {
    const server = recordingServer(openView);
    vi.stubGlobal('fetch', server.fetch);
    const { module, paid } = scriptedWallet({ BUSD: 100, USDC: 3 });
    const el = await mountOpen(openView, module);
    type(el, 'email', 'shopper@example.com');
    type(el, 'amount', '2');
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Pay now'));

    const choice = root(el).querySelector('[part="token-choice"]')!;
    expect(choice.textContent?.replace(/\s+/g, ' ')).toContain('BUSD Direct transfer Balance: 100 BUSD');
    expect(choice.textContent?.replace(/\s+/g, ' ')).toContain(
      'USDC Swap: at most 2.05 USDC Balance: 3 USDC',
    );
    const radios = [...choice.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
    expect(radios.map((r) => r.checked)).toEqual([true, false]);
    radios[1]!.click();
    await el.updateComplete;
    expect(text(el)).toContain('You spend at most 2.05 USDC');

    buttonNamed(el, 'Pay now')!.click();
    await settle(el, () => paid.length > 0);
    expect(paid[0]?.payToken.symbol).toBe('USDC');
    expect(server.posts.map((p) => p.token_address)).toEqual([busd.address, usdc.address]);
    // The shopper's language goes with the session, for the receipt.
    expect(server.posts[0]).toMatchObject({ locale: 'en' });
    expect(server.posts[1]).toMatchObject({ expected_payment_id: [...server.sessions.keys()][0] });
    expect(server.sessions.size).toBe(1);
  });

  it('offers to start an open amount again after it expired, without redirecting', async () => {
    const server = recordingServer({ ...openView, failure_url: 'https://shop.example/sorry' });
    vi.stubGlobal('fetch', server.fetch);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: 'http://shop.test' });
    const { module } = scriptedWallet({ BUSD: 100 });
    const el = await mountOpen({ ...openView, failure_url: 'https://shop.example/sorry' }, module);
    type(el, 'email', 'shopper@example.com');
    type(el, 'amount', '3');
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Pay now'));
    const failures: string[] = [];
    el.addEventListener('checkout-failure', (e) => failures.push(e.detail.reason));
    // The session's time runs out.
    (el as unknown as { payment: { state: { onExpired(): void } } }).payment.state.onExpired();
    await settle(el, () => text(el).includes('Start again'));
    expect(failures).toEqual(['expired']);
    expect(assign).not.toHaveBeenCalled();
    expect(root(el).activeElement?.textContent?.trim()).toBe('Start again');

    buttonNamed(el, 'Start again')!.click();
    await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
    expect(root(el).querySelector<HTMLInputElement>('#amount')?.value).toBe('3');
    expect(root(el).activeElement?.id).toBe('amount');
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Pay now'));
    expect(server.posts[1]).toMatchObject({ dollar_amount: '3.00' });
    expect(server.sessions.size).toBe(2);
  });

  it('shows no form without an amount, and pre-fills the e-mail it is given', async () => {
    const server = recordingServer({ ...openView, open_amount: false });
    vi.stubGlobal('fetch', server.fetch);
    const el = document.createElement('crypto-checkout');
    el.setAttribute('slug', openView.slug);
    el.setAttribute('api-base', 'http://shop.test');
    el.setAttribute('email', 'ada@example.com');
    document.body.append(el);
    await settle(el, () => text(el).includes('needs a payment link'));
    expect(root(el).querySelector('form, input')).toBeNull();

    vi.stubGlobal('fetch', recordingServer(openView).fetch);
    const open = document.createElement('crypto-checkout');
    open.setAttribute('slug', openView.slug);
    open.setAttribute('api-base', 'http://shop.test');
    open.setAttribute('email', 'ada@example.com');
    document.body.append(open);
    await settle(open, () => !!root(open).querySelector('#email'));
    expect(root(open).querySelector<HTMLInputElement>('#email')?.value).toBe('ada@example.com');
  });

  /** An open amount of 5 BUSD picked with the scripted wallet, on review. */
  const reviewing = async (balances: Record<string, number> = { BUSD: 100 }) => {
    const server = recordingServer(openView);
    vi.stubGlobal('fetch', server.fetch);
    const wallet = scriptedWallet(balances);
    const el = await mountOpen(openView, wallet.module);
    type(el, 'email', 'shopper@example.com');
    type(el, 'amount', '5');
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Pay now'));
    return { el, server, wallet };
  };

  it('follows its session from the moment it opens: paid in another tab, it shows paid and offers no Pay now', async () => {
    const { el, server, wallet } = await reviewing();
    const outcomes: string[] = [];
    el.addEventListener('checkout-success', (e) => {
      e.preventDefault();
      outcomes.push(e.type);
    });
    const other = `0x${'ef'.repeat(32)}`;
    FeedEventSource.of(server.only()).send(
      server.change({
        status: 'resolved',
        tx_hash: other,
        confirmations: 1,
        resolved_payment_id: 'rp_other',
      }),
    );
    await settle(el, () => text(el).includes('Payment received'));
    expect(buttonNamed(el, 'Pay now')).toBeUndefined();
    expect(wallet.paid).toEqual([]);
    expect(outcomes).toEqual(['checkout-success']);
    // Nothing of this tab's was sent, so nothing is said about an unused transaction.
    expect(text(el)).not.toContain('did not pay');
  });

  it('reads the session again right before the wallet is asked: a paid session is shown, nothing is signed', async () => {
    const { el, server, wallet } = await reviewing();
    el.addEventListener('checkout-success', (e) => e.preventDefault());
    // Paid elsewhere; the page's stream has not told it yet.
    server.change({ status: 'resolved', tx_hash: `0x${'ef'.repeat(32)}`, confirmations: 1 });
    buttonNamed(el, 'Pay now')!.click();
    await settle(el, () => text(el).includes('Payment received'));
    expect(wallet.paid).toEqual([]);
    expect(server.submitted).toEqual([]);
  });

  it("shows the true state when the service does not take the hash, never a 5xx's own words", async () => {
    const { el, server, wallet } = await reviewing();
    el.addEventListener('checkout-success', (e) => e.preventDefault());
    server.onSubmit(() => ({
      status: 503,
      body: {
        error_code: 'service_unavailable',
        message: 'The workflow service (Temporal) did not take the transaction; retry',
        errors: [],
      },
    }));
    buttonNamed(el, 'Pay now')!.click();
    await settle(el, () => !!root(el).querySelector('[part="error"]'));
    expect(text(el)).toContain('The checkout service could not answer just now.');
    expect(text(el)).not.toContain('Temporal');
    expect(text(el)).toContain('Payment sent. Waiting for the network');
    expect(buttonNamed(el, 'Pay now')).toBeUndefined();

    // The same hash is handed over again: nothing is signed twice.
    server.onSubmit((session, hash) => {
      const next = { ...session, status: 'resolved' as const, tx_hash: hash, confirmations: 1 };
      server.sessions.set(session.expected_payment_id, next);
      return { status: 200, body: { session: next } };
    });
    buttonNamed(el, 'Try again')!.click();
    await settle(el, () => text(el).includes('Payment received'));
    expect(wallet.paid).toHaveLength(1);
    expect(server.submitted).toEqual([`0x${'cd'.repeat(32)}`, `0x${'cd'.repeat(32)}`]);
  });

  it('shows a checkout paid by another transaction as paid when the hash gets 409, and says its own paid nothing', async () => {
    const { el, server } = await reviewing();
    el.addEventListener('checkout-success', (e) => e.preventDefault());
    server.onSubmit(() => {
      server.change({ status: 'resolved', tx_hash: `0x${'ef'.repeat(32)}`, confirmations: 1 });
      return {
        status: 409,
        body: { error_code: 'checkout_already_paid', message: 'This checkout is already paid', errors: [] },
      };
    });
    buttonNamed(el, 'Pay now')!.click();
    await settle(el, () => text(el).includes('Payment received'));
    expect(root(el).querySelector('[part="error"]')).toBeNull();
    expect(text(el)).toContain('Your transaction 0xcdcd…cdcd did not pay this checkout');
    expect(text(el)).toContain('Transaction: 0xefef…efef');
  });

  it('closes the attempts it gives up: another amount, another wallet, and Start again', async () => {
    const { el, server, wallet } = await reviewing();
    const first = server.only().id;
    buttonNamed(el, 'Use another wallet')!.click();
    await settle(el, () => !!root(el).querySelector('#amount:not([disabled])'));
    type(el, 'amount', '6');
    await settle(el, () => server.closed.length === 1);
    expect(server.closed).toEqual([first]);

    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Pay now'));
    const second = server.only().id;
    expect(second).not.toBe(first);
    // The same wallet again continues the attempt; another account gives it up for a new one.
    buttonNamed(el, 'Use another wallet')!.click();
    await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
    wallet.flow.address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Pay now'));
    expect(server.closed).toEqual([first, second]);
    expect(server.posts.at(-1)).toMatchObject({ dollar_amount: '6.00', sender_address: wallet.flow.address });

    el.addEventListener('checkout-failure', (e) => e.preventDefault());
    (el as unknown as { payment: { state: { onExpired(): void } } }).payment.state.onExpired();
    await settle(el, () => !!buttonNamed(el, 'Start again'));
    const third = server.only().id;
    buttonNamed(el, 'Start again')!.click();
    await settle(el, () => server.closed.length === 3);
    expect(server.closed).toEqual([first, second, third]);
    // Each close carried its session's secret.
    expect(server.refusedCloses).toEqual([]);
  });

  it('keeps the secret it holds when the service answers a re-post without one, and closes with it', async () => {
    const { el, server } = await reviewing();
    const id = server.only().id;
    server.withholdNextSecret();
    buttonNamed(el, 'Use another wallet')!.click();
    await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
    click(el, '[part="wallet-button"]');
    await settle(el, () => server.posts.length === 2 && text(el).includes('Pay now'));
    expect(server.postSecrets[1]).toBe(server.secrets.get(id));
    expect(sessionStorage.getItem(`crypto-checkout:secret:${id}`)).toBe(server.secrets.get(id));

    buttonNamed(el, 'Use another wallet')!.click();
    await settle(el, () => !!root(el).querySelector('#amount:not([disabled])'));
    type(el, 'amount', '6');
    await settle(el, () => server.closed.length === 1);
    expect(server.closed).toEqual([id]);
  });

  it('asks nothing to close a resumed session whose secret the tab no longer holds (storage disabled)', async () => {
    const server = recordingServer(openView);
    vi.stubGlobal('fetch', server.fetch);
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      { type: 'reload' } as unknown as PerformanceEntry,
    ]);
    const now = new Date().toISOString();
    const id = '10000000-0000-4000-8000-0000000000c1';
    server.sessions.set('00000000-0000-4000-8000-0000000000c1', {
      id,
      expected_payment_id: '00000000-0000-4000-8000-0000000000c1',
      status: 'awaiting_payment',
      dollar_amount: '3.00',
      expected_token: busd,
      expected_token_amount: '3',
      payment_token_address: busd.address,
      receiving_address: openView.receiving_address,
      sender_address: payer,
      reference,
      transaction: transactionOf('3'),
      deposit_address: null,
      payment_uri: null,
      tx_hash: null,
      confirmations: 0,
      required_confirmations: 1,
      resolved_payment_id: null,
      late: false,
      unmatched_transfers: [],
      error: null,
      expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
      created_at: now,
      updated_at: now,
    });
    server.secrets.set(id, 'cs_lost');
    sessionStorage.setItem('crypto-checkout:attempt:tip-jar', id);
    const { module } = scriptedWallet({ BUSD: 100 });
    const el = await mountOpen(openView, module);
    expect(root(el).querySelector<HTMLInputElement>('#amount')?.value).toBe('3.00');
    type(el, 'amount', '4');
    await settle(el, () => !root(el).querySelector('[part="timer"]'));
    await new Promise((r) => setTimeout(r, 20));
    expect(server.fetch.mock.calls.filter(([url]) => String(url).endsWith('/close'))).toEqual([]);
    vi.restoreAllMocks();
  });

  it('pays the session as the service has it: its transaction directly, a swap for its exact amount with its reference', async () => {
    const direct = await reviewing();
    buttonNamed(direct.el, 'Pay now')!.click();
    await settle(direct.el, () => direct.wallet.orders.length > 0);
    expect(direct.wallet.orders[0]).toMatchObject({
      expected_token_amount: '5',
      reference,
      transaction: transactionOf('5'),
    });
    document.body.replaceChildren();
    sessionStorage.clear();

    const swap = await reviewing({ BUSD: 100, USDC: 10 });
    root(swap.el).querySelectorAll<HTMLInputElement>('[part="token-choice"] input')[1]!.click();
    await swap.el.updateComplete;
    buttonNamed(swap.el, 'Pay now')!.click();
    await settle(swap.el, () => swap.wallet.orders.length > 0);
    expect(swap.wallet.paid[0]?.kind).toBe('swap');
    // Told the swap's token first (with the secret), the service answers a session without a direct transaction.
    expect(swap.server.posts.at(-1)).toMatchObject({ token_address: usdc.address });
    expect(swap.server.postSecrets.at(-1)).toBe(swap.server.secrets.get(swap.server.only().id));
    expect(swap.wallet.orders[0]).toMatchObject({ expected_token_amount: '5', reference, transaction: null });
  });

  it("makes the ways to pay for the session's exact amount when the service holds the price plus a tail", async () => {
    const server = recordingServer(openView);
    server.holdAmounts((dollars) => `${Number(dollars)}.000137`);
    vi.stubGlobal('fetch', server.fetch);
    const wallet = scriptedWallet({ BUSD: 100 });
    const el = await mountOpen(openView, wallet.module);
    type(el, 'email', 'shopper@example.com');
    type(el, 'amount', '5');
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Pay now'));
    expect(wallet.asked).toEqual(['5', '5.000137']);
    expect(text(el)).toContain('You send 5.000137 BUSD.');
    buttonNamed(el, 'Pay now')!.click();
    await settle(el, () => wallet.paid.length > 0);
    expect(wallet.paid[0]?.amount).toBe('5.000137');
    expect(wallet.orders[0]?.expected_token_amount).toBe('5.000137');
  });

  it('explains a hash the service cannot match to the session (neither its reference nor its exact amount)', async () => {
    const { el, server } = await reviewing();
    server.onSubmit(() => ({
      status: 422,
      body: {
        error_code: 'tx_not_for_session',
        message: 'The transaction does not carry this checkout session',
        errors: [],
      },
    }));
    buttonNamed(el, 'Pay now')!.click();
    await settle(el, () => !!root(el).querySelector('[part="error"]'));
    expect(root(el).querySelector('[part="error"]')?.textContent).toContain(
      "This transaction cannot be matched to this checkout: it carries neither the checkout's reference nor its exact amount.",
    );
    expect(text(el)).not.toContain('does not carry this checkout session');
  });

  it('shows a session closed on the service as closed, with no way to pay it', async () => {
    const { el, server } = await reviewing();
    el.addEventListener('checkout-failure', (e) => e.preventDefault());
    FeedEventSource.of(server.only()).send(server.change({ status: 'closed' }));
    await settle(el, () => text(el).includes('This checkout was closed.'));
    expect(buttonNamed(el, 'Pay now')).toBeUndefined();
    expect(root(el).querySelector('[aria-current="step"]')?.textContent).toContain('Closed');
    expect(buttonNamed(el, 'Start again')).toBeDefined();
  });

  it("resumes the tab's open-amount attempt on a reload or Back, and ignores one the service no longer knows", async () => {
    const server = recordingServer(openView);
    vi.stubGlobal('fetch', server.fetch);
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      { type: 'back_forward' } as unknown as PerformanceEntry,
    ]);
    const { module } = scriptedWallet({ BUSD: 100 });
    sessionStorage.setItem('crypto-checkout:attempt:tip-jar', '10000000-0000-4000-8000-00000000000f');
    const fresh = await mountOpen(openView, module);
    // Unknown to the service: the form, as on any visit.
    expect(root(fresh).querySelector<HTMLInputElement>('#amount')?.value).toBe('');
    fresh.remove();

    const now = new Date().toISOString();
    server.sessions.set('00000000-0000-4000-8000-00000000000e', {
      id: '10000000-0000-4000-8000-00000000000e',
      expected_payment_id: '00000000-0000-4000-8000-00000000000e',
      status: 'resolved',
      dollar_amount: '4.25',
      expected_token: busd,
      expected_token_amount: '4.25',
      payment_token_address: busd.address,
      receiving_address: openView.receiving_address,
      sender_address: payer,
      reference,
      transaction: transactionOf('4.25'),
      deposit_address: null,
      payment_uri: null,
      tx_hash: `0x${'ab'.repeat(32)}`,
      confirmations: 1,
      required_confirmations: 1,
      resolved_payment_id: 'rp_1',
      late: false,
      unmatched_transfers: [],
      error: null,
      expires_at: null,
      created_at: now,
      updated_at: now,
    });
    sessionStorage.setItem('crypto-checkout:attempt:tip-jar', '10000000-0000-4000-8000-00000000000e');
    const outcomes: string[] = [];
    document.addEventListener('checkout-success', (e) => outcomes.push(e.type));
    const back = document.createElement('crypto-checkout');
    back.setAttribute('slug', openView.slug);
    back.setAttribute('api-base', 'http://shop.test');
    document.body.append(back);
    await settle(back, () => text(back).includes('Payment received'));
    // Back on a paid checkout: shown as paid, no form, and not told (nor redirected) again.
    expect(root(back).querySelector('#amount')).toBeNull();
    expect(buttonNamed(back, 'Pay now')).toBeUndefined();
    expect(outcomes).toEqual([]);
    vi.restoreAllMocks();
  });

  it('shows a checkout paid in another tab when opening its session is refused, instead of an error', async () => {
    const expectedPaymentId = '00000000-0000-4000-8000-0000000000aa';
    const paid: CheckoutSession = {
      id: '10000000-0000-4000-8000-0000000000aa',
      expected_payment_id: expectedPaymentId,
      status: 'resolved',
      dollar_amount: '5.00',
      expected_token: busd,
      expected_token_amount: '5',
      payment_token_address: busd.address,
      receiving_address: openView.receiving_address,
      sender_address: payer,
      reference,
      transaction: transactionOf('5'),
      deposit_address: null,
      payment_uri: null,
      tx_hash: `0x${'ef'.repeat(32)}`,
      confirmations: 1,
      required_confirmations: 1,
      resolved_payment_id: 'rp_1',
      late: false,
      unmatched_transfers: [],
      error: null,
      expires_at: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    };
    let settled = false;
    const view = (): CheckoutView => ({
      ...openView,
      open_amount: false,
      expected_payment: {
        id: expectedPaymentId,
        dollar_amount: '5.00',
        expected_token_amount: '5',
        status: settled ? 'paid' : 'open',
        session_id: settled ? paid.id : null,
      },
    });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL, init?: RequestInit) => {
        const url = new URL(String(input));
        if (init?.method === 'POST') {
          // The other tab paid between this page's load and its wallet pick.
          settled = true;
          return json(409, { error_code: 'checkout_already_paid', message: 'Already paid', errors: [] });
        }
        if (url.pathname === `/api/v1/checkout/sessions/${paid.id}`) return json(200, { session: paid });
        return json(200, { checkout: view() });
      }),
    );
    vi.stubGlobal('ethereum', { request: vi.fn() });
    const el = document.createElement('crypto-checkout');
    el.setAttribute('slug', openView.slug);
    el.setAttribute('expected-payment', expectedPaymentId);
    el.setAttribute('api-base', 'http://shop.test');
    const { module } = scriptedWallet({ BUSD: 100 });
    (el as unknown as { loadWallet(): Promise<WalletModule> }).loadWallet = async () => module;
    el.addEventListener('checkout-success', (e) => e.preventDefault());
    document.body.append(el);
    await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
    type(el, 'email', 'shopper@example.com');
    click(el, '[part="wallet-button"]');
    await settle(el, () => text(el).includes('Payment received'));
    expect(root(el).querySelector('[part="error"]')).toBeNull();
    expect(buttonNamed(el, 'Pay now')).toBeUndefined();
  });
});
