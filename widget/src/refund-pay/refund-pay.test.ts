// @vitest-environment happy-dom
import type { RefundPaymentView as RefundPayment } from '@checkout/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeAnswer, fakeApi, settle, shadowText } from '../refunds/test-support.ts';
import type {
  PaymentOrder,
  PaymentPlan,
  WalletFlow,
  WalletFlowOptions,
  WalletModule,
} from '../wallet/types.ts';
import './refund-pay.ts';
import { type RefundPayPage, requestMatches } from './refund-pay.ts';

const token = 'p'.repeat(43);
const path = `/api/v1/refund_payments/${token}`;
const busd = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const receiving = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';
const customer = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const units = '7500000000000000000';
const data = `0xa9059cbb${customer.slice(2).toLowerCase().padStart(64, '0')}${BigInt(units).toString(16).padStart(64, '0')}`;
const hash = `0x${'cd'.repeat(32)}`;

const payment = (patch: Partial<RefundPayment> = {}): RefundPayment => ({
  status: 'ready_to_pay',
  chain_id: 97,
  token: {
    symbol: 'BUSD',
    address: busd,
    name: 'BUSD Token',
    decimal_count: 18,
    blockchain: 'binance-smart-chain',
    network: 'testnet',
  },
  amount: '7.5',
  amount_base_units: units,
  reason: 'Beans out of stock',
  from_address: receiving,
  refund_address: customer,
  paid_amount: '0',
  amount_due: '7.5',
  overpaid_amount: null,
  payment_request: {
    uri: `ethereum:${busd}@97/transfer?address=${customer}&uint256=${units}`,
    transaction: { chain_id: 97, from: receiving, to: busd, data, value: '0' },
  },
  tx_hash: null,
  cancel_reason: null,
  part_payments: [],
  order: {
    shop_name: 'Espresso beans',
    resolved_payment_id: '5b7c1a52-3d2e-4c4f-9b59-6f2a8f0b9e11',
    dollar_amount: '7.50',
    paid_amount: '7.500012',
    paid_token_symbol: 'BUSD',
    paid_at: '2030-01-01T09:30:00.000Z',
  },
  ...patch,
});

const answer = (p: RefundPayment): FakeAnswer => ({ body: { refund_payment: p } });

function walletModule(address = receiving) {
  const paid: PaymentPlan[] = [];
  const orders: PaymentOrder[] = [];
  const flow: WalletFlow = {
    address,
    async options(amount) {
      return [
        {
          kind: 'direct',
          payToken: { ...payment().token, chain_id: 97 },
          amount,
          needsApproval: false,
          balance: '100',
          covers: true,
        },
      ];
    },
    async pay(plan, order) {
      paid.push(plan);
      orders.push(order);
      return hash;
    },
  };
  const module = {
    startWalletFlow: vi.fn(async (_options: WalletFlowOptions) => flow),
    classifyWalletError: () => 'unknown' as const,
  } satisfies WalletModule;
  return { module, paid, orders };
}

async function mount(module?: WalletModule): Promise<RefundPayPage> {
  const el = document.createElement('refund-pay');
  el.setAttribute('token', token);
  el.setAttribute('api-base', 'http://checkout.test');
  el.setAttribute('rpc-url', 'http://127.0.0.1:8545');
  el.pollInterval = 60_000;
  if (module) (el as unknown as { loadWallet(): Promise<WalletModule> }).loadWallet = async () => module;
  document.body.append(el);
  await settle(el, () => !!el.shadowRoot?.querySelector('h2, [part="message"].failure'));
  return el;
}

const root = (el: RefundPayPage) => el.shadowRoot!;
const button = (el: RefundPayPage, name: string) =>
  [...root(el).querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.trim() === name);

describe('requestMatches', () => {
  it('takes only the transfer of the refund’s amount and token from the receiving wallet to the customer', () => {
    expect(requestMatches(payment())).toBe(true);
    const tx = payment().payment_request!.transaction;
    const other = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    const variants: Array<Partial<RefundPayment>> = [
      { payment_request: null },
      { amount: '7.4' },
      { refund_address: other },
      { from_address: other },
      { chain_id: 56 },
      { payment_request: { uri: 'x', transaction: { ...tx, to: other } } },
      { payment_request: { uri: 'x', transaction: { ...tx, data: `${data.slice(0, -1)}f` } } },
    ];
    for (const patch of variants) expect(requestMatches(payment(patch)), JSON.stringify(patch)).toBe(false);
  });
});

describe('<refund-pay>', () => {
  beforeEach(() => {
    document.documentElement.lang = 'en';
    sessionStorage.clear();
  });
  afterEach(() => {
    document.body.replaceChildren();
    vi.unstubAllGlobals();
  });

  it('waits for the customer’s address while there is none', async () => {
    vi.stubGlobal(
      'fetch',
      fakeApi({
        [`GET ${path}`]: answer(
          payment({ status: 'awaiting_address', refund_address: null, payment_request: null }),
        ),
      }).fetch,
    );
    const el = await mount();
    expect(shadowText(el)).toContain('The customer has not given an address yet.');
    expect(root(el).querySelector('[part="wallet-button"], [part="other-device"]')).toBeNull();
  });

  it('pays the exact transfer from the receiving wallet with the element’s wallet flow', async () => {
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(payment()) }).fetch);
    vi.stubGlobal('ethereum', { request: vi.fn() });
    const { module, paid, orders } = walletModule();
    const el = await mount(module);
    // A refund in its own words: who to, how much, for which order; each address once.
    expect(root(el).querySelector('h2')?.textContent).toContain('Refund 7.5 BUSD to your customer');
    expect(shadowText(el)).toContain('You are giving a customer of Espresso beans their money back.');
    expect(shadowText(el)).toContain('5b7c1a52-3d2e-4c4f-9b59-6f2a8f0b9e11 · $7.50 · paid 7.500012 BUSD');
    const addresses = [...root(el).querySelectorAll('code')].map((c) => c.textContent);
    expect(addresses).toEqual([customer, receiving]);
    await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
    root(el).querySelector<HTMLButtonElement>('[part="wallet-button"]')!.click();
    await settle(el, () => !!button(el, 'Send the refund'));
    expect(module.startWalletFlow).toHaveBeenCalledTimes(1);
    // The customer is the receiver: the same target the element pays a checkout's receiving address with.
    expect(module.startWalletFlow.mock.calls[0]![0]).toMatchObject({
      view: {
        chain_id: 97,
        receiving_address: customer,
        token: { address: busd, decimal_count: 18, chain_id: 97 },
        payment_tokens: [],
        swappable: false,
        rpc_url: 'http://127.0.0.1:8545',
      },
    });
    expect(shadowText(el)).toContain('You send 7.5 BUSD to your customer’s address above.');
    button(el, 'Send the refund')!.click();
    await settle(el, () => shadowText(el).includes('Waiting for the network'));
    expect(paid).toEqual([expect.objectContaining({ kind: 'direct', amount: '7.5' })]);
    // The wallet is asked for the request's own transaction, which was checked to be exactly the refund.
    expect(orders).toEqual([
      { expected_token_amount: '7.5', transaction: payment().payment_request!.transaction },
    ]);
    expect(shadowText(el)).toContain(`Transaction: ${hash}`);
    // A local chain: no explorer link.
    expect(root(el).querySelector('[part="transaction"] a')).toBeNull();
    expect(sessionStorage.getItem(`refund-pay:${token}`)).toBe(hash);
  });

  it('after a part payment says what was sent and pays only what is still due; names what went above it', async () => {
    const dueUnits = 500000000000000000n;
    const dueData = `0xa9059cbb${customer.slice(2).toLowerCase().padStart(64, '0')}${dueUnits.toString(16).padStart(64, '0')}`;
    const partly = payment({
      paid_amount: '7',
      amount_due: '0.5',
      payment_request: {
        uri: `ethereum:${busd}@97/transfer?address=${customer}&uint256=${dueUnits}`,
        transaction: { chain_id: 97, from: receiving, to: busd, data: dueData, value: '0' },
      },
    });
    expect(requestMatches(partly)).toBe(true);
    // A request for the whole amount after a part payment is not what is due: nothing is sent.
    expect(requestMatches({ ...partly, payment_request: payment().payment_request })).toBe(false);
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(partly) }).fetch);
    vi.stubGlobal('ethereum', { request: vi.fn() });
    const { module, orders } = walletModule();
    const el = await mount(module);
    expect(shadowText(el)).toContain(
      'Your wallet sent 7 BUSD to this address, less than the refund: send the 0.5 BUSD still due to complete it.',
    );
    expect(shadowText(el)).toContain('Still due');
    await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
    root(el).querySelector<HTMLButtonElement>('[part="wallet-button"]')!.click();
    await settle(el, () => !!button(el, 'Send the refund'));
    expect(shadowText(el)).toContain('You send 0.5 BUSD to your customer’s address above.');
    button(el, 'Send the refund')!.click();
    await settle(el, () => shadowText(el).includes('Waiting for the network'));
    expect(orders).toEqual([
      { expected_token_amount: '0.5', transaction: partly.payment_request!.transaction },
    ]);

    document.body.replaceChildren();
    sessionStorage.clear();
    const over = payment({
      status: 'sent',
      paid_amount: '10',
      amount_due: '0',
      overpaid_amount: '2.5',
      tx_hash: hash,
    });
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(over) }).fetch);
    const sent = await mount();
    expect(shadowText(sent)).toContain('Your wallet sent 2.5 BUSD more than the refund.');
    expect(shadowText(sent)).toContain('Sent above the refund');
  });

  it('after a reload shows the transfer it sent instead of asking the wallet again', async () => {
    sessionStorage.setItem(`refund-pay:${token}`, hash);
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(payment()) }).fetch);
    const { module } = walletModule();
    const el = await mount(module);
    expect(shadowText(el)).toContain('Waiting for the network');
    expect(root(el).querySelector('[part="wallet-button"]')).toBeNull();
  });

  it('refuses another wallet than the receiving one, and says so until the wallet changes', async () => {
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(payment()) }).fetch);
    const listeners = new Map<string, () => void>();
    vi.stubGlobal('ethereum', {
      request: vi.fn(),
      on: (event: string, listener: () => void) => listeners.set(event, listener),
      removeListener: (event: string) => listeners.delete(event),
    });
    const other = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    const { module, paid } = walletModule(other);
    const el = await mount(module);
    await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
    root(el).querySelector<HTMLButtonElement>('[part="wallet-button"]')!.click();
    await settle(el, () => !!root(el).querySelector('[part="error"]'));
    const refusal = `This wallet is ${other}. The refund must come from ${receiving}`;
    expect(shadowText(el)).toContain(refusal);
    expect(button(el, 'Send the refund')).toBeUndefined();
    expect(paid).toEqual([]);
    // The page reads the refund again (every 3 s): the refusal stays.
    await (el as unknown as { refresh(): Promise<void> }).refresh();
    await el.updateComplete;
    expect(shadowText(el)).toContain(refusal);
    // The wallet moved to another account: the refusal no longer holds.
    listeners.get('accountsChanged')!();
    await settle(el, () => !shadowText(el).includes(refusal));
    expect(root(el).querySelector('[part="error"]')).toBeNull();
    expect(listeners.has('accountsChanged')).toBe(false);
  });

  it('sends nothing when the payment request is not exactly the refund', async () => {
    const bad = payment();
    bad.payment_request!.transaction.to = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(bad) }).fetch);
    vi.stubGlobal('ethereum', { request: vi.fn() });
    const { module } = walletModule();
    const el = await mount(module);
    await settle(el, () => !!root(el).querySelector('[part="wallet-button"]'));
    root(el).querySelector<HTMLButtonElement>('[part="wallet-button"]')!.click();
    await settle(el, () => !!root(el).querySelector('[part="error"]'));
    expect(shadowText(el)).toContain('does not match this refund');
    expect(module.startWalletFlow).not.toHaveBeenCalled();
  });

  it('shows the element’s QR code of the EIP-681 request for another device', async () => {
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: answer(payment()) }).fetch);
    const el = await mount();
    expect(shadowText(el)).toContain('No wallet found in this browser.');
    root(el).querySelector<HTMLButtonElement>('[part="other-device"]')!.click();
    await settle(el, () => !!root(el).querySelector('[part="payment-request"] svg'));
    const uri = payment().payment_request!.uri;
    expect(root(el).querySelector('svg')?.getAttribute('aria-label')).toBe(
      `QR code of the payment request ${uri}`,
    );
    expect(root(el).querySelector('textarea')?.value).toBe(uri);
    expect(shadowText(el)).toContain(
      'Send exactly 7.5 BUSD on BNB Smart Chain Testnet, in one transfer, from your receiving wallet to your customer’s address.',
    );
    // The refund's words, not the checkout's; the customer's address is not repeated in the panel.
    expect(shadowText(el)).toContain('Waiting for the refund’s transfer…');
    expect(shadowText(el)).not.toContain('identifies your payment');
    expect(root(el).querySelectorAll('[part="payment-request"] code')).toHaveLength(0);
  });

  it('follows the refund to sent and confirmed, in the page’s language', async () => {
    let current = payment({ status: 'sent', tx_hash: hash });
    vi.stubGlobal('fetch', fakeApi({ [`GET ${path}`]: () => answer(current) }).fetch);
    document.documentElement.lang = 'pt-BR';
    const el = await mount();
    expect(shadowText(el)).toContain('O reembolso está na rede.');
    expect(shadowText(el)).toContain(`Transação: ${hash}`);
    current = payment({ status: 'confirmed', tx_hash: hash });
    await (el as unknown as { refresh(): Promise<void> }).refresh();
    await settle(el, () => shadowText(el).includes('confirmado'));
    expect(shadowText(el)).toContain('O reembolso está confirmado.');
  });
});
