/**
 * Test and live API keys: a test key (ck_test_…) sees and changes only test networks' records, and any other
 * record answers its 404; a live key (ck_live_…) sees every record, as keys always did.
 */
import { createApiKey, listApiKeys } from '@checkout/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';

const usdc = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};

describe.skipIf(databaseUnavailable())('test and live API keys', () => {
  let service: TestService;
  let live: Record<string, string>;
  let test: Record<string, string>;
  let liveKey: string;
  let testKey: string;
  let testBusd: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    const liveCreated = await createApiKey(service.deps.db.kysely, {
      address: `0x${'5a'.repeat(20)}`,
      mode: 'live',
    });
    const testCreated = await createApiKey(service.deps.db.kysely, {
      address: liveCreated.address,
      mode: 'test',
    });
    liveKey = liveCreated.key;
    testKey = testCreated.key;
    live = { authorization: `Bearer ${liveKey}`, 'x-address': liveCreated.address };
    test = { authorization: `Bearer ${testKey}`, 'x-address': liveCreated.address };
    testBusd = {
      blockchain: 'binance-smart-chain',
      network: 'testnet',
      address: service.deps.config.testnet.testTokenAddress,
    };
  });
  afterAll(async () => {
    await service?.stop();
  });

  const create = (headers: Record<string, string>, name: string, token: Record<string, string>) =>
    service.request('POST', '/api/v1/products', {
      headers,
      json: { product: { name, email: 'shop@example.com', active: true, token } },
    });

  it('tells the two kinds apart by their prefix', () => {
    expect(liveKey).toMatch(/^ck_live_[A-Za-z0-9_-]{43}$/);
    expect(testKey).toMatch(/^ck_test_[A-Za-z0-9_-]{43}$/);
  });

  it('lets a test key make test-network products only, naming the token it refuses', async () => {
    const refused = await create(test, 'Live beans', usdc);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({
      error_code: 'forbidden',
      errors: [{ path: 'product.token' }],
    });
    const made = await create(test, 'Test beans', testBusd);
    expect(made.status, made.text).toBe(200);
  });

  it('hides live records from a test key (404 and absent from lists); a live key sees both', async () => {
    const liveProduct = (await create(live, 'Live coffee', usdc)).body.product;
    const testProduct = (await create(live, 'Test coffee', testBusd)).body.product;

    const listedByTest = await service.request('GET', '/api/v1/products', { headers: test });
    const testNames = listedByTest.body.products.map((p: { name: string }) => p.name);
    expect(testNames).toContain('Test coffee');
    expect(testNames).not.toContain('Live coffee');
    const listedByLive = await service.request('GET', '/api/v1/products', { headers: live });
    const liveNames = listedByLive.body.products.map((p: { name: string }) => p.name);
    expect(liveNames).toEqual(expect.arrayContaining(['Live coffee', 'Test coffee', 'Test beans']));

    for (const path of [
      `/api/v1/products/${liveProduct.id}/resolved_payments`,
      `/api/v1/products/${liveProduct.id}/webhook_deliveries`,
    ]) {
      const hidden = await service.request('GET', path, { headers: test });
      expect([path, hidden.status, hidden.body.error_code]).toEqual([path, 404, 'record_not_found']);
      const shown = await service.request('GET', path, { headers: live });
      expect([path, shown.status]).toEqual([path, 200]);
    }
    const change = await service.request('PATCH', `/api/v1/products/${liveProduct.id}`, {
      headers: test,
      json: { product: { active: false } },
    });
    expect(change.status).toBe(404);
    const expected = await service.request('POST', `/api/v1/products/${liveProduct.id}/expected_payments`, {
      headers: test,
      json: { dollar_amount: '5.00' },
    });
    expect(expected.status).toBe(404);

    const liveExpected = await service.request(
      'POST',
      `/api/v1/products/${liveProduct.id}/expected_payments`,
      { headers: live, json: { dollar_amount: '5.00' } },
    );
    expect(liveExpected.status, liveExpected.text).toBe(200);
    const expectedId = liveExpected.body.expected_payment.id;
    const readByTest = await service.request('GET', `/api/v1/expected_payments/${expectedId}`, {
      headers: test,
    });
    expect(readByTest.status).toBe(404);

    const testExpected = await service.request(
      'POST',
      `/api/v1/products/${testProduct.id}/expected_payments`,
      { headers: test, json: { dollar_amount: '5.00' } },
    );
    expect(testExpected.status, testExpected.text).toBe(200);
  });

  it('shows each key its mode in the listing; keys made this way hold every scope', async () => {
    const keys = await listApiKeys(service.deps.db.kysely);
    expect(keys.map((k) => k.scopes)).toEqual(keys.map(() => ['all']));
    const modes = keys
      .filter((k) => k.prefix.startsWith('ck_live_') || k.prefix.startsWith('ck_test_'))
      .map((k) => [k.prefix.slice(0, 8), k.mode]);
    expect(modes).toEqual(
      expect.arrayContaining([
        ['ck_live_', 'live'],
        ['ck_test_', 'test'],
      ]),
    );
  });
});
