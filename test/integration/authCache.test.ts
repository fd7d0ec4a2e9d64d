/**
 * Authentication kept by each API process (`server/src/authCache.ts`): a known key makes no query, and what
 * changes it — a revoked key, a product added, a key's end — is never served stale: at once in the process
 * that made the change, and in another process as soon as the change's notice (`api_access_changed`) reaches
 * it. Two service instances on one PostgreSQL database stand for two API processes; each one's notices can be
 * held back, as a slow listening connection would, to show which of the two ways a change took.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseUnavailable, type TestDatabase } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitFor } from '../support/waitFor.ts';

/** `db` whose notices to this process are held while `held` is set, and delivered in order by `release`. */
function withHeldNotices(db: TestDatabase) {
  const queue: Array<() => void> = [];
  const control = {
    held: false,
    release() {
      control.held = false;
      for (const deliver of queue.splice(0)) deliver();
    },
  };
  const wrapped: TestDatabase = {
    ...db,
    listen: (channel, handlers) =>
      db.listen(channel, {
        ...handlers,
        onNotify: (payload) =>
          control.held ? queue.push(() => handlers.onNotify(payload)) : handlers.onNotify(payload),
      }),
  };
  return { db: wrapped, control };
}

describe.skipIf(databaseUnavailable())('authentication kept by each API process', () => {
  let db: TestDatabase;
  let a: TestService;
  let b: TestService;
  let noticesOfA: ReturnType<typeof withHeldNotices>['control'];
  let noticesOfB: ReturnType<typeof withHeldNotices>['control'];
  let merchant: TestMerchant;

  beforeAll(async () => {
    db = await createTestDatabase();
    const forA = withHeldNotices(db);
    const forB = withHeldNotices(db);
    noticesOfA = forA.control;
    noticesOfB = forB.control;
    a = await startTestService({ temporal: false, db: forA.db });
    b = await startTestService({ temporal: false, db: forB.db });
    merchant = await a.createMerchant();
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await db?.close();
  });

  /** Authentications `service` answered from what it kept. */
  const hits = async (service: TestService) =>
    (await service.deps.metrics.apiAuthCache.get()).values.find((v) => v.labels.outcome === 'hit')?.value ??
    0;
  const headersOf = (key: string) => ({ authorization: `Bearer ${key}`, 'x-address': merchant.address });
  const products = (service: TestService, key = merchant.key) =>
    service.request('GET', '/api/v1/products', { headers: headersOf(key) });
  /** Lists with `key` on `service` until it answers from what it kept (it keeps nothing until it listens). */
  const kept = (service: TestService, key = merchant.key) =>
    waitFor(
      async () => {
        const before = await hits(service);
        const res = await products(service, key);
        expect(res.status, res.text).toBe(200);
        return (await hits(service)) > before;
      },
      (hit) => hit,
      'an authentication answered from memory',
    );
  const newKey = async (scopes: string[]) => {
    const made = await a.request('POST', '/api/v1/api_keys', {
      headers: merchant.headers,
      json: { name: `kept ${randomUUID()}`, scopes },
    });
    expect(made.status, made.text).toBe(201);
    return made.body as { key: string; api_key: { id: string } };
  };

  it('answers a key it verified without asking the database again', async () => {
    await kept(a);
    const before = await hits(a);
    for (let i = 0; i < 5; i++) expect((await products(a)).status).toBe(200);
    expect(await hits(a)).toBe(before + 5);
  });

  it('refuses a revoked key at once where it was revoked, and in the other process once told', async () => {
    const doomed = await newKey(['products:read']);
    await kept(a, doomed.key);
    await kept(b, doomed.key);
    noticesOfA.held = true;
    noticesOfB.held = true;
    const revoked = await a.request('DELETE', `/api/v1/api_keys/${doomed.api_key.id}`, {
      headers: merchant.headers,
    });
    expect(revoked.status, revoked.text).toBe(200);
    // The process that revoked it forgot it before answering; the other still holds it until told.
    expect((await products(a, doomed.key)).status).toBe(401);
    expect((await products(b, doomed.key)).status).toBe(200);
    noticesOfA.release();
    noticesOfB.release();
    const there = await waitFor(
      () => products(b, doomed.key),
      (res) => res.status !== 200,
      'the revoked key refused by the other process',
    );
    expect(there.status).toBe(401);
  });

  it('lists a product just made at once where it was made, and in the other process once told', async () => {
    await kept(a);
    await kept(b);
    noticesOfA.held = true;
    noticesOfB.held = true;
    const made = await a.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: `Kept ${randomUUID()}`,
          email: 'shop@example.com',
          token: {
            blockchain: 'ethereum',
            network: 'mainnet',
            address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
          },
        },
      },
    });
    expect(made.status, made.text).toBe(200);
    const ids = (res: { body: { products: { id: string }[] } }) => res.body.products.map((p) => p.id);
    expect(ids(await products(a))).toContain(made.body.product.id);
    expect(ids(await products(b))).not.toContain(made.body.product.id);
    noticesOfA.release();
    noticesOfB.release();
    const there = await waitFor(
      () => products(b),
      (res) => ids(res).includes(made.body.product.id),
      'the new product listed by the other process',
    );
    expect(there.status).toBe(200);
  });

  it("checks a kept key's end at each request: an expiry announces nothing", async () => {
    const rolled = await newKey(['products:read', 'keys:write']);
    const roll = await a.request('POST', `/api/v1/api_keys/${rolled.api_key.id}/roll`, {
      headers: headersOf(rolled.key),
      json: { overlap_minutes: 1 },
    });
    expect(roll.status, roll.text).toBe(201);
    await kept(a, rolled.key);
    const cache = a.deps.authCache;
    const kysely = a.deps.db.kysely;
    const inTwoMinutes = new Date(Date.now() + 120_000);
    expect(await cache.key(kysely, rolled.key)).toMatchObject({ apiKeyId: rolled.api_key.id });
    expect(await cache.key(kysely, rolled.key, inTwoMinutes)).toBeUndefined();
    expect(await cache.wallet(kysely, rolled.key, merchant.address, inTwoMinutes)).toBeUndefined();
    expect(await cache.key(kysely, roll.body.key, inTwoMinutes)).toMatchObject({
      apiKeyId: roll.body.api_key.id,
    });
  });
});
