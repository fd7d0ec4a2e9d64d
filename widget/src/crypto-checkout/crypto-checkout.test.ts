// @vitest-environment happy-dom
import type { CheckoutSession, CheckoutView } from '@checkout/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import './crypto-checkout.ts';
import type { CheckoutFailureDetail, CheckoutSuccessDetail, CryptoCheckout } from './crypto-checkout.ts';

const view: CheckoutView = {
  slug: 'espresso',
  name: 'Espresso beans',
  active: true,
  is_test: true,
  sends_receipt: false,
  token: {
    symbol: 'BUSD',
    address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    name: 'BUSD Token',
    decimal_count: 18,
    blockchain: 'binance-smart-chain',
    network: 'testnet',
    chain_id: 97,
  },
  payment_tokens: [],
  custom_fields: ['full_name'],
  open_amount: false,
  swappable: false,
  tax_rate: 20,
  expires_in_minutes: 30,
  receiving_address: '0xE242783c186CcBe3a0021DAf39D7e424A2E28DbF',
  chain_id: 97,
  blockchain: 'binance-smart-chain',
  network: 'testnet',
  router_address: null,
  rpc_url: 'http://127.0.0.1:8545',
  required_confirmations: 1,
  success_url: '',
  failure_url: '',
  expected_payment: {
    id: '4b1f9a3e-52a4-4b0c-8f0e-1a1b2c3d4e5f',
    dollar_amount: '25.00',
    expected_token_amount: '25',
    status: 'open',
    session_id: null,
  },
};

const session = (patch: Partial<CheckoutSession>): CheckoutSession => ({
  id: '7d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a',
  expected_payment_id: view.expected_payment!.id,
  status: 'awaiting_payment',
  dollar_amount: '25.00',
  expected_token: view.token,
  expected_token_amount: '25',
  payment_token_address: view.token.address,
  receiving_address: view.receiving_address,
  sender_address: view.receiving_address,
  reference: `0x${'5e'.repeat(32)}`,
  transaction: {
    chain_id: 97,
    to: view.token.address,
    data: `0xa9059cbb${view.receiving_address.slice(2).toLowerCase().padStart(64, '0')}${(25n * 10n ** 18n).toString(16).padStart(64, '0')}${'5e'.repeat(32)}`,
    value: '0',
  },
  deposit_address: null,
  payment_uri: null,
  unmatched_transfers: [],
  tx_hash: null,
  confirmations: 0,
  required_confirmations: 1,
  resolved_payment_id: null,
  late: false,
  error: null,
  expires_at: null,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  ...patch,
});

/** A fake public API answering from `routes` (path → body). */
function fakeServer(routes: Record<string, unknown>) {
  return vi.fn(async (input: string | URL) => {
    const path = new URL(String(input)).pathname + new URL(String(input)).search;
    const body = routes[path];
    return new Response(
      JSON.stringify(body ?? { error_code: 'not_found', message: 'Not found', errors: [] }),
      {
        status: body ? 200 : 404,
        headers: { 'content-type': 'application/json' },
      },
    );
  });
}

async function mount(attrs: Record<string, string>): Promise<CryptoCheckout> {
  const el = document.createElement('crypto-checkout');
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  document.body.append(el);
  for (let i = 0; i < 200 && !el.shadowRoot?.querySelector('h2, [part="error"]'); i++) {
    await new Promise((r) => setTimeout(r, 5));
    await el.updateComplete;
  }
  return el;
}

const text = (el: CryptoCheckout) => el.shadowRoot?.textContent?.replace(/\s+/g, ' ') ?? '';

/** Waits (at most 200 rounds of 5 ms) until the element's text contains `wanted`; returns that text. */
async function textWith(el: CryptoCheckout, wanted: string): Promise<string> {
  for (let i = 0; i < 200 && !text(el).includes(wanted); i++) {
    await new Promise((r) => setTimeout(r, 5));
    await el.updateComplete;
  }
  return text(el);
}

const viewPath = `/api/v1/checkout/espresso?expected_payment=${view.expected_payment!.id}`;
const viewRoute = { [viewPath]: { checkout: view } };
const viewAttrs = {
  slug: 'espresso',
  'expected-payment': view.expected_payment!.id,
  'api-base': 'http://shop.test',
};

describe('<crypto-checkout>', () => {
  beforeEach(() => {
    document.documentElement.lang = 'en';
  });
  afterEach(() => {
    document.body.replaceChildren();
    vi.unstubAllGlobals();
  });

  it('shows the product, both amounts, the included tax and one labelled input per field', async () => {
    vi.stubGlobal(
      'fetch',
      fakeServer({
        [`/api/v1/checkout/espresso?expected_payment=${view.expected_payment!.id}`]: { checkout: view },
      }),
    );
    const el = await mount({
      slug: 'espresso',
      'expected-payment': view.expected_payment!.id,
      'api-base': 'http://shop.test',
    });
    expect(text(el)).toContain('Espresso beans');
    expect(text(el)).toContain('$25.00');
    expect(text(el)).toContain('25.00 BUSD');
    expect(text(el)).toContain('Includes 20 % tax: $4.17');
    const labels = [...el.shadowRoot!.querySelectorAll('label')].map((l) => l.textContent);
    expect(labels).toEqual(['E-mail', 'Full name']);
    expect(el.shadowRoot!.querySelector('#email')?.getAttribute('type')).toBe('email');
  });

  it('offers a retry when the checkout cannot be loaded, and none when it does not exist', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 503, headers: { 'content-type': 'application/json' } })),
    );
    const down = await mount({ slug: 'espresso', 'api-base': 'http://shop.test' });
    expect(down.shadowRoot!.querySelector('[role="alert"] button')?.textContent).toBe('Try again');
    down.remove();

    vi.stubGlobal('fetch', fakeServer({}));
    const el = await mount({ slug: 'missing', 'api-base': 'http://shop.test' });
    const alert = el.shadowRoot!.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain('This payment link is not valid.');
    expect(alert?.querySelector('button')).toBeNull();
  });

  it('says at once that an unknown payment link or an inactive product cannot be paid, offering the way back', async () => {
    const product = { ...view, expected_payment: null, failure_url: 'https://shop.example/sorry' };
    vi.stubGlobal('fetch', fakeServer({ '/api/v1/checkout/espresso': { checkout: product } }));
    vi.stubGlobal('ethereum', { request: vi.fn() });
    const unknown = await mount(viewAttrs);
    expect(await textWith(unknown, 'This payment link is not valid.')).toContain('Espresso beans');
    expect(unknown.shadowRoot!.querySelector('a[part="link"]')?.getAttribute('href')).toBe(
      'https://shop.example/sorry',
    );
    expect(unknown.shadowRoot!.querySelectorAll('button, input, form')).toHaveLength(0);
    unknown.remove();

    vi.stubGlobal('fetch', fakeServer({ [viewPath]: { checkout: { ...view, active: false } } }));
    const inactive = await mount(viewAttrs);
    expect(await textWith(inactive, 'This checkout is not active')).not.toContain('Pay with');
    expect(inactive.shadowRoot!.querySelectorAll('button, input, form')).toHaveLength(0);
    // Without a failure_url there is nowhere to send the shopper: the message stands alone.
    expect(inactive.shadowRoot!.querySelector('a')).toBeNull();
  });

  it('validates the open amount and required fields without touching a wallet', async () => {
    vi.stubGlobal(
      'fetch',
      fakeServer({
        '/api/v1/checkout/espresso': { checkout: { ...view, open_amount: true, expected_payment: null } },
      }),
    );
    const provider = { request: vi.fn() };
    vi.stubGlobal('ethereum', provider);
    const el = await mount({ slug: 'espresso', 'api-base': 'http://shop.test' });
    const amount = el.shadowRoot!.querySelector<HTMLInputElement>('#amount')!;
    amount.value = '1.234';
    amount.dispatchEvent(new Event('input'));
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="wallet-button"]')!.click();
    await el.updateComplete;
    expect(text(el)).toContain('Use a number with at most 2 decimals');
    expect(text(el)).toContain('Enter a valid e-mail address.');
    expect(text(el)).toContain('This field is required.');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(provider.request).not.toHaveBeenCalled();
  });

  it("shows a merchant's expired session as expired, with no pay button but the way on, and emits checkout-failure", async () => {
    const expired = session({ expires_at: new Date(Date.now() - 1_000).toISOString() });
    vi.stubGlobal(
      'fetch',
      fakeServer({
        [`/api/v1/checkout/espresso?expected_payment=${view.expected_payment!.id}`]: {
          checkout: { ...view, expected_payment: { ...view.expected_payment!, session_id: expired.id } },
        },
        [`/api/v1/checkout/sessions/${expired.id}`]: { session: expired },
      }),
    );
    const failures: CustomEvent<CheckoutFailureDetail>[] = [];
    document.addEventListener(
      'checkout-failure',
      (e) => {
        e.preventDefault();
        failures.push(e as CustomEvent<CheckoutFailureDetail>);
      },
      { once: true },
    );
    const el = await mount({
      slug: 'espresso',
      'expected-payment': view.expected_payment!.id,
      'api-base': 'http://shop.test',
    });
    await el.updateComplete;
    expect(text(el)).toContain('This checkout has expired.');
    expect(text(el)).toContain('Ask the merchant for a new payment link.');
    expect(el.shadowRoot!.querySelector('[part="pay-button"]')).toBeNull();
    expect(el.shadowRoot!.querySelector('[aria-current="step"]')?.textContent).toContain('Expired');
    expect(failures[0]?.detail).toMatchObject({ reason: 'expired', sessionId: expired.id });
    expect(failures[0]?.composed).toBe(true);
  });

  it('shows a resolved session as paid and emits checkout-success', async () => {
    const paid = session({
      status: 'resolved',
      tx_hash: `0x${'ab'.repeat(32)}`,
      resolved_payment_id: 'rp_1',
      confirmations: 1,
    });
    vi.stubGlobal(
      'fetch',
      fakeServer({
        [`/api/v1/checkout/espresso?expected_payment=${view.expected_payment!.id}`]: {
          checkout: { ...view, expected_payment: { ...view.expected_payment!, session_id: paid.id } },
        },
        [`/api/v1/checkout/sessions/${paid.id}`]: { session: paid },
      }),
    );
    let detail: unknown;
    document.addEventListener(
      'checkout-success',
      (e) => {
        e.preventDefault();
        detail = (e as CustomEvent<CheckoutSuccessDetail>).detail;
      },
      { once: true },
    );
    const el = await mount({
      slug: 'espresso',
      'expected-payment': view.expected_payment!.id,
      'api-base': 'http://shop.test',
    });
    await el.updateComplete;
    expect(text(el)).toContain('Payment received. Thank you!');
    // This merchant sends no receipts, so none is mentioned.
    expect(el.shadowRoot!.querySelector('[part="receipt"]')).toBeNull();
    expect(detail).toEqual({ resolvedPaymentId: 'rp_1', txHash: paid.tx_hash, sessionId: paid.id });
    expect(el.shadowRoot!.querySelector('[aria-current="step"]')?.textContent).toContain('Done');
  });

  it('mentions the receipt on the paid screen, in the page language, when the merchant sends one', async () => {
    document.documentElement.lang = 'es-ES';
    const paid = session({
      status: 'resolved',
      tx_hash: `0x${'ab'.repeat(32)}`,
      resolved_payment_id: 'rp_2',
    });
    vi.stubGlobal(
      'fetch',
      fakeServer({
        [`/api/v1/checkout/espresso?expected_payment=${view.expected_payment!.id}`]: {
          checkout: {
            ...view,
            sends_receipt: true,
            expected_payment: { ...view.expected_payment!, session_id: paid.id },
          },
        },
        [`/api/v1/checkout/sessions/${paid.id}`]: { session: paid },
      }),
    );
    document.addEventListener('checkout-success', (e) => e.preventDefault(), { once: true });
    const el = await mount({
      slug: 'espresso',
      'expected-payment': view.expected_payment!.id,
      'api-base': 'http://shop.test',
    });
    await el.updateComplete;
    expect(text(el)).toContain('Pago recibido. ¡Gracias!');
    // Resumed after a reload, the element no longer knows the address the receipt goes to.
    expect(el.shadowRoot!.querySelector('[part="receipt"]')?.textContent).toBe(
      'Te enviamos un recibo por correo electrónico.',
    );
  });

  it('follows the page language and its own lang as they change, and stops when disconnected', async () => {
    vi.stubGlobal('fetch', fakeServer(viewRoute));
    const el = await mount(viewAttrs);
    expect(text(el)).toContain('Full name');

    document.documentElement.lang = 'es-MX';
    expect(await textWith(el, 'Correo electrónico')).toContain('Incluye 20 % de impuestos');
    expect(el.shadowRoot!.querySelector('[part="base"]')?.getAttribute('lang')).toBe('es-MX');

    el.setAttribute('lang', 'pt-BR');
    expect(await textWith(el, 'Nome completo')).toContain('Inclui 20 % de impostos');
    expect(el.shadowRoot!.querySelector('[part="base"]')?.getAttribute('lang')).toBe('pt-BR');

    // A closer ancestor that gains a lang wins over the page's.
    el.removeAttribute('lang');
    expect(await textWith(el, 'Nombre completo')).not.toContain('Nome completo');
    const wrapper = document.createElement('div');
    document.body.append(wrapper);
    wrapper.append(el);
    await el.updateComplete;
    wrapper.setAttribute('lang', 'en-GB');
    expect(await textWith(el, 'Full name')).not.toContain('Nombre completo');

    // Disconnected, it no longer watches; connected again, it takes the language of its new place.
    el.remove();
    wrapper.setAttribute('lang', 'pt');
    document.documentElement.lang = 'pt';
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 5));
    expect(text(el)).toContain('Full name');
    document.body.append(el);
    expect(await textWith(el, 'Nome completo')).not.toContain('Full name');
  });

  it('writes a field error and a wallet error again in the new language', async () => {
    vi.stubGlobal('fetch', fakeServer(viewRoute));
    vi.stubGlobal('ethereum', { request: vi.fn() });
    const el = await mount(viewAttrs);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="wallet-button"]')!.click();
    expect(await textWith(el, 'This field is required.')).toContain('Enter a valid e-mail address.');
    document.documentElement.lang = 'es';
    const spanish = await textWith(el, 'Este campo es obligatorio.');
    expect(spanish).toContain('Introduce un correo electrónico válido.');
    expect(spanish).not.toContain('This field is required.');
  });

  it('takes the language of the shadow host it is rendered in, and follows it', async () => {
    vi.stubGlobal('fetch', fakeServer(viewRoute));
    const host = document.createElement('div');
    host.setAttribute('lang', 'pt-BR');
    document.body.append(host);
    const el = document.createElement('crypto-checkout');
    for (const [k, v] of Object.entries(viewAttrs)) el.setAttribute(k, v);
    host.attachShadow({ mode: 'open' }).append(el);
    expect(await textWith(el, 'Nome completo')).toContain('US$');
    host.setAttribute('lang', 'es');
    expect(await textWith(el, 'Nombre completo')).not.toContain('Nome completo');
  });

  it('asks wallets to announce themselves once the first render is done', async () => {
    vi.stubGlobal('fetch', fakeServer(viewRoute));
    const rendered: boolean[] = [];
    const onRequest = () => {
      const el = document.querySelector('crypto-checkout');
      rendered.push(Boolean(el?.shadowRoot?.querySelector('[part="base"]')));
    };
    window.addEventListener('eip6963:requestProvider', onRequest);
    try {
      const el = await mount(viewAttrs);
      expect(await textWith(el, 'No wallet found')).toContain('Espresso beans');
      expect(rendered).toEqual([true]);
    } finally {
      window.removeEventListener('eip6963:requestProvider', onRequest);
    }
  });

  it('offers a window.ethereum installed after it rendered: on ethereum#initialized, or when the shopper moves in', async () => {
    vi.stubGlobal('fetch', fakeServer(viewRoute));
    const el = await mount(viewAttrs);
    expect(await textWith(el, 'No wallet found')).not.toContain('Browser wallet');

    vi.stubGlobal('ethereum', { request: vi.fn() });
    window.dispatchEvent(new Event('ethereum#initialized'));
    expect(await textWith(el, 'Pay with Browser wallet')).not.toContain('No wallet found');

    // Installed without any event: found again when focus enters the element.
    vi.stubGlobal('ethereum', undefined);
    el.shadowRoot!.querySelector<HTMLInputElement>('#email')!.dispatchEvent(
      new FocusEvent('focusin', { bubbles: true, composed: true }),
    );
    expect(await textWith(el, 'No wallet found')).not.toContain('Browser wallet');
    vi.stubGlobal('ethereum', { request: vi.fn() });
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 5));
    expect(text(el)).toContain('No wallet found');
    el.shadowRoot!.querySelector<HTMLInputElement>('#email')!.dispatchEvent(
      new FocusEvent('focusin', { bubbles: true, composed: true }),
    );
    expect(await textWith(el, 'Pay with Browser wallet')).not.toContain('No wallet found');
  });

  it('speaks Spanish when the page is in Spanish', async () => {
    document.documentElement.lang = 'es-MX';
    vi.stubGlobal(
      'fetch',
      fakeServer({
        [`/api/v1/checkout/espresso?expected_payment=${view.expected_payment!.id}`]: { checkout: view },
      }),
    );
    const el = await mount({
      slug: 'espresso',
      'expected-payment': view.expected_payment!.id,
      'api-base': 'http://shop.test',
    });
    expect(text(el)).toContain('Correo electrónico');
    expect(text(el)).toContain('Incluye 20 % de impuestos');
  });
});
