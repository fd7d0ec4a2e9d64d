/** Idempotency-Key on POST: replay, mismatch, concurrency, tenant scoping. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const token = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};

describe.skipIf(databaseUnavailable())('idempotency', () => {
  let service: TestService;
  let merchant: TestMerchant;

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
  });

  const post = (key: string, name: string, who: TestMerchant = merchant) =>
    service.request('POST', '/api/v1/products', {
      headers: { ...who.headers, 'idempotency-key': key },
      json: { product: { name, email: 'a@example.com', token } },
    });
  const count = async (who: TestMerchant = merchant) =>
    (await service.request('GET', '/api/v1/products', { headers: who.headers })).body.products.length;

  it('replays the stored response for a retry with the same key and body', async () => {
    const before = await count();
    const first = await post('order-1', 'Once');
    const second = await post('order-1', 'Once');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await count()).toBe(before + 1);
  });

  it('refuses the same key with a different body', async () => {
    await post('order-2', 'First');
    const res = await post('order-2', 'Second');
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('idempotency_key_mismatch');
  });

  it('runs concurrent retries once', async () => {
    const before = await count();
    const results = await Promise.all(Array.from({ length: 8 }, () => post('order-3', 'Concurrent')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.product.id)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it('keeps nothing for a failed request, so a corrected retry with the same key runs', async () => {
    const bad = await service.request('POST', '/api/v1/products', {
      headers: { ...merchant.headers, 'idempotency-key': 'order-4' },
      json: { product: { name: 'Fixed', email: 'nope', token } },
    });
    expect(bad.status).toBe(422);
    const good = await post('order-4', 'Fixed');
    expect(good.status).toBe(200);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes keys to the merchant', async () => {
    const other = await service.createMerchant();
    const a = await post('shared-key', 'A');
    const b = await post('shared-key', 'B', other);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.product.id).not.toBe(a.body.product.id);
    expect(b.body.product.name).toBe('B');
  });

  it('keeps keys for at least 24 hours', async () => {
    const { purgeIdempotencyKeys } = await import('@checkout/db');
    await post('order-5', 'Kept');
    await service.deps.db.kysely
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - 23 * 3_600_000) })
      .where('key', '=', 'order-5')
      .execute();
    await purgeIdempotencyKeys(service.deps.db.kysely, 1);
    expect((await post('order-5', 'Kept')).headers.get('idempotent-replayed')).toBe('true');
    await service.deps.db.kysely
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - 49 * 3_600_000) })
      .where('key', '=', 'order-5')
      .execute();
    expect(await purgeIdempotencyKeys(service.deps.db.kysely)).toBeGreaterThanOrEqual(1);
  });
});
