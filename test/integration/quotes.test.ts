/** Quotes against the real service and a local chain: shape, HD deposit addresses, isolation, bad input. */
import { deriveDepositAccount, devDepositMnemonic, erc20Abi } from '@checkout/chain';
import { OfframpListResponse, OfframpResponse, QuoteRateResponse, QuoteResponse } from '@checkout/core';
import { quoteWorkflowId } from '@checkout/workflows';
import type { Hash } from 'viem';
import { english, generateMnemonic } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authOf,
  createPayoutReadyUser,
  createUser,
  decideKyc,
  expectError,
  waitForKyc,
} from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitForBlockRead } from '../support/waitFor.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

// Deposit addresses no other test run shares.
const freshMnemonic = generateMnemonic(english);

describe.skipIf(databaseUnavailable())('quotes', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let userId: string;

  beforeAll(async () => {
    chain = await startTestChain();
    service = await startTestService({ env: { RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl } });
    merchant = await service.createMerchant();
    other = await service.createMerchant();
    userId = await createUser(service, merchant);
  });
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  const create = (quote: unknown, who: TestMerchant = merchant) =>
    service.request('POST', `/users/${userId}/quotes`, { headers: authOf(who), json: { quote } });
  const usdc = { deposit_token: 'usdc', deposit_token_chain: 'binance-smart-chain' };

  it('creates a quote with its own HD deposit address (three-d key) and shows it', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await create(usdc);
    expect(res.status, res.text).toBe(200);
    QuoteResponse.parse(res.body);
    expect(Object.keys(res.body).sort()).toEqual(['crypto_transfer', 'deposit_address', 'offramps', 'quote']);
    expect(res.body.quote).toMatchObject({
      user_id: userId,
      deposit_token: 'usdc',
      deposit_token_chain: 'binance-smart-chain',
      deposit_token_amount: 0,
      fees: 0,
      executed: false,
      rates: {},
    });
    expect(res.body.quote.expiry).toBeGreaterThanOrEqual(before + 59 * 60);
    expect(Number.isInteger(res.body.quote.expiry)).toBe(true);
    expect(Object.keys(res.body.deposit_address).sort()).toEqual(['adddress', 'blockchain']);
    expect(res.body.crypto_transfer).toBeNull();
    expect(res.body.offramps).toEqual([]);

    const second = await create(usdc);
    const addresses = [res.body.deposit_address.adddress, second.body.deposit_address.adddress];
    expect(new Set(addresses).size).toBe(2);
    const derived = Array.from(
      { length: 5 },
      (_, index) => deriveDepositAccount({ mnemonic: devDepositMnemonic, index }).address,
    );
    for (const a of addresses) expect(derived).toContain(a);

    const shown = await service.request('GET', `/users/${userId}/quotes/${res.body.quote.id}`, {
      headers: authOf(merchant),
    });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toEqual(res.body);
  });

  it('refuses bad input and other accounts', async () => {
    expectError(await create({ ...usdc, deposit_token: 'btc' }), 422, 'record_invalid');
    expectError(await create({ ...usdc, deposit_token_chain: 'tron' }), 422, 'record_invalid');
    expectError(await create({ ...usdc, extra: true }), 422, 'record_invalid');
    expectError(
      await service.request('POST', `/users/${userId}/quotes`, { headers: authOf(merchant), json: {} }),
      400,
      'parameter_missing',
    );
    expectError(await create(usdc, other), 404, 'record_not_found');
    const created = await create(usdc);
    const path = `/users/${userId}/quotes/${created.body.quote.id}`;
    expectError(await service.request('GET', path, { headers: authOf(other) }), 404, 'record_not_found');
    expectError(
      await service.request('GET', `/users/${userId}/quotes/nope`, { headers: authOf(merchant) }),
      404,
      'record_not_found',
    );
  });

  it('prices one payout from either side without storing anything', async () => {
    const rate = (quote: unknown, who: TestMerchant = merchant) =>
      service.request('POST', `/users/${userId}/quote/rate`, { headers: authOf(who), json: { quote } });
    const fromFiat = await rate({ ...usdc, fiat_currency: 'usd', rails: 'wire', fiat_amount: 1000 });
    expect(fromFiat.status, fromFiat.text).toBe(200);
    QuoteRateResponse.parse(fromFiat.body);
    // usd wire (default fee table): 0.4 % + 20 → fee 24; at 1 USD per USDC the deposit is 1024.
    expect(fromFiat.body.quote).toMatchObject({
      deposit_token: 'usdc',
      deposit_token_chain: 'binance-smart-chain',
      deposit_token_amount: 1024,
      fiat_amount: 1000,
      fiat_currency: 'usd',
      currency_pair: 'usdcusd',
      fees: 24,
      rails: 'wire',
      rate: '1',
      executed: false,
    });
    expect(fromFiat.body.quote.expiry).toBeGreaterThan(Math.floor(Date.now() / 1000));
    const fromTokens = await rate({
      ...usdc,
      fiat_currency: 'usd',
      rails: 'wire',
      deposit_token_amount: '1024',
    });
    expect(fromTokens.body.quote).toMatchObject({ fiat_amount: 1000, fees: 24, deposit_token_amount: 1024 });
    const euros = await rate({ ...usdc, fiat_currency: 'eur', fiat_amount: '92.00' });
    expect(euros.body.quote).toMatchObject({ rails: 'local', rate: '0.92', fiat_amount: 92 });

    expectError(await rate({ ...usdc, fiat_currency: 'usd' }), 422, 'record_invalid');
    expectError(
      await rate({ ...usdc, fiat_currency: 'usd', fiat_amount: 1, deposit_token_amount: 1 }),
      422,
      'record_invalid',
    );
    expectError(
      await rate({ ...usdc, fiat_currency: 'usd', rails: 'wire', deposit_token_amount: '10' }),
      422,
      'record_invalid',
    );
    expectError(await rate({ ...usdc, fiat_currency: 'jpy', fiat_amount: 1 }), 422, 'record_invalid');
    expectError(
      await rate({ ...usdc, fiat_currency: 'usd', fiat_amount: 1 }, other),
      404,
      'record_not_found',
    );
  });
});

const holder = {
  account_name: 'Acme Supplies LLC',
  beneficiary_type: 'business',
  bank_name: 'JPMorgan Chase',
  address_line1: '383 Madison Avenue',
  city: 'New York',
  state: 'NY',
  postal_code: '10179',
  country: 'US',
  company_number: '12-3456789',
};
const usdLocal = { ...holder, currency: 'usd', account_number: '000123456789', routing_number: '021000021' };
const eurLocal = {
  ...holder,
  state: null,
  country: 'DE',
  city: 'Berlin',
  postal_code: '10117',
  currency: 'eur',
  iban: 'DE89 3704 0044 0532 0130 00',
};

describe.skipIf(databaseUnavailable())('offramps and quote execution', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let receiver: WebhookReceiver;
  let userId: string;
  let usdDetail: string;
  let eurDetail: string;
  let swiftDetail: string;

  const auth = () => authOf(merchant);
  const createDetail = async (detail: unknown, approve = true): Promise<string> => {
    const res = await service.request('POST', `/users/${userId}/payment_details`, {
      headers: auth(),
      json: { payment_detail: detail },
    });
    expect(res.status, res.text).toBe(200);
    const id = res.body.payment_detail.id as string;
    if (approve) await setDetailStatus(id, 'approved');
    return id;
  };
  const setDetailStatus = async (id: string, status: string) => {
    const res = await service.request('PATCH', `/sandbox/users/${userId}/payment_details/${id}`, {
      headers: auth(),
      json: { payment_detail: { status } },
    });
    expect(res.status, res.text).toBe(200);
  };

  beforeAll(async () => {
    chain = await startTestChain();
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        PAYOUT_SANDBOX_DELAY_MS: '200',
        DEPOSIT_MNEMONIC: freshMnemonic,
      },
    });
    merchant = await service.createMerchant();
    other = await service.createMerchant();
    receiver = await startWebhookReceiver();
    const put = await service.request('PUT', '/webhook_endpoint', {
      headers: auth(),
      json: { webhook_endpoint: { url: receiver.url } },
    });
    expect(put.status, put.text).toBe(200);
    userId = await createUser(service, merchant);
    await decideKyc(service, merchant, userId, { status: 'full_clearance' });
    await waitForKyc(service, merchant, userId, (k) => k.eur.swift_status === 'approved');
    usdDetail = await createDetail(usdLocal);
    eurDetail = await createDetail(eurLocal);
    swiftDetail = await createDetail({ ...eurLocal, rails: 'swift', swift_bic: 'COBADEFFXXX' });
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await chain?.stop();
  });

  const newQuote = async (who: TestMerchant = merchant) => {
    const res = await service.request('POST', `/users/${userId}/quotes`, {
      headers: authOf(who),
      json: { quote: { deposit_token: 'usdc', deposit_token_chain: 'binance-smart-chain' } },
    });
    expect(res.status, res.text).toBe(200);
    return res.body as { quote: { id: string }; deposit_address: { adddress: `0x${string}` } };
  };
  const addOfframps = (quoteId: string, offramps: unknown, who: TestMerchant = merchant) =>
    service.request('POST', `/users/${userId}/quotes/${quoteId}/offramps`, {
      headers: authOf(who),
      json: { offramps },
    });
  const showQuote = (quoteId: string) =>
    service.request('GET', `/users/${userId}/quotes/${quoteId}`, { headers: auth() });
  const execute = (quoteId: string, crypto_transfer: Record<string, string>, who: TestMerchant = merchant) =>
    service.request('POST', `/users/${userId}/quotes/${quoteId}/execute`, {
      headers: authOf(who),
      json: { quote: { crypto_transfer } },
    });
  const usdc = () => chain.deployment.tokens.USDC.address;
  const usd = (amount: unknown, extra: Record<string, unknown> = {}) => ({
    payment_detail_id: usdDetail,
    destination_amount: amount,
    destination_currency: 'usd',
    ...extra,
  });
  const transferFor = (tx_id: string) => ({ tx_id, blockchain: 'binance-smart-chain', network: 'testnet' });
  /** A quote with offramps, funded on chain with `units` (default: exactly its deposit_token_amount). */
  const fundedQuote = async (offramps: unknown[], units?: bigint) => {
    const q = await newQuote();
    const added = await addOfframps(q.quote.id, offramps);
    expect(added.status, added.text).toBe(200);
    const shown = await showQuote(q.quote.id);
    const due = BigInt(Math.round(shown.body.quote.deposit_token_amount * 1e6));
    const hash = await chain.transfer(0, usdc(), q.deposit_address.adddress, units ?? due);
    return { quoteId: q.quote.id, hash, offramps: added.body.offramps as Array<{ id: string }> };
  };
  const waitForOfframp = async (
    id: string,
    status: string,
    timeoutMs = 30_000,
    // biome-ignore lint/suspicious/noExplicitAny: the offramp body is inspected field by field
    also: (offramp: any) => boolean = () => true,
  ) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await service.request('GET', `/users/${userId}/offramps/${id}`, { headers: auth() });
      expect(res.status, res.text).toBe(200);
      OfframpResponse.parse(res.body);
      if (res.body.offramp.status === status && also(res.body.offramp)) return res.body.offramp;
      if (Date.now() > deadline) throw new Error(`offramp stayed ${JSON.stringify(res.body.offramp)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const offrampUpdates = (id: string) =>
    receiver.received
      .map((r) => JSON.parse(r.body))
      .filter((b) => b.event === 'offramp_update' && b.payload.offramp.id === id)
      .map((b) => OfframpResponse.parse(b.payload).offramp);
  const webhookStatuses = (id: string) => offrampUpdates(id).map((o) => o.status);
  const webhookRefunds = (id: string) => offrampUpdates(id).map((o) => o.refund?.status ?? null);
  /** Waits (bounded) until `count` offramp_update webhooks of the offramp arrived. */
  const waitForWebhooks = async (id: string, count: number) => {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && offrampUpdates(id).length < count) {
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const resend = (quoteId: string, id: string, offramp: unknown) =>
    service.request('POST', `/users/${userId}/quotes/${quoteId}/offramps/${id}/resend`, {
      headers: auth(),
      json: offramp === undefined ? {} : { offramp },
    });
  const refund = (quoteId: string, id: string, offramp: unknown) =>
    service.request('POST', `/users/${userId}/quotes/${quoteId}/offramps/${id}/refund`, {
      headers: auth(),
      json: offramp === undefined ? {} : { offramp },
    });
  const usdcBalance = (address: string) =>
    chain.publicClient.readContract({
      address: usdc(),
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address as `0x${string}`],
    });
  const other_ = () => other;
  /** Polls the quote (bounded) until `done` holds. */
  // biome-ignore lint/suspicious/noExplicitAny: the quote body is inspected field by field
  const waitForQuote = async (quoteId: string, done: (body: any) => boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await showQuote(quoteId);
      expect(res.status, res.text).toBe(200);
      QuoteResponse.parse(res.body);
      if (done(res.body)) return res.body;
      if (Date.now() > deadline) throw new Error(`quote stayed ${res.text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const quoteUpdates = (quoteId: string) =>
    receiver.received
      .map((r) => JSON.parse(r.body))
      .filter((b) => b.event === 'quote_update' && b.payload.quote.id === quoteId)
      .map((b) => QuoteResponse.parse(b.payload));
  const waitForQuoteUpdates = async (quoteId: string, count: number) => {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && quoteUpdates(quoteId).length < count) {
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('prices offramps from the fee and FX tables, updates the quote totals, lists and shows them', async () => {
    const q = await newQuote();
    const res = await addOfframps(q.quote.id, [
      usd(1000, { reference: 'INV-1', metadata: { order: 7 } }),
      { payment_detail_id: eurDetail, destination_amount: '1000', destination_currency: 'eur' },
    ]);
    expect(res.status, res.text).toBe(200);
    OfframpListResponse.parse(res.body);
    const [a, b] = res.body.offramps;
    expect(a).toMatchObject({
      user_id: userId,
      payment_detail_id: usdDetail,
      quote_id: q.quote.id,
      status: 'initiated',
      status_message: null,
      destination_amount: 1000,
      destination_currency: 'usd',
      reference: 'INV-1',
      rails: 'local',
      rate: 1,
      fee: 4,
      supporting_document: null,
      metadata: { order: 7 },
      refund: null,
    });
    expect(b).toMatchObject({ destination_currency: 'eur', rate: 0.92, fee: 4, reference: null });
    const shown = await showQuote(q.quote.id);
    QuoteResponse.parse(shown.body);
    expect(shown.body.quote).toMatchObject({
      // 1004 USD at 1, plus 1004 EUR at 0.92 rounded up to the token's 6 decimals.
      deposit_token_amount: 2095.304348,
      fees: 8.347827,
      rates: { usd: 1, eur: 0.92 },
      executed: false,
    });
    expect(shown.body.offramps).toEqual(res.body.offramps);
    const list = await service.request('GET', `/users/${userId}/offramps`, { headers: auth() });
    OfframpListResponse.parse(list.body);
    expect(list.body.offramps.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    const one = await service.request('GET', `/users/${userId}/offramps/${a.id}`, { headers: auth() });
    expect(one.body).toEqual({ offramp: a });
  });

  it('requires approved details, matching currencies, supporting documents; refuses bad input and others', async () => {
    const q = await newQuote();
    const pending = await createDetail(usdLocal, false);
    expectError(
      await addOfframps(q.quote.id, [usd(10, { payment_detail_id: pending })]),
      422,
      'payment_detail_not_approved',
    );
    expectError(
      await addOfframps(q.quote.id, [usd(10, { destination_currency: 'eur' })]),
      422,
      'currency_mismatch',
    );
    expectError(await addOfframps(q.quote.id, [usd('10000.01')]), 422, 'record_invalid');
    const swift = { payment_detail_id: swiftDetail, destination_amount: 100, destination_currency: 'eur' };
    expectError(await addOfframps(q.quote.id, [swift]), 422, 'record_invalid');
    expectError(await addOfframps(q.quote.id, [usd(10, { rails: 'sepa' })]), 422, 'record_invalid');
    expectError(await addOfframps(q.quote.id, [usd('0')]), 422, 'record_invalid');
    expectError(await addOfframps(q.quote.id, [usd('-1')]), 422, 'record_invalid');
    expectError(await addOfframps(q.quote.id, [usd(10, { extra: 1 })]), 422, 'record_invalid');
    expectError(await addOfframps(q.quote.id, []), 422, 'record_invalid');
    expectError(
      await service.request('POST', `/users/${userId}/quotes/${q.quote.id}/offramps`, {
        headers: auth(),
        json: {},
      }),
      400,
      'parameter_missing',
    );
    const big = await addOfframps(q.quote.id, [
      usd('10000.01', { supporting_document_url: 'https://files.example.com/invoice.pdf' }),
      {
        ...swift,
        supporting_document_attributes: { submitted_url: 'https://files.example.com/payslip.pdf' },
      },
    ]);
    expect(big.status, big.text).toBe(200);
    expect(big.body.offramps[0].supporting_document).toEqual({
      submitted_url: 'https://files.example.com/invoice.pdf',
      status: 'not_checked',
    });
    expect(big.body.offramps[1]).toMatchObject({ rails: 'swift', fee: 25.5 });

    expectError(await addOfframps(q.quote.id, [usd(10)], other), 404, 'record_not_found');
    const id = big.body.offramps[0].id;
    for (const path of [`/users/${userId}/offramps/${id}`, `/users/${userId}/offramps`]) {
      expectError(await service.request('GET', path, { headers: authOf(other) }), 404, 'record_not_found');
    }
    expectError(
      await service.request('GET', `/users/${userId}/offramps/nope`, { headers: auth() }),
      404,
      'record_not_found',
    );
    expectError(
      await execute(q.quote.id, transferFor(`0x${'1'.repeat(64)}`), other),
      404,
      'record_not_found',
    );
    expectError(
      await execute(q.quote.id, { tx_id: 'nope', blockchain: 'x', network: 'y' }),
      422,
      'record_invalid',
    );
  });

  it('executes a funded quote; payouts reach fiat_sent, bounce on .13 and fail on .66 with a refund, with webhooks', async () => {
    const { quoteId, hash, offramps } = await fundedQuote([usd(100), usd('50.13'), usd('20.66')]);
    const sender = chain.deployment.shoppers[0]!.address;
    const senderBefore = await usdcBalance(sender);
    const totals = (await showQuote(quoteId)).body.quote;
    const res = await execute(quoteId, transferFor(hash));
    expect(res.status, res.text).toBe(200);
    QuoteResponse.parse(res.body);
    expect(res.body.quote.executed).toBe(true);
    expect(res.body.crypto_transfer).toEqual(transferFor(hash.toLowerCase()));
    expect(res.body.offramps.map((o: { status: string }) => o.status)).toEqual([
      'initiated',
      'initiated',
      'initiated',
    ]);
    const [sent, bounced, failed] = offramps.map((o) => o.id) as [string, string, string];
    expect((await waitForOfframp(sent, 'fiat_sent')).status_message).toBeNull();
    const bounce = await waitForOfframp(bounced, 'bounced');
    expect(bounce.status_message).toContain('returned the payout');
    expect(bounce.status_message).toContain('request a refund');
    expect(bounce.refund).toBeNull();

    // A failed payout is refunded on chain to the sender of the deposit: 20.66 USD plus the 1.00 fee.
    const refunded = await waitForOfframp(failed, 'failed', 30_000, (o) => o.refund?.status === 'sent');
    expect(refunded.refund).toMatchObject({ status: 'sent', address: sender, amount: 21.66 });
    expect(refunded.refund.tx_id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(refunded.status_message).toContain('rejected the payout');
    expect(refunded.status_message).toContain(`Refunded 21.66 USDC to ${sender}`);
    expect((await usdcBalance(sender)) - senderBefore).toBe(21_660_000n);

    await waitForWebhooks(sent, 3);
    await waitForWebhooks(bounced, 3);
    await waitForWebhooks(failed, 4);
    expect(webhookStatuses(sent)).toEqual(['pending_internal_assessment', 'sending_fiat', 'fiat_sent']);
    expect(webhookStatuses(bounced)).toEqual(['pending_internal_assessment', 'sending_fiat', 'bounced']);
    expect(webhookStatuses(failed)).toEqual([
      'pending_internal_assessment',
      'sending_fiat',
      'failed',
      'failed',
    ]);
    expect(webhookRefunds(failed)).toEqual([null, null, 'pending', 'sent']);

    // The quote still accounts for every offramp, the refunded and the bounced one included.
    const after = await showQuote(quoteId);
    QuoteResponse.parse(after.body);
    expect(after.body.quote).toEqual({ ...totals, executed: true });

    expectError(await execute(quoteId, transferFor(hash)), 422, 'quote_already_executed');
    expectError(await addOfframps(quoteId, [usd(10)]), 422, 'quote_already_executed');
  });

  it('resends a bounced payout to another approved detail of its currency, on request', async () => {
    const { quoteId, hash, offramps } = await fundedQuote([usd('30.13')]);
    expect((await execute(quoteId, transferFor(hash))).status).toBe(200);
    const id = offramps[0]!.id;
    await waitForOfframp(id, 'bounced');
    const pending = await createDetail(usdLocal, false);
    expectError(
      await resend(quoteId, id, { payment_detail_id: pending }),
      422,
      'payment_detail_not_approved',
    );
    expectError(await resend(quoteId, id, { payment_detail_id: eurDetail }), 422, 'currency_mismatch');
    expectError(
      await resend(quoteId, id, { payment_detail_id: '00000000-0000-4000-8000-000000000000' }),
      422,
      'record_invalid',
    );
    expectError(await resend(quoteId, id, { payment_detail_id: 'nope' }), 422, 'record_invalid');
    expectError(await resend(quoteId, id, { payment_detail_id: usdDetail, extra: 1 }), 422, 'record_invalid');
    expectError(await resend(quoteId, id, undefined), 400, 'parameter_missing');

    const fresh = await createDetail(usdLocal);
    const res = await resend(quoteId, id, { payment_detail_id: fresh });
    expect(res.status, res.text).toBe(200);
    OfframpResponse.parse(res.body);
    expect(res.body.offramp).toMatchObject({ id, status: 'bounced', payment_detail_id: fresh });
    // One request at a time: a second one while the first is applied is refused.
    expectError(await refund(quoteId, id, {}), 422, 'offramp_not_bounced');

    const paid = await waitForOfframp(id, 'fiat_sent');
    expect(paid).toMatchObject({ payment_detail_id: fresh, status_message: null, refund: null });
    await waitForWebhooks(id, 5);
    expect(webhookStatuses(id)).toEqual([
      'pending_internal_assessment',
      'sending_fiat',
      'bounced',
      'sending_fiat',
      'fiat_sent',
    ]);
    expectError(await resend(quoteId, id, { payment_detail_id: fresh }), 422, 'offramp_not_bounced');
    expectError(await refund(quoteId, id, {}), 422, 'offramp_not_bounced');
  });

  it("refunds a bounced payout on request, to a given address, exactly the offramp's tokens", async () => {
    const { quoteId, hash, offramps } = await fundedQuote([usd('40.13'), usd(5)]);
    expect((await execute(quoteId, transferFor(hash))).status).toBe(200);
    const [id, other] = offramps.map((o) => o.id) as [string, string];
    expectError(await refund(quoteId, other, {}), 422, 'offramp_not_bounced');
    await waitForOfframp(id, 'bounced');
    expectError(await refund(quoteId, id, { refund_address: '0x1234' }), 422, 'record_invalid');
    expectError(await refund(quoteId, id, undefined), 400, 'parameter_missing');
    expectError(
      await service.request('POST', `/users/${userId}/quotes/${quoteId}/offramps/${id}/refund`, {
        headers: authOf(other_()),
        json: { offramp: {} },
      }),
      404,
      'record_not_found',
    );
    const to = randomAddress();
    const res = await refund(quoteId, id, { refund_address: to.toLowerCase() });
    expect(res.status, res.text).toBe(200);
    expect(res.body.offramp).toMatchObject({ id, status: 'bounced' });
    const done = await waitForOfframp(id, 'failed', 30_000, (o) => o.refund?.status === 'sent');
    // 40.13 USD plus the 1.00 fee, at 1 USD per USDC.
    expect(done.refund).toMatchObject({ status: 'sent', address: to, amount: 41.13 });
    expect(done.status_message).toContain(`Refunded 41.13 USDC to ${to}`);
    expect(await usdcBalance(to)).toBe(41_130_000n);
    await waitForWebhooks(id, 5);
    expect(webhookStatuses(id)).toEqual([
      'pending_internal_assessment',
      'sending_fiat',
      'bounced',
      'failed',
      'failed',
    ]);
    expect(webhookRefunds(id)).toEqual([null, null, null, 'pending', 'sent']);
  });

  it("returns an overpaid execute's excess, then a later transfer reported through execute, each once", async () => {
    const sender = chain.deployment.shoppers[1]!.address;
    const before = await usdcBalance(sender);
    const q = await newQuote();
    const added = await addOfframps(q.quote.id, [usd(10)]);
    expect(added.status, added.text).toBe(200);
    const offrampId = added.body.offramps[0].id as string;
    // The quote costs 11 USDC (10 plus the 1.00 fee); 16 arrive.
    const hash = await chain.transfer(1, usdc(), q.deposit_address.adddress, 16_000_000n);
    const res = await execute(q.quote.id, transferFor(hash));
    expect(res.status, res.text).toBe(200);
    QuoteResponse.parse(res.body);
    expect(res.body.quote).toMatchObject({ executed: true, deposit_token_amount: 11 });
    expect(res.body.quote.refunds).toEqual([
      {
        reason: 'excess',
        status: 'pending',
        address: sender,
        amount: 5,
        deposit_tx_id: hash.toLowerCase(),
        tx_id: null,
      },
    ]);
    await waitForOfframp(offrampId, 'fiat_sent');
    const refunded = await waitForQuote(q.quote.id, (b) => b.quote.refunds[0]?.status === 'sent');
    expect(refunded.quote.refunds[0].tx_id).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await usdcBalance(sender)) - before).toBe(-11_000_000n);

    // Later the sender sends 3 more by mistake and reports the transaction.
    const late = await chain.transfer(1, usdc(), q.deposit_address.adddress, 3_000_000n);
    const reported = await execute(q.quote.id, transferFor(late));
    expectError(reported, 422, 'quote_already_executed');
    expect(reported.body.message).toContain(
      `3 USDC this transaction sent to the deposit address will be returned to ${sender}`,
    );
    const done = await waitForQuote(q.quote.id, (b) => b.quote.refunds[1]?.status === 'sent');
    expect(done.quote.refunds[1]).toMatchObject({
      reason: 'extra_transfer',
      status: 'sent',
      address: sender,
      amount: 3,
      deposit_tx_id: late.toLowerCase(),
    });
    expect((await usdcBalance(sender)) - before).toBe(-11_000_000n);
    // Reported again: nothing more is sent, the answer says where the tokens went.
    const again = await execute(q.quote.id, transferFor(late));
    expectError(again, 422, 'quote_already_executed');
    expect(again.body.message).toContain(
      `were returned to ${sender} in transaction ${done.quote.refunds[1].tx_id}`,
    );
    // The executing transaction itself is never returned.
    expect((await execute(q.quote.id, transferFor(hash))).body.message).toBe(
      'The quote has already been executed',
    );
    expect((await usdcBalance(sender)) - before).toBe(-11_000_000n);
    expect((await showQuote(q.quote.id)).body.quote.refunds).toHaveLength(2);

    // One quote_update per refund change: recorded, then sent.
    await waitForQuoteUpdates(q.quote.id, 4);
    const updates = quoteUpdates(q.quote.id).map((u) => u.quote.refunds.map((r) => r.status).join(','));
    expect(updates.sort()).toEqual(['pending', 'sent', 'sent,pending', 'sent,sent']);
  });

  it('refuses each execute error in the documented order', async () => {
    const tx = `0x${'ab'.repeat(32)}`;
    const empty = await newQuote();
    expectError(await execute(empty.quote.id, transferFor(tx)), 422, 'no_offramps_present');

    const detail = await createDetail(usdLocal);
    const q = await newQuote();
    expect((await addOfframps(q.quote.id, [usd(10, { payment_detail_id: detail })])).status).toBe(200);
    await setDetailStatus(detail, 'failed');
    expectError(await execute(q.quote.id, transferFor(tx)), 422, 'payment_detail_not_approved');

    const funded = await fundedQuote([usd(10)]);
    expectError(
      await execute(funded.quoteId, { ...transferFor(funded.hash), blockchain: 'ethereum' }),
      422,
      'currency_mismatch',
    );
    expectError(
      await execute(funded.quoteId, { ...transferFor(funded.hash), network: 'mainnet' }),
      422,
      'currency_mismatch',
    );

    const expired = await fundedQuote([usd(10)]);
    await service.db.kysely
      .updateTable('quotes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.quoteId)
      .execute();
    expectError(await execute(expired.quoteId, transferFor(expired.hash)), 422, 'quote_expired');

    const short = await fundedQuote([usd(10)], 1_000_000n);
    expectError(await execute(short.quoteId, transferFor(short.hash)), 422, 'sum_mismatch');
    expectError(await execute(short.quoteId, transferFor(tx)), 422, 'tx_rejected');

    // One transaction funds one quote.
    const ok = await execute(funded.quoteId, transferFor(funded.hash));
    expect(ok.status, ok.text).toBe(200);
    const again = await newQuote();
    expect((await addOfframps(again.quote.id, [usd(10)])).status).toBe(200);
    expectError(await execute(again.quote.id, transferFor(funded.hash)), 422, 'tx_already_used');
    // A transfer to another address is no funding of this quote.
    expectError(await execute(again.quote.id, transferFor(short.hash)), 422, 'tx_rejected');
  });

  it('changes the reference only of an initiated, non-USD-local offramp', async () => {
    const q = await newQuote();
    const added = await addOfframps(q.quote.id, [
      { payment_detail_id: eurDetail, destination_amount: 10, destination_currency: 'eur', reference: 'A' },
      usd(10),
    ]);
    const [eur, usdOne] = added.body.offramps as Array<{ id: string }>;
    const patch = (
      id: string | undefined,
      offramp: unknown,
      who: TestMerchant = merchant,
      quoteId = q.quote.id,
    ) =>
      service.request('PATCH', `/users/${userId}/quotes/${quoteId}/offramps/${id}`, {
        headers: authOf(who),
        json: { offramp },
      });
    const res = await patch(eur?.id, { reference: 'B' });
    expect(res.status, res.text).toBe(200);
    OfframpResponse.parse(res.body);
    expect(res.body.offramp).toMatchObject({ id: eur?.id, reference: 'B', status: 'initiated' });
    expectError(await patch(usdOne?.id, { reference: 'B' }), 422, 'record_invalid');
    expectError(await patch(eur?.id, { reference: 'B', destination_amount: 5 }), 422, 'record_invalid');
    expectError(await patch(eur?.id, { reference: 'B' }, other), 404, 'record_not_found');
    expectError(await patch('nope', { reference: 'B' }), 404, 'record_not_found');
    const elsewhere = await newQuote();
    expectError(
      await patch(eur?.id, { reference: 'B' }, merchant, elsewhere.quote.id),
      404,
      'record_not_found',
    );

    const funded = await fundedQuote([
      { payment_detail_id: eurDetail, destination_amount: 10, destination_currency: 'eur' },
    ]);
    expect((await execute(funded.quoteId, transferFor(funded.hash))).status).toBe(200);
    const id = funded.offramps[0]?.id;
    await waitForOfframp(id as string, 'fiat_sent');
    expectError(await patch(id, { reference: 'C' }, merchant, funded.quoteId), 422, 'record_invalid');
  });
});

describe.skipIf(databaseUnavailable())('quote expiry', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  let receiver: WebhookReceiver;
  let userId: string;
  let detail: string;

  beforeAll(async () => {
    chain = await startTestChain();
    // Six-second quotes: the quote's workflow timer expires them while the test watches.
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        QUOTE_EXPIRY_MINUTES: '0.1',
        DEPOSIT_MNEMONIC: freshMnemonic,
      },
    });
    merchant = await service.createMerchant();
    receiver = await startWebhookReceiver();
    await service.request('PUT', '/webhook_endpoint', {
      headers: authOf(merchant),
      json: { webhook_endpoint: { url: receiver.url } },
    });
    ({ userId, detail } = await createPayoutReadyUser(service, merchant));
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await chain?.stop();
  });

  it('expires a funded but unexecuted quote at its expiry: offramps fail, execute answers quote_expired', async () => {
    const q = await service.request('POST', `/users/${userId}/quotes`, {
      headers: authOf(merchant),
      json: { quote: { deposit_token: 'usdc', deposit_token_chain: 'binance-smart-chain' } },
    });
    expect(q.status, q.text).toBe(200);
    const quoteId = q.body.quote.id as string;
    const added = await service.request('POST', `/users/${userId}/quotes/${quoteId}/offramps`, {
      headers: authOf(merchant),
      json: {
        offramps: [{ payment_detail_id: detail, destination_amount: 10, destination_currency: 'usd' }],
      },
    });
    expect(added.status, added.text).toBe(200);
    const offrampId = added.body.offramps[0].id as string;
    const hash = await chain.transfer(
      0,
      chain.deployment.tokens.USDC.address,
      q.body.deposit_address.adddress,
      11_000_000n,
    );

    // Nothing is polled but the API: the quote's own workflow timer moves it at its expiry.
    const deadline = Date.now() + 30_000;
    let offramp = added.body.offramps[0];
    while (offramp.status === 'initiated' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      offramp = (
        await service.request('GET', `/users/${userId}/offramps/${offrampId}`, { headers: authOf(merchant) })
      ).body.offramp;
    }
    expect(Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(q.body.quote.expiry);
    expect(offramp).toMatchObject({ status: 'failed', refund: null });
    expect(offramp.status_message).toContain('The quote expired before it was executed');

    const executed = await service.request('POST', `/users/${userId}/quotes/${quoteId}/execute`, {
      headers: authOf(merchant),
      json: {
        quote: { crypto_transfer: { tx_id: hash, blockchain: 'binance-smart-chain', network: 'testnet' } },
      },
    });
    expectError(executed, 422, 'quote_expired');
    expect(executed.body.message).toContain('expired');
    const more = await service.request('POST', `/users/${userId}/quotes/${quoteId}/offramps`, {
      headers: authOf(merchant),
      json: { offramps: [{ payment_detail_id: detail, destination_amount: 5, destination_currency: 'usd' }] },
    });
    expectError(more, 422, 'quote_expired');
    const shown = await service.request('GET', `/users/${userId}/quotes/${quoteId}`, {
      headers: authOf(merchant),
    });
    QuoteResponse.parse(shown.body);
    expect(shown.body.quote).toMatchObject({ executed: false, deposit_token_amount: 11 });
    expect(shown.body.crypto_transfer).toBeNull();

    const failedUpdates = () =>
      receiver.received
        .map((u) => JSON.parse(u.body))
        .filter((b) => b.event === 'offramp_update')
        .map((b) => [b.payload.offramp.id, b.payload.offramp.status]);
    const hooksBy = Date.now() + 20_000;
    while (failedUpdates().length === 0 && Date.now() < hooksBy) await new Promise((r) => setTimeout(r, 100));
    expect(failedUpdates()).toEqual([[offrampId, 'failed']]);
  });

  const usdc = () => chain.deployment.tokens.USDC.address;
  const balanceOf = (address: string) =>
    chain.publicClient.readContract({
      address: usdc(),
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address as `0x${string}`],
    });
  const api = (method: string, path: string, json?: unknown) =>
    service.request(method, path, { headers: authOf(merchant), ...(json === undefined ? {} : { json }) });
  const quoteWithOfframp = async () => {
    const q = await api('POST', `/users/${userId}/quotes`, {
      quote: { deposit_token: 'usdc', deposit_token_chain: 'binance-smart-chain' },
    });
    expect(q.status, q.text).toBe(200);
    const added = await api('POST', `/users/${userId}/quotes/${q.body.quote.id}/offramps`, {
      offramps: [{ payment_detail_id: detail, destination_amount: 10, destination_currency: 'usd' }],
    });
    expect(added.status, added.text).toBe(200);
    return { id: q.body.quote.id as string, address: q.body.deposit_address.adddress as `0x${string}` };
  };
  // biome-ignore lint/suspicious/noExplicitAny: the quote body is inspected field by field
  const waitForQuote = async (quoteId: string, done: (body: any) => boolean) => {
    const deadline = Date.now() + 40_000;
    for (;;) {
      const res = await api('GET', `/users/${userId}/quotes/${quoteId}`);
      expect(res.status, res.text).toBe(200);
      QuoteResponse.parse(res.body);
      if (done(res.body)) return res.body;
      if (Date.now() > deadline) throw new Error(`quote stayed ${res.text}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const execute = (quoteId: string, tx_id: string) =>
    api('POST', `/users/${userId}/quotes/${quoteId}/execute`, {
      quote: { crypto_transfer: { tx_id, blockchain: 'binance-smart-chain', network: 'testnet' } },
    });

  it('returns what reached a quote that expired unexecuted to its senders at the expiry, once', async () => {
    const q = await quoteWithOfframp();
    const [a, b] = [chain.deployment.shoppers[1]!.address, chain.deployment.shoppers[2]!.address];
    const [aBefore, bBefore] = [await balanceOf(a), await balanceOf(b)];
    const fromA = await chain.transfer(1, usdc(), q.address, 11_000_000n);
    const fromB = await chain.transfer(2, usdc(), q.address, 1_250_000n);

    // Nobody executes: at the expiry the quote's workflow finds both transfers and returns them.
    const done = await waitForQuote(
      q.id,
      (body) =>
        body.quote.refunds.length === 2 &&
        body.quote.refunds.every((r: { status: string }) => r.status === 'sent'),
    );
    expect(done.quote.executed).toBe(false);
    expect(done.quote.refunds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          reason: 'quote_expired',
          address: a,
          amount: 11,
          deposit_tx_id: fromA.toLowerCase(),
        }),
        expect.objectContaining({
          reason: 'quote_expired',
          address: b,
          amount: 1.25,
          deposit_tx_id: fromB.toLowerCase(),
        }),
      ]),
    );
    expect(await balanceOf(a)).toBe(aBefore);
    expect(await balanceOf(b)).toBe(bBefore);

    // Executing it now names where the tokens went and sends nothing more.
    const late = await execute(q.id, fromA);
    expectError(late, 422, 'quote_expired');
    expect(late.body.message).toContain(`The 11 USDC this transaction sent were returned to ${a}`);
    expect(await balanceOf(a)).toBe(aBefore);
    const quoteUpdates = receiver.received
      .map((r) => JSON.parse(r.body))
      .filter((body) => body.event === 'quote_update' && body.payload.quote.id === q.id);
    for (const u of quoteUpdates) QuoteResponse.parse(u.payload);
  });

  /** Waits until the quote's workflow run has ended; returns that run's id. */
  const ended = async (quoteId: string) => {
    const client = service.deps.temporal!.client;
    const deadline = Date.now() + 40_000;
    for (;;) {
      const run = await client.workflow.getHandle(quoteWorkflowId(quoteId)).describe();
      if (run.status.name === 'COMPLETED') return run.runId;
      if (Date.now() > deadline) throw new Error(`the quote's workflow stayed ${run.status.name}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const watchedAddresses = async () =>
    (await service.deps.db.kysely.selectFrom('chain_watch_addresses').select('address').execute()).map(
      (r) => r.address,
    );

  it("returns a transfer sent after the expiry unreported: the chain's watcher hands it to the quote", async () => {
    const q = await quoteWithOfframp();
    // The quote expires and its workflow ends (nothing had arrived); its address stays watched for a while.
    const firstRun = await ended(q.id);
    const deadline = Date.now() + 30_000;
    while (!(await watchedAddresses()).includes(q.address.toLowerCase())) {
      if (Date.now() > deadline) throw new Error('the address was never watched');
      await new Promise((r) => setTimeout(r, 100));
    }
    const sender = chain.deployment.shoppers[1]!.address;
    const before = await balanceOf(sender);
    const hash = await chain.transfer(1, usdc(), q.address, 2_000_000n);

    // Nobody reports it: the watcher records it and starts the quote's workflow again, which returns it.
    const done = await waitForQuote(q.id, (body) => body.quote.refunds[0]?.status === 'sent');
    expect(done.quote.refunds).toEqual([
      expect.objectContaining({
        reason: 'quote_expired',
        status: 'sent',
        address: sender,
        amount: 2,
        deposit_tx_id: hash.toLowerCase(),
      }),
    ]);
    expect(await balanceOf(sender)).toBe(before);
    const recorded = await service.deps.db.kysely
      .selectFrom('chain_transfers')
      .select(['to_address', 'handed_over'])
      .where('tx_hash', '=', hash.toLowerCase())
      .execute();
    expect(recorded).toEqual([{ to_address: q.address.toLowerCase(), handed_over: true }]);
    expect(await ended(q.id)).not.toBe(firstRun);

    // Reported afterwards, execute names where the tokens went and nothing more leaves the treasury.
    const reported = await execute(q.id, hash);
    expectError(reported, 422, 'quote_expired');
    expect(reported.body.message).toContain(`The 2 USDC this transaction sent were returned to ${sender}`);
    expect(await balanceOf(sender)).toBe(before);
  });

  /** Once the chain watcher has read the block that mined `hash`. */
  const readPast = async (hash: Hash) =>
    waitForBlockRead(
      service.deps.db.kysely,
      97,
      (await chain.publicClient.getTransactionReceipt({ hash })).blockNumber,
    );

  it('returns a transfer sent after the watch ended once it is reported through execute', async () => {
    const q = await quoteWithOfframp();
    await ended(q.id);
    // As if the grace after its expiry had passed: the watcher lets the address go.
    await service.deps.db.kysely
      .updateTable('quotes')
      .set({
        expires_at: new Date(Date.now() - 3 * 3_600_000),
        updated_at: new Date(Date.now() - 3 * 3_600_000),
      })
      .where('id', '=', q.id)
      .execute();
    const deadline = Date.now() + 20_000;
    while ((await watchedAddresses()).includes(q.address.toLowerCase())) {
      if (Date.now() > deadline) throw new Error('the address stayed watched');
      await new Promise((r) => setTimeout(r, 100));
    }
    const sender = chain.deployment.shoppers[3]!.address;
    const before = await balanceOf(sender);
    const hash = await chain.transfer(3, usdc(), q.address, 4_000_000n);
    // The watcher reads past the transfer's block and leaves it alone: the address is no longer watched.
    await readPast(hash);
    expect((await waitForQuote(q.id, () => true)).quote.refunds).toEqual([]);
    const reported = await execute(q.id, hash);
    expectError(reported, 422, 'quote_expired');
    expect(reported.body.message).toContain(
      `The 4 USDC this transaction sent to the deposit address will be returned to ${sender}`,
    );
    const done = await waitForQuote(q.id, (body) => body.quote.refunds[0]?.status === 'sent');
    expect(done.quote.refunds).toEqual([
      {
        reason: 'quote_expired',
        status: 'sent',
        address: sender,
        amount: 4,
        deposit_tx_id: hash.toLowerCase(),
        tx_id: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      },
    ]);
    expect(await balanceOf(sender)).toBe(before);
    // Reported again, and a transaction that paid elsewhere: nothing more leaves the treasury.
    expectError(await execute(q.id, hash), 422, 'quote_expired');
    const elsewhere = await chain.transfer(3, usdc(), chain.deployment.shoppers[4]!.address, 1_000_000n);
    const unrelated = await execute(q.id, elsewhere);
    expectError(unrelated, 422, 'quote_expired');
    expect(unrelated.body.message).toBe('The quote has expired; create a new quote');
    await readPast(elsewhere);
    expect((await waitForQuote(q.id, () => true)).quote.refunds).toHaveLength(1);
    expect(await balanceOf(sender)).toBe(before - 1_000_000n);
  });
});
