/** Quotes against the real service and a local chain: shape, HD deposit addresses, isolation, bad input. */
import { deriveDepositAccount } from '@checkout/chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createUser, expectError } from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const devMnemonic = 'test test test test test test test test test test test junk';

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
      (_, index) => deriveDepositAccount({ mnemonic: devMnemonic, index }).address,
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
});
