/** Onramps against the real service, a local chain and the sandbox bank partner. */
import { erc20Abi } from '@checkout/chain';
import { OnrampResponse } from '@checkout/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createOnrampReadyUser, createUser, expectError } from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('onramps', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let receiver: WebhookReceiver;
  let userId: string;

  beforeAll(async () => {
    chain = await startTestChain();
    service = await startTestService({
      env: { RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl, ONRAMP_EXPIRY_MINUTES: '0.05' },
    });
    merchant = await service.createMerchant();
    other = await service.createMerchant();
    receiver = await startWebhookReceiver();
    userId = await createOnrampReadyUser(service, merchant, receiver.url);
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await chain?.stop();
  });

  const create = (onramp: Record<string, unknown>, who: TestMerchant = merchant, user = userId) =>
    service.request('POST', `/users/${user}/onramps`, { headers: authOf(who), json: { onramp } });
  const deposit = (onrampId: string, amount: unknown) =>
    service.request('POST', `/sandbox/users/${userId}/onramps/${onrampId}/deposit`, {
      headers: authOf(merchant),
      json: { amount },
    });
  const show = (onrampId: string) =>
    service.request('GET', `/users/${userId}/onramps/${onrampId}`, { headers: authOf(merchant) });
  const waitForStatus = async (onrampId: string, status: string, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await show(onrampId);
      expect(res.status, res.text).toBe(200);
      if (res.body.onramp.status === status) return res.body.onramp;
      if (Date.now() > deadline) throw new Error(`onramp stayed ${JSON.stringify(res.body.onramp)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /** Polls the onramp (bounded) until `done` holds; every body parses as the OpenAPI schema. */
  // biome-ignore lint/suspicious/noExplicitAny: the onramp body is inspected field by field
  const waitFor = async (onrampId: string, done: (onramp: any) => boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await show(onrampId);
      expect(res.status, res.text).toBe(200);
      OnrampResponse.parse(res.body);
      if (done(res.body.onramp)) return res.body.onramp;
      if (Date.now() > deadline) throw new Error(`onramp stayed ${JSON.stringify(res.body.onramp)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const balanceOf = (token: `0x${string}`, address: string) =>
    chain.publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address as `0x${string}`],
    });
  const usdc = () => chain.deployment.tokens.USDC;
  const body = (destination: string, amount: unknown = 1000) => ({
    destination_amount: amount,
    crypto_currency: 'usdc',
    crypto_rails: 'binance-smart-chain',
    destination_address: destination,
    fiat_currency: 'usd',
    fiat_rails: 'ach_push',
  });

  it('creates an onramp with deposit instructions, shows and lists it without them', async () => {
    const destination = randomAddress();
    const res = await create(body(destination));
    expect(res.status, res.text).toBe(200);
    const o = res.body.onramp;
    expect(o).toMatchObject({
      user_id: userId,
      status: 'initiated',
      crypto_currency: 'usdc',
      crypto_rails: 'binance-smart-chain',
      destination_amount: 1000,
      fee: 4,
      deposit_amount: 1004,
      destination_address: destination,
      fiat_currency: 'usd',
      fiat_rails: 'ach_push',
    });
    expect(Object.keys(o.deposit_instructions).sort()).toEqual([
      'bank_account_number',
      'bank_address',
      'bank_beneficiary_name',
      'bank_name',
      'bank_routing_number',
      'deposit_message',
    ]);
    expect(o.deposit_instructions.deposit_message).toMatch(/^BV[A-Z0-9]{12}$/);
    const again = await service.request('POST', `/users/${userId}/onramp`, {
      headers: authOf(merchant),
      json: { onramp: body(destination, '2500') },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.onramp.deposit_instructions.deposit_message).not.toBe(
      o.deposit_instructions.deposit_message,
    );
    const wire = await create({ ...body(destination, '2500'), fiat_rails: 'wire' });
    expect(wire.body.onramp).toMatchObject({ fee: 10, deposit_amount: 2510 });

    const shown = await show(o.id);
    expect(shown.status).toBe(200);
    expect(shown.body.onramp.deposit_instructions).toBeUndefined();
    expect(shown.body.onramp.id).toBe(o.id);
    const list = await service.request('GET', `/users/${userId}/onramps`, { headers: authOf(merchant) });
    expect(list.status).toBe(200);
    expect(list.body.onramps.map((x: { id: string }) => x.id)).toContain(o.id);
  });

  it('sends the exact amount on chain once when two deposits arrive together; the second goes back', async () => {
    const destination = randomAddress();
    const res = await create(body(destination, '12.34'));
    expect(res.status, res.text).toBe(200);
    const id = res.body.onramp.id as string;
    expect(res.body.onramp.deposit_amount).toBe(13.34);
    const [first, second] = await Promise.all([deposit(id, '13.34'), deposit(id, 13.34)]);
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    const done = await waitForStatus(id, 'crypto_sent');
    expect(done.tx_id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(usdc().address, destination)).toBe(12_340_000n);

    // Each notice is a deposit of its own: one funds the onramp, the other is returned in full.
    const returned = await waitFor(id, (o) => o.refunds[0]?.status === 'sent');
    // The second deposit is done with (returned): it paid out nothing more.
    expect(await balanceOf(usdc().address, destination)).toBe(12_340_000n);
    expect(returned).toMatchObject({ status: 'crypto_sent', received_amount: 13.34 });
    expect(returned.refunds).toEqual([expect.objectContaining({ reason: 'late_deposit', amount: 13.34 })]);
    expect([first.body.deposit.id, second.body.deposit.id]).toContain(returned.refunds[0].deposit_id);

    const deadline = Date.now() + 20_000;
    let statuses: string[] = [];
    while (Date.now() < deadline) {
      statuses = receiver.received
        .map((r) => JSON.parse(r.body))
        .filter((b) => b.event === 'onramp_update' && b.payload.onramp.id === id)
        .map((b) => b.payload.onramp.status);
      if (statuses.length >= 5) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(statuses.sort()).toEqual(
      ['funds_received', 'sending_crypto', 'crypto_sent', 'crypto_sent', 'crypto_sent'].sort(),
    );
  });

  it('holds a short deposit, then completes when the rest arrives', async () => {
    const destination = randomAddress();
    const res = await create(body(destination, '100'));
    const id = res.body.onramp.id as string;
    expect(res.body.onramp.deposit_amount).toBe(101);
    expect((await deposit(id, '60')).status).toBe(200);
    const held = await waitForStatus(id, 'held');
    expect(held.status_message).toContain('41.00');
    expect(held.received_amount).toBe(60);
    expect(await balanceOf(usdc().address, destination)).toBe(0n);
    expect((await deposit(id, '41')).status).toBe(200);
    await waitForStatus(id, 'crypto_sent');
    expect(await balanceOf(usdc().address, destination)).toBe(100_000_000n);
  });

  it("returns a deposit's excess, and a deposit after delivery in full, through the bank partner once", async () => {
    const destination = randomAddress();
    const res = await create(body(destination, '12.34'));
    const id = res.body.onramp.id as string;
    expect(res.body.onramp).toMatchObject({ deposit_amount: 13.34, refunds: [] });
    const paid = await deposit(id, '20');
    expect(paid.status, paid.text).toBe(200);
    const depositId = paid.body.deposit.id as string;
    const sent = await waitFor(id, (o) => o.status === 'crypto_sent' && o.refunds[0]?.status === 'sent');
    expect(sent.received_amount).toBe(20);
    expect(sent.refunds).toEqual([
      {
        reason: 'excess',
        deposit_id: depositId,
        amount: 6.66,
        status: 'sent',
        reference: expect.stringMatching(/^RT[0-9A-F]{12}$/),
      },
    ]);
    // The tokens are exactly the destination amount: the excess went back as fiat, not as tokens.
    expect(await balanceOf(usdc().address, destination)).toBe(12_340_000n);

    // A deposit reported after the delivery is not credited and goes back in full; the status stays.
    const late = await deposit(id, '5.5');
    expect(late.status, late.text).toBe(200);
    const back = await waitFor(id, (o) => o.refunds.length === 2 && o.refunds[1].status === 'sent');
    expect(back).toMatchObject({ status: 'crypto_sent', received_amount: 20 });
    expect(back.refunds[1]).toMatchObject({
      reason: 'late_deposit',
      deposit_id: late.body.deposit.id,
      amount: 5.5,
    });
    expect(back.refunds[1].reference).not.toBe(back.refunds[0].reference);
    expect(await balanceOf(usdc().address, destination)).toBe(12_340_000n);

    // Each refund change reached the webhook endpoint; the first return is never made again.
    const deadline = Date.now() + 20_000;
    let updates: Array<{ status: string; refunds: Array<{ status: string }> }> = [];
    while (Date.now() < deadline) {
      updates = receiver.received
        .map((r) => JSON.parse(r.body))
        .filter((b) => b.event === 'onramp_update' && b.payload.onramp.id === id)
        .map((b) => OnrampResponse.parse(b.payload).onramp);
      if (updates.length >= 6) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(updates.map((u) => `${u.status}:${u.refunds.map((r) => r.status).join(',')}`).sort()).toEqual(
      [
        'funds_received:pending',
        'sending_crypto:pending',
        'crypto_sent:pending',
        'crypto_sent:sent',
        'crypto_sent:sent,pending',
        'crypto_sent:sent,sent',
      ].sort(),
    );
    const shown = await show(id);
    expect(shown.body.onramp.refunds).toEqual(back.refunds);
  });

  it('returns a deposit that arrives after the onramp expired', async () => {
    const res = await create(body(randomAddress(), '5'));
    const id = res.body.onramp.id as string;
    await waitForStatus(id, 'expired', 20_000);
    const late = await deposit(id, '6.02');
    expect(late.status, late.text).toBe(200);
    const back = await waitFor(id, (o) => o.refunds[0]?.status === 'sent');
    expect(back).toMatchObject({ status: 'expired', received_amount: 0 });
    expect(back.refunds).toEqual([
      {
        reason: 'late_deposit',
        deposit_id: late.body.deposit.id,
        amount: 6.02,
        status: 'sent',
        reference: expect.stringMatching(/^RT/),
      },
    ]);
  });

  it('expires an unfunded onramp', async () => {
    const res = await create(body(randomAddress(), '5'));
    const done = await waitForStatus(res.body.onramp.id, 'expired', 20_000);
    expect(done.status_message).toEqual(expect.any(String));
  });

  it('delivers 18-decimal and no-return tokens', async () => {
    const a = randomAddress();
    const b = randomAddress();
    const dai = await create({ ...body(a, '7.5'), crypto_currency: 'dai' });
    const usdt = await create({
      ...body(b, '3'),
      crypto_currency: 'usdt',
      fiat_currency: 'eur',
      fiat_rails: 'sepa',
    });
    expect(usdt.status, usdt.text).toBe(200);
    await deposit(dai.body.onramp.id, dai.body.onramp.deposit_amount);
    await deposit(usdt.body.onramp.id, String(usdt.body.onramp.deposit_amount));
    await waitForStatus(dai.body.onramp.id, 'crypto_sent');
    await waitForStatus(usdt.body.onramp.id, 'crypto_sent');
    expect(await balanceOf(chain.deployment.tokens.DAI.address, a)).toBe(7_500_000_000_000_000_000n);
    expect(await balanceOf(chain.deployment.tokens.USDT.address, b)).toBe(3_000_000n);
  });

  it('refuses bad input', async () => {
    const ok = body(randomAddress());
    expectError(await create({ ...ok, destination_address: '0x1234' }), 422, 'record_invalid');
    expectError(await create({ ...ok, destination_amount: 0 }), 422, 'record_invalid');
    expectError(await create({ ...ok, destination_amount: '-5' }), 422, 'record_invalid');
    expectError(await create({ ...ok, destination_amount: '1.234' }), 422, 'record_invalid');
    expectError(await create({ ...ok, destination_amount: 2_000_000 }), 422, 'record_invalid');
    expectError(await create({ ...ok, crypto_currency: 'btc' }), 422, 'record_invalid');
    expectError(await create({ ...ok, crypto_rails: 'tron' }), 422, 'record_invalid');
    expectError(await create({ ...ok, crypto_rails: 'ethereum' }), 422, 'record_invalid');
    expectError(await create({ ...ok, fiat_currency: 'gbp' }), 422, 'record_invalid');
    expectError(await create({ ...ok, fiat_rails: 'sepa' }), 422, 'record_invalid');
    expectError(await create({ ...ok, extra: 1 }), 422, 'record_invalid');
    const missing = await service.request('POST', `/users/${userId}/onramps`, {
      headers: authOf(merchant),
      json: {},
    });
    expectError(missing, 400, 'parameter_missing');
    const created = await create(ok);
    expectError(await deposit(created.body.onramp.id, 0), 422, 'record_invalid');
    expectError(await deposit(created.body.onramp.id, 'abc'), 422, 'record_invalid');
  });

  it('needs approved KYC', async () => {
    const fresh = await createUser(service, merchant);
    expectError(await create(body(randomAddress()), merchant, fresh), 422, 'not_yet_passed_kyc_kyb');
  });

  it('keeps onramps to their account', async () => {
    const created = await create(body(randomAddress()));
    const id = created.body.onramp.id as string;
    expectError(await create(body(randomAddress()), other), 404, 'record_not_found');
    for (const path of [`/users/${userId}/onramps/${id}`, `/users/${userId}/onramps`]) {
      expectError(await service.request('GET', path, { headers: authOf(other) }), 404, 'record_not_found');
    }
    const otherUser = await createUser(service, other);
    expectError(
      await service.request('GET', `/users/${otherUser}/onramps/${id}`, { headers: authOf(other) }),
      404,
      'record_not_found',
    );
    expectError(
      await service.request('POST', `/sandbox/users/${userId}/onramps/${id}/deposit`, {
        headers: authOf(other),
        json: { amount: 1 },
      }),
      404,
      'record_not_found',
    );
    expectError(await show('not-a-uuid'), 404, 'record_not_found');
  });
});
