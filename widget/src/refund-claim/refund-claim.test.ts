// @vitest-environment happy-dom
import type { RefundClaim } from '@checkout/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeAnswer, fakeApi, settle, shadowText } from '../refunds/test-support.ts';
import type { WalletModule } from '../wallet/types.ts';
import './refund-claim.ts';
import type { RefundClaimPage } from './refund-claim.ts';

const token = 'c'.repeat(43);
const path = `/api/v1/refund_claims/${token}`;
const customer = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const claim = (patch: Partial<RefundClaim> = {}): RefundClaim => ({
  status: 'awaiting_address',
  merchant_name: 'Coffee Roasters',
  product_name: 'Espresso beans',
  chain_id: 97,
  token: {
    symbol: 'BUSD',
    address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    name: 'BUSD Token',
    decimal_count: 18,
    blockchain: 'binance-smart-chain',
    network: 'testnet',
  },
  amount: '7.5',
  reason: 'Beans out of stock',
  locale: 'en',
  refund_address: null,
  claim_expires_at: '2030-01-15T12:00:00.000Z',
  tx_hash: null,
  order: {
    shop_name: 'Espresso beans',
    resolved_payment_id: '5b7c1a52-3d2e-4c4f-9b59-6f2a8f0b9e11',
    dollar_amount: '7.50',
    paid_amount: '7.500012',
    paid_token_symbol: 'BUSD',
    paid_at: '2030-01-01T09:30:00.000Z',
  },
  cancel_reason: null,
  paid_amount: '0',
  amount_due: '7.5',
  overpaid_amount: null,
  part_payments: [],
  merchant_contact: 'orders@example.com',
  ...patch,
});

const answer = (c: RefundClaim): FakeAnswer => ({ body: { refund_claim: c } });

async function mount(loadWallet?: () => Promise<WalletModule>): Promise<RefundClaimPage> {
  const el = document.createElement('refund-claim');
  el.setAttribute('token', token);
  el.setAttribute('api-base', 'http://checkout.test');
  el.pollInterval = 60_000;
  if (loadWallet) (el as unknown as { loadWallet(): Promise<WalletModule> }).loadWallet = loadWallet;
  document.body.append(el);
  await settle(el, () => !!el.shadowRoot?.querySelector('h2, [part="message"].failure, [part="error"]'));
  return el;
}

const root = (el: RefundClaimPage) => el.shadowRoot!;

function type(el: RefundClaimPage, value: string): void {
  const input = root(el).querySelector<HTMLInputElement>('#refund-address')!;
  input.value = value;
  input.dispatchEvent(new Event('input'));
}

describe('<refund-claim>', () => {
  beforeEach(() => {
    document.documentElement.lang = 'en';
  });
  afterEach(() => {
    document.body.replaceChildren();
    vi.unstubAllGlobals();
  });

  it('shows the shop, the order, amount, network, reason and deadline with its time zone, and warns against exchange addresses', async () => {
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(claim()) }).fetch);
    const el = await mount();
    const text = shadowText(el);
    // The shop is the product's business name; the merchant's account name only stands in without one.
    expect(root(el).querySelector('h2')?.textContent).toContain('A refund from Espresso beans');
    expect(text).toContain('Test mode');
    for (const part of [
      'Shop',
      'Order',
      '$7.50',
      '7.500012 BUSD',
      '7.5 BUSD',
      'BNB Smart Chain Testnet',
      'Beans out of stock',
    ])
      expect(text).toContain(part);
    const deadline = new Intl.DateTimeFormat('en', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(new Date('2030-01-15T12:00:00.000Z'));
    expect(text).toContain(deadline);
    // The time zone is named after the time.
    expect(deadline).toMatch(/\d{1,2}:\d{2}\s?[AP]M \S+$/);
    expect(root(el).querySelector('[part="warning"]')?.textContent).toContain(
      'Do not give an exchange deposit address',
    );
    const input = root(el).querySelector<HTMLInputElement>('#refund-address')!;
    expect(root(el).querySelector(`label[for="refund-address"]`)?.textContent).toBe(
      'Your wallet address on BNB Smart Chain Testnet',
    );
    expect(input.getAttribute('aria-invalid')).toBe('false');
  });

  it('refuses what is not an address before asking the service', async () => {
    const api = fakeApi({ [`GET ${path}`]: answer(claim()) });
    vi.stubGlobal('fetch', api.fetch);
    const el = await mount();
    type(el, '0x1234');
    root(el).querySelector<HTMLButtonElement>('[part="pay-button"]')!.click();
    await settle(el, () => shadowText(el).includes('40 hexadecimal'));
    const input = root(el).querySelector<HTMLInputElement>('#refund-address')!;
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('refund-address-error');
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('takes a pasted address, sends it, and then says the merchant will pay it', async () => {
    let current = claim();
    const api = fakeApi({
      [`GET ${path}`]: () => answer(current),
      [`POST ${path}`]: () => {
        current = claim({ status: 'ready_to_pay', refund_address: customer });
        return answer(current);
      },
    });
    vi.stubGlobal('fetch', api.fetch);
    const el = await mount();
    type(el, ` ${customer} `);
    root(el).querySelector<HTMLButtonElement>('[part="pay-button"]')!.click();
    await settle(el, () => shadowText(el).includes('Your address is saved'));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ refund_address: customer });
    expect(shadowText(el)).toContain(`The merchant will send 7.5 BUSD to ${customer}.`);
    expect(root(el).querySelector('form')).toBeNull();
  });

  it('fills the address from a browser wallet through its provider alone, without the wallet module', async () => {
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(claim()) }).fetch);
    const request = vi.fn(async ({ method }: { method: string }) =>
      method === 'eth_requestAccounts' ? [customer] : null,
    );
    vi.stubGlobal('ethereum', { request });
    const loadWallet = vi.fn(async (): Promise<WalletModule> => {
      throw new Error('the claim page loads no wallet module');
    });
    const el = await mount(loadWallet);
    await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
    const button = root(el).querySelector<HTMLButtonElement>('[part="wallet-button"]')!;
    expect(button.textContent?.trim()).toBe('Use Browser wallet');
    button.click();
    await settle(el, () => shadowText(el).includes('is filled in below'));
    expect(root(el).querySelector<HTMLInputElement>('#refund-address')!.value).toBe(customer);
    // One request, for the accounts: no network switch, nothing signed, no wallet module fetched.
    expect(request.mock.calls.map(([r]) => r.method)).toEqual(['eth_requestAccounts']);
    expect(loadWallet).not.toHaveBeenCalled();
  });

  it('says an address the service refuses cannot receive the refund', async () => {
    vi.stubGlobal(
      'fetch',
      fakeApi({
        [`GET ${path}`]: answer(claim()),
        [`POST ${path}`]: {
          status: 422,
          body: {
            error_code: 'validation_failed',
            message: 'Validation failed',
            errors: [{ path: 'refund_address', message: 'is the receiving address itself' }],
          },
        },
      }).fetch,
    );
    const el = await mount();
    type(el, customer);
    root(el).querySelector<HTMLButtonElement>('[part="pay-button"]')!.click();
    await settle(el, () => shadowText(el).includes('cannot receive the refund'));
    expect(root(el).querySelector('#refund-address')?.getAttribute('aria-invalid')).toBe('true');
  });

  it('follows the refund to sent, with its transaction, and to confirmed', async () => {
    const hash = `0x${'ab'.repeat(32)}`;
    let current = claim({ status: 'sent', refund_address: customer, tx_hash: hash });
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: () => answer(current) }).fetch);
    const el = await mount();
    expect(shadowText(el)).toContain(`The merchant sent 7.5 BUSD to ${customer}.`);
    expect(shadowText(el)).toContain(`Transaction: ${hash}`);
    // A public testnet's explorer, since the page was given no local RPC URL.
    expect(root(el).querySelector('[part="transaction"] a')?.getAttribute('href')).toBe(
      `https://testnet.bscscan.com/tx/${hash}`,
    );
    current = claim({ status: 'confirmed', refund_address: customer, tx_hash: hash });
    el.pollInterval = 10;
    await (el as unknown as { refresh(): Promise<void> }).refresh();
    await settle(el, () => shadowText(el).includes('arrived'));
    expect(shadowText(el)).toContain(`Your refund of 7.5 BUSD arrived at ${customer}.`);
  });

  it('says when the refund expired or was canceled, and when the link is unknown', async () => {
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(claim({ status: 'expired' })) }).fetch);
    let el = await mount();
    expect(shadowText(el)).toContain('was not claimed by');
    expect(root(el).querySelector('form')).toBeNull();
    document.body.replaceChildren();

    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(claim({ status: 'canceled' })) }).fetch);
    el = await mount();
    expect(shadowText(el)).toContain('The merchant canceled this refund.');
    expect(shadowText(el)).not.toContain('gave this reason');
    document.body.replaceChildren();

    const canceled = claim({ status: 'canceled', cancel_reason: 'You asked to keep the order' });
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(canceled) }).fetch);
    el = await mount();
    expect(shadowText(el)).toContain('The merchant gave this reason: “You asked to keep the order”');
    expect(root(el).querySelector('a[href="mailto:orders@example.com"]')?.textContent).toBe(
      'orders@example.com',
    );
    document.body.replaceChildren();

    vi.stubGlobal('fetch', fakeApi({}).fetch);
    el = await mount();
    expect(shadowText(el)).toBe('This refund link is not valid. Check the link you were given.');
  });

  it('speaks Spanish and Portuguese on pages in those languages', async () => {
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(claim({ locale: 'es' })) }).fetch);
    document.documentElement.lang = 'es-MX';
    let el = await mount();
    expect(shadowText(el)).toContain('Un reembolso de Espresso beans');
    expect(shadowText(el)).toContain('No indiques una dirección de depósito de un exchange');
    expect(shadowText(el)).toContain('7.5 BUSD');
    document.body.replaceChildren();

    document.documentElement.lang = 'pt-BR';
    el = await mount();
    expect(shadowText(el)).toContain('Um reembolso de Espresso beans');
    expect(shadowText(el)).toContain('7,5 BUSD');
    expect(root(el).querySelector('[part="pay-button"]')?.textContent).toBe(
      'Enviar meu reembolso para este endereço',
    );
  });
  it('shows the customer what the shop sent so far, each transfer, and what is still to come', async () => {
    const part = { tx_hash: `0x${'ab'.repeat(32)}`, amount: '2.7', seen_at: '2030-01-02T10:00:00.000Z' };
    const partly = claim({
      status: 'ready_to_pay',
      refund_address: customer,
      paid_amount: '2.7',
      amount_due: '4.8',
      part_payments: [part],
    });
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(partly) }).fetch);
    const el = await mount();
    const text = shadowText(el);
    expect(text).toContain('Paid so far');
    expect(text).toContain('Still due');
    expect(text).toContain(`The shop has sent 2.7 BUSD to ${customer} so far; 4.8 BUSD is still to come.`);
    const items = [...root(el).querySelectorAll('[part="part-payments"] li')].map((li) => li.textContent);
    expect(items).toHaveLength(1);
    expect(items[0]).toContain('2.7 BUSD');
    // Paid in full by two transfers: both are listed under the one that completed it.
    const done = { tx_hash: `0x${'cd'.repeat(32)}`, amount: '4.8', seen_at: '2030-01-02T11:00:00.000Z' };
    vi.stubGlobal(
      'fetch',
      fakeApi({
        [`GET ${path}`]: answer({
          ...partly,
          status: 'sent',
          paid_amount: '7.5',
          amount_due: '0',
          tx_hash: done.tx_hash,
          part_payments: [part, done],
        }),
      }).fetch,
    );
    await (el as unknown as { refresh(): Promise<void> }).refresh();
    await settle(el, () => root(el).querySelectorAll('[part="part-payments"] li').length === 2);
    expect(shadowText(el)).not.toContain('Still due');
  });
});
