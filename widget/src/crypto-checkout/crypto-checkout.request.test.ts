// @vitest-environment happy-dom
/** The element's payment from another device: a session without a payer, its QR code, and its events. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import './crypto-checkout.ts';
import type { CheckoutSession, CheckoutView } from '../api.ts';
import type { PaymentPlan, WalletModule } from '../wallet/types.ts';
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
const receiving = '0xE242783c186CcBe3a0021DAf39D7e424A2E28DbF';
const uri = `ethereum:${busd.address}@97/transfer?address=${receiving}&uint256=12500137000000000000`;
const view: CheckoutView = {
  slug: 'tea',
  name: 'Tea',
  active: true,
  is_test: true,
  sends_receipt: false,
  token: busd,
  payment_tokens: [busd],
  custom_fields: [],
  open_amount: false,
  swappable: false,
  tax_rate: 0,
  expires_in_minutes: 30,
  receiving_address: receiving,
  chain_id: 97,
  blockchain: 'binance-smart-chain',
  network: 'testnet',
  router_address: null,
  rpc_url: 'http://127.0.0.1:8545',
  required_confirmations: 1,
  success_url: '',
  failure_url: '',
  expected_payment: {
    id: '00000000-0000-4000-8000-000000000001',
    dollar_amount: '12.50',
    expected_token_amount: '12.5',
    status: 'open',
    session_id: null,
  },
};
const session: CheckoutSession = {
  id: '10000000-0000-4000-8000-000000000001',
  expected_payment_id: view.expected_payment!.id,
  status: 'awaiting_payment',
  dollar_amount: '12.50',
  expected_token: busd,
  expected_token_amount: '12.500137',
  payment_token_address: busd.address,
  receiving_address: receiving,
  sender_address: null,
  reference: `0x${'5e'.repeat(32)}`,
  transaction: {
    chain_id: 97,
    to: busd.address,
    data: `0xa9059cbb${receiving.slice(2).toLowerCase().padStart(64, '0')}${(12500137n * 10n ** 12n).toString(16).padStart(64, '0')}${'5e'.repeat(32)}`,
    value: '0',
  },
  deposit_address: null,
  payment_uri: uri,
  unmatched_transfers: [],
  tx_hash: null,
  confirmations: 0,
  required_confirmations: 1,
  resolved_payment_id: null,
  late: false,
  error: null,
  expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
};

/** An EventSource the test feeds: every `session` event it sends reaches the element. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  readonly url: string;
  onerror: (() => void) | null = null;
  private readonly listeners: Array<(event: MessageEvent<string>) => void> = [];
  constructor(url: string) {
    this.url = url;
    FakeEventSource.opened.push(this);
  }
  addEventListener(_type: 'session', listener: (event: MessageEvent<string>) => void): void {
    this.listeners.push(listener);
  }
  close(): void {}
  send(next: CheckoutSession): void {
    for (const listener of this.listeners) listener({ data: JSON.stringify(next) } as MessageEvent<string>);
  }
}

const root = (el: CryptoCheckout) => el.shadowRoot!;
const text = (el: CryptoCheckout) => root(el).textContent?.replace(/\s+/g, ' ') ?? '';

async function settle(el: CryptoCheckout, until: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !until(); i++) {
    await new Promise((r) => setTimeout(r, 5));
    await el.updateComplete;
  }
}

describe('<crypto-checkout> paying from another device', () => {
  let posts: Array<Record<string, unknown>>;
  beforeEach(() => {
    document.documentElement.lang = 'en';
    posts = [];
    FakeEventSource.opened = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL, init?: RequestInit) => {
        const url = new URL(String(input));
        const json = (body: unknown) =>
          new Response(JSON.stringify(body), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
        if (init?.method === 'POST' && url.pathname === '/api/v1/checkout/tea/sessions') {
          const body = JSON.parse(String(init.body)) as Record<string, unknown>;
          posts.push(body);
          return json({ session: { ...session, sender_address: body.sender_address ?? null } });
        }
        return json({ checkout: view });
      }),
    );
  });
  afterEach(() => {
    document.body.replaceChildren();
    vi.unstubAllGlobals();
  });

  const mount = async (module?: WalletModule) => {
    if (module) vi.stubGlobal('ethereum', { request: vi.fn() });
    const el = document.createElement('crypto-checkout');
    el.setAttribute('slug', 'tea');
    el.setAttribute('expected-payment', view.expected_payment!.id);
    el.setAttribute('api-base', 'http://shop.test');
    if (module) (el as unknown as { loadWallet(): Promise<WalletModule> }).loadWallet = async () => module;
    document.body.append(el);
    await settle(el, () => !!root(el).querySelector('[part="other-device"]'));
    return el;
  };

  it('opens a session without a payer, shows its request, and follows its events to paid', async () => {
    const el = await mount();
    expect(text(el)).toContain('No wallet found in this browser.');
    const email = root(el).querySelector<HTMLInputElement>('#email')!;
    email.value = 'shopper@example.com';
    email.dispatchEvent(new Event('input'));
    root(el).querySelector<HTMLButtonElement>('[part="other-device"]')!.click();
    await settle(el, () => !!root(el).querySelector('[part="payment-request"] svg'));

    expect(posts).toEqual([
      {
        expected_payment_id: view.expected_payment!.id,
        email: 'shopper@example.com',
        custom_fields: {},
        token_address: busd.address,
        locale: 'en',
      },
    ]);
    const panel = root(el).querySelector('[part="payment-request"]')!;
    expect(panel.querySelector('svg')!.getAttribute('aria-label')).toBe(
      `QR code of the payment request ${uri}`,
    );
    expect(panel.querySelector('textarea')!.value).toBe(uri);
    expect(text(el)).toContain('Send exactly 12.500137 BUSD on');
    expect(root(el).activeElement?.textContent).toBe('Copy payment request');

    // The session's events drive the same screens as a wallet payment.
    const [stream] = FakeEventSource.opened;
    expect(stream!.url).toBe(`http://shop.test/api/v1/checkout/sessions/${session.id}/events`);
    stream!.send({ ...session, status: 'confirming', tx_hash: `0x${'ab'.repeat(32)}`, confirmations: 0 });
    await settle(el, () => text(el).includes('Payment sent'));
    expect(root(el).querySelector('[part="payment-request"]')).toBeNull();
    const paid = new Promise<CustomEvent>((resolve) =>
      el.addEventListener('checkout-success', (e) => {
        e.preventDefault();
        resolve(e);
      }),
    );
    stream!.send({
      ...session,
      status: 'resolved',
      tx_hash: `0x${'ab'.repeat(32)}`,
      resolved_payment_id: '20000000-0000-4000-8000-000000000001',
    });
    expect((await paid).detail).toMatchObject({ txHash: `0x${'ab'.repeat(32)}`, sessionId: session.id });
    await settle(el, () => text(el).includes('Payment received'));
  });

  it('shows a session’s deposit address, with a QR code of the address alone', async () => {
    const deposit = '0x0f5D2fB29fb7d3CFeE444a200298f468908cC942';
    const depositUri = `ethereum:${busd.address}@97/transfer?address=${deposit}&uint256=12500000000000000000`;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: string | URL, init?: RequestInit) => {
        const body =
          init?.method === 'POST'
            ? {
                session: {
                  ...session,
                  expected_token_amount: '12.5',
                  deposit_address: deposit,
                  payment_uri: depositUri,
                },
              }
            : { checkout: view };
        return new Response(JSON.stringify(body), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const el = await mount();
    const email = root(el).querySelector<HTMLInputElement>('#email')!;
    email.value = 'shopper@example.com';
    email.dispatchEvent(new Event('input'));
    root(el).querySelector<HTMLButtonElement>('[part="other-device"]')!.click();
    await settle(el, () => !!root(el).querySelector('[part="payment-request"] svg'));
    const panel = root(el).querySelector('[part="payment-request"]')!;
    expect(panel.querySelector('code')!.textContent).toBe(deposit);
    expect(text(el)).not.toContain(receiving);
    expect(text(el)).toMatch(/Send 12\.50? BUSD on/);
    const codes = [...panel.querySelectorAll('svg')].map((svg) => svg.getAttribute('aria-label'));
    expect(codes).toEqual([`QR code of the payment request ${depositUri}`, deposit]);
  });

  it('asks a wallet picked afterwards for the request’s exact amount', async () => {
    const asked: string[] = [];
    const module: WalletModule = {
      startWalletFlow: vi.fn(async () => ({
        address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        async options(amount: string): Promise<PaymentPlan[]> {
          asked.push(amount);
          return [
            { kind: 'direct', payToken: busd, amount, needsApproval: false, balance: '100', covers: true },
          ];
        },
        pay: async () => `0x${'cd'.repeat(32)}`,
      })),
      classifyWalletError: () => 'unknown',
    };
    const el = await mount(module);
    const email = root(el).querySelector<HTMLInputElement>('#email')!;
    email.value = 'shopper@example.com';
    email.dispatchEvent(new Event('input'));
    root(el).querySelector<HTMLButtonElement>('[part="other-device"]')!.click();
    await settle(el, () => !!root(el).querySelector('[part="payment-request"] svg'));
    // The wallets stay on offer beside the request.
    root(el).querySelector<HTMLButtonElement>('[part="wallet-button"]')!.click();
    await settle(el, () => text(el).includes('Pay now'));
    expect(asked).toEqual(['12.500137']);
    expect(posts[1]).toMatchObject({ sender_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });
    expect(text(el)).toContain('You send 12.500137 BUSD.');
  });

  /** The request on screen, with the stream the page follows it by. */
  const requested = async (failureUrl = '') => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: 'http://shop.test' });
    view.failure_url = failureUrl;
    const el = await mount();
    const email = root(el).querySelector<HTMLInputElement>('#email')!;
    email.value = 'shopper@example.com';
    email.dispatchEvent(new Event('input'));
    root(el).querySelector<HTMLButtonElement>('[part="other-device"]')!.click();
    await settle(el, () => !!root(el).querySelector('[part="payment-request"] svg'));
    const outcomes: string[] = [];
    for (const type of ['checkout-success', 'checkout-failure'] as const)
      el.addEventListener(type, (e) =>
        outcomes.push(`${type}:${(e.detail as { reason?: string }).reason ?? ''}`),
      );
    return { el, stream: FakeEventSource.opened.at(-1)!, assign, outcomes };
  };

  it('keeps following an expired request through its grace window, and shows a late payment as paid', async () => {
    const { el, stream, assign, outcomes } = await requested('https://shop.example/sorry');
    stream.send({ ...session, status: 'expired' });
    await settle(el, () => text(el).includes('This checkout has expired.'));
    expect(text(el)).toContain('Sent the payment already? Keep this page open');
    // The shopper may have sent it from the phone a moment ago: the page stays to show it.
    expect(outcomes).toEqual(['checkout-failure:expired']);
    expect(assign).not.toHaveBeenCalled();

    stream.send({
      ...session,
      status: 'resolved',
      late: true,
      tx_hash: `0x${'ab'.repeat(32)}`,
      resolved_payment_id: '20000000-0000-4000-8000-000000000001',
    });
    await settle(el, () => text(el).includes('Payment received after the time limit. Thank you!'));
    expect(outcomes).toEqual(['checkout-failure:expired', 'checkout-success:']);
    expect(root(el).querySelector('[aria-current="step"]')?.textContent).toContain('Done');
    view.failure_url = '';
  });

  it('heads the request with the exact amount it asks, and marks "Scan and pay" as the step', async () => {
    const el = await mount();
    // Before a session: the price, with the decimals of the USD amount beside it.
    expect(root(el).querySelector('.token')?.textContent).toBe('12.50 BUSD');
    const { el: requesting } = await requested();
    expect(root(requesting).querySelector('.token')?.textContent).toBe('12.500137 BUSD');
    expect(root(requesting).querySelector('[aria-current="step"]')?.textContent).toBe('2. Scan and pay');
    expect(text(requesting)).not.toContain('Wallet');
  });

  it('withdraws the request once a transfer of another amount arrived, and says what happens next', async () => {
    const { el, stream } = await requested();
    const other = {
      ...session,
      unmatched_transfers: [
        {
          tx_hash: `0x${'12'.repeat(32)}`,
          amount: '12.5',
          token_symbol: 'BUSD',
          seen_at: session.created_at,
        },
      ],
    };
    stream.send(other);
    await settle(el, () => text(el).includes('We received'));
    const notice = root(el).querySelector('[role="alert"]')!;
    expect(notice.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'We received 12.50 BUSD, not 12.500137 BUSD. Do not send it again: the merchant will confirm your order or refund you.',
    );
    // Nothing left to pay with: no QR code, no request to copy or open, no wallet, no timer.
    expect(root(el).querySelector('[part="payment-request"]')).toBeNull();
    expect(
      root(el).querySelector('[part="wallet-button"], [part="other-device"], [part="timer"]'),
    ).toBeNull();
    expect(root(el).querySelector('form')).toBeNull();
    // The panel the shopper was in went away: focus is on what replaced it.
    expect(root(el).activeElement).toBe(notice);

    for (const [lang, words] of [
      [
        'es',
        'Recibimos 12,50 BUSD, no 12,500137 BUSD. No lo envíes de nuevo: el comercio confirmará tu pedido o te devolverá el dinero.',
      ],
      [
        'pt',
        'Recebemos 12,50 BUSD, não 12,500137 BUSD. Não envie de novo: o lojista vai confirmar o seu pedido ou devolver o seu dinheiro.',
      ],
    ] as const) {
      el.setAttribute('lang', lang);
      await settle(el, () => text(el).includes(words.slice(0, 9)));
      expect(root(el).querySelector('[role="alert"]')?.textContent?.replace(/\s+/g, ' ').trim()).toBe(words);
    }

    // The time limit passes while the merchant has not settled it: expired, and still nothing asked anew.
    el.setAttribute('lang', 'en');
    stream.send({ ...other, status: 'expired' });
    await settle(el, () => text(el).includes('This checkout has expired.'));
    expect(text(el)).toContain('Do not send it again');
    expect(text(el)).not.toContain('Ask the merchant for a new payment link');
    expect(text(el)).not.toContain('Sent the payment already?');

    // The merchant attached the transfer to the order: it shows paid.
    stream.send({
      ...other,
      status: 'resolved',
      tx_hash: other.unmatched_transfers[0]!.tx_hash,
      resolved_payment_id: '20000000-0000-4000-8000-000000000001',
    });
    await settle(el, () => !!root(el).querySelector('.success'));
    expect(root(el).querySelector('[role="alert"]')).toBeNull();
  });
});
