/**
 * Checkout session event streams are pushed: a change reaches every open stream of every API process at
 * once, idle streams cost the database nothing, and a lost listening connection misses nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type Db, openDatabase, updateSession, upsertSession } from '@checkout/db';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSessionStream, type SessionStream } from '../../scripts/bench/streams/sessionStream.ts';
import { createTestDatabase, databaseUnavailable, type TestDatabase } from '../support/database.ts';
import { randomAddress, startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';

const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const postgres = inject('databaseKind') === 'postgres';

/** Counts every query the service sends through its Kysely instance. */
function queryCounter(): { plugin: KyselyPlugin; count: number } {
  const counter = {
    count: 0,
    plugin: {
      transformQuery: (args) => {
        counter.count++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    } satisfies KyselyPlugin,
  };
  return counter;
}

describe.skipIf(databaseUnavailable())('session event streams', () => {
  let db: TestDatabase;
  let service: TestService;
  let merchant: TestMerchant;
  let productId: string;
  const queries = queryCounter();
  const streams: SessionStream[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    service = await startTestService({
      db: { ...db, kysely: db.kysely.withPlugin(queries.plugin) },
      temporal: false,
    });
    merchant = await service.createMerchant();
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Pushed',
          email: 'm@example.com',
          active: true,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: token },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    productId = res.body.product.id;
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await service?.stop();
    await db?.close();
  });

  /** A session awaiting payment, opened as the public API opens it. */
  const newSession = async (): Promise<string> => {
    const ep = await service.request('POST', `/api/v1/products/${productId}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: '3.00' },
    });
    expect(ep.status, ep.text).toBe(200);
    const { session } = await upsertSession(
      db.kysely,
      {
        id: randomUUID(),
        expected_payment_id: ep.body.expected_payment.id,
        product_id: productId,
        merchant_id: merchant.merchantId,
        email: 'shopper@example.com',
        custom_fields: {},
        sender_address: randomAddress(),
        payment_token_address: token,
        chain_id: 97,
        expected_token: {
          symbol: 'BUSD',
          address: token,
          name: 'BUSD Token',
          decimal_count: 18,
          blockchain: 'binance-smart-chain',
          network: 'testnet',
        },
        expected_token_amount: (3n * 10n ** 18n).toString(),
        receiving_address: merchant.address,
        required_confirmations: 20,
        start_block: '0',
        expires_at: null,
        reference: randomBytes(32).toString('hex'),
        client_secret_hash: null,
      },
      null,
    );
    return session.id;
  };

  const open = async (baseUrl: string, id: string) => {
    const stream = await openSessionStream(baseUrl, id);
    streams.push(stream);
    await stream.next((s) => s.status === 'awaiting_payment');
    return stream;
  };

  const metric = async (target: TestService, name: string) => {
    const res = await target.request('GET', '/metrics');
    const line = res.text.split('\n').find((l) => l.startsWith(`${name} `));
    return Number(line?.split(' ')[1]);
  };

  it('pushes each change to the stream at once, far inside the old 500 ms poll', async () => {
    const id = await newSession();
    const stream = await open(service.url, id);
    // The first change also compiles the trigger's function: not timed.
    await updateSession(db.kysely, id, { status: 'confirming', tx_hash: `0x${'ab'.repeat(32)}` });
    await stream.next((s) => s.status === 'confirming', 5_000);
    const pushedBefore = await metric(service, 'checkout_session_events_pushed_total');
    const latencies: number[] = [];
    for (let confirmations = 1; confirmations <= 6; confirmations++) {
      // A random phase: a stream that polled every 500 ms would be caught anywhere in its period.
      await new Promise((r) => setTimeout(r, Math.random() * 500));
      const changed = performance.now();
      await updateSession(db.kysely, id, { confirmations });
      const event = await stream.next((s) => s.confirmations === confirmations, 5_000);
      latencies.push(event.at - changed);
    }
    expect(Math.max(...latencies), latencies.join(', ')).toBeLessThan(250);
    expect(await metric(service, 'checkout_session_events_pushed_total')).toBe(pushedBefore + 6);
  });

  it('ends the stream with the final state', async () => {
    const id = await newSession();
    const stream = await open(service.url, id);
    await updateSession(db.kysely, id, { status: 'failed', error: 'reverted' });
    expect((await stream.next((s) => s.status === 'failed')).session.error).toBe('reverted');
    await stream.ended;
  });

  it('costs the database nothing while N streams stay idle', async () => {
    const n = 20;
    const ids = await Promise.all(Array.from({ length: n }, () => newSession()));
    const opened = await Promise.all(ids.map((id) => open(service.url, id)));
    expect(await metric(service, 'checkout_session_streams')).toBeGreaterThanOrEqual(n);
    await new Promise((r) => setTimeout(r, 200));
    const before = queries.count;
    await new Promise((r) => setTimeout(r, 3_000));
    // A 500 ms poll would have read each session (and its amount) six times: 240 queries.
    expect(queries.count - before).toBeLessThanOrEqual(1);

    // The counter does see the service's queries: a change costs one read, by the one stream following it
    // (the update itself goes through the test's own handle; a safety poll may fall in the window).
    const quiet = queries.count;
    await updateSession(db.kysely, ids[3]!, { status: 'confirming', confirmations: 2 });
    await opened[3]!.next((s) => s.confirmations === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(queries.count - quiet).toBeGreaterThanOrEqual(1);
    expect(queries.count - quiet).toBeLessThanOrEqual(2);
  });

  it.runIf(postgres)('fans a change out to the streams of every API process', async () => {
    const other: Db = await openDatabase({ kind: 'postgres', url: db.url!, poolSize: 2 });
    const second = await startTestService({ db: { ...other, url: db.url! }, temporal: false });
    try {
      const id = await newSession();
      const onFirst = await open(service.url, id);
      const onSecond = await open(second.url, id);
      // The change is made by a third party (as the worker process would), through neither API process.
      const changed = performance.now();
      await updateSession(db.kysely, id, { status: 'confirming', confirmations: 1 });
      const [a, b] = await Promise.all([
        onFirst.next((s) => s.confirmations === 1, 5_000),
        onSecond.next((s) => s.confirmations === 1, 5_000),
      ]);
      expect(a.at - changed).toBeLessThan(200);
      expect(b.at - changed).toBeLessThan(200);
      expect(b.session).toEqual(a.session);
    } finally {
      await second.stop();
      await other.close();
    }
  });

  it.runIf(postgres)('reads every stream again when the listening connection comes back', async () => {
    const proxy = await startTcpProxy('127.0.0.1:5432');
    const url = new URL(db.url!);
    url.host = proxy.address;
    const proxied = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
    const behind = await startTestService({ db: { ...proxied, url: url.toString() }, temporal: false });
    try {
      const id = await newSession();
      const stream = await open(behind.url, id);
      // Every connection of that process to the database is cut, and stays cut while the session changes:
      // the notification of the change goes to no one.
      proxy.down();
      await new Promise((r) => setTimeout(r, 300));
      await updateSession(db.kysely, id, { status: 'confirming', confirmations: 7 });
      await new Promise((r) => setTimeout(r, 1_000));
      expect(stream.events.some((e) => e.session.confirmations === 7)).toBe(false);
      proxy.up();
      // Well before the 30 s safety poll: the listener is back within seconds and every stream reads again.
      const event = await stream.next((s) => s.confirmations === 7, 10_000);
      expect(event.session.status).toBe('confirming');
      // And listening works again for the next change.
      await updateSession(db.kysely, id, { confirmations: 8 });
      await stream.next((s) => s.confirmations === 8, 5_000);
    } finally {
      await behind.stop();
      await proxied.close();
      await proxy.close();
    }
  });
});
