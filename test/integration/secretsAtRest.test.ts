/**
 * Secrets never sit in the clear where the service keeps things: after requests that carry them (a user's
 * SSN, bank account and routing numbers, a rotated webhook secret — each sent with an Idempotency-Key, as the
 * SDK does —, the account's webhooks that carry the SSN and the account number, a payment whose webhook
 * carries the product secret and the customer's e-mail, delivered and redelivered, and a sandbox KYC page
 * opened by its token), the database's files and the service's log are searched for each plaintext, and the
 * stored webhook bodies for the e-mail (which the payment's own row keeps in the clear).
 * PGlite: its data directory (every file, the WAL included); PostgreSQL: every relation file of the test
 * database, read with pg_read_binary_file after a CHECKPOINT. Each search is checked against a value that is
 * stored in the clear in the same rows, so a search that finds nothing has looked where the secret would be.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { webhookRequestBody } from '@checkout/db';
import { createLogger } from '@checkout/server';
import { sql } from 'kysely';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authOf,
  decideKyc,
  individual,
  signatureMatches,
  usdLocalAccount,
  waitForKyc,
} from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');

/** Every byte the database keeps on disk for this test's data. */
async function databaseBytes(service: TestService): Promise<Buffer> {
  const db = service.deps.db.kysely;
  await sql`checkpoint`.execute(db);
  if (service.db.kind === 'pglite') return Buffer.from(await (await service.db.dump!()).arrayBuffer());
  const files = await sql<{ path: string }>`select pg_relation_filepath(c.oid) as path from pg_class c
    where c.relkind in ('r', 't', 'i', 'm') and pg_relation_filepath(c.oid) is not null`.execute(db);
  const parts: Buffer[] = [];
  for (const { path } of files.rows) {
    const read = await sql<{ data: Buffer }>`select pg_read_binary_file(${path}) as data`.execute(db);
    parts.push(read.rows[0]!.data);
  }
  return Buffer.concat(parts);
}

describe.skipIf(databaseUnavailable())('secrets at rest and in the log', () => {
  let chain: TestChain;
  let service: TestService;
  let receiver: WebhookReceiver;
  let merchant: TestMerchant;
  const log: string[] = [];

  beforeAll(async () => {
    [chain, receiver] = await Promise.all([startTestChain(), startWebhookReceiver()]);
    const sink = new Writable({
      write(chunk, _encoding, done) {
        log.push(String(chunk));
        done();
      },
    });
    service = await startTestService({
      logger: createLogger('info', sink),
      env: { RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl, CHAIN_POLL_INTERVAL_MS: '100' },
    });
    merchant = await service.createMerchant();
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await Promise.all([chain?.stop(), receiver?.close()]);
  });

  /** The requests of `event` that `match` their body, once `count` of them arrived (bounded wait). */
  async function arrived(event: string, count: number, match: (body: string) => boolean = () => true) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = receiver.received.filter((r) => r.headers['x-webhook-event'] === event && match(r.body));
      if (found.length >= count) return found;
      if (Date.now() > deadline)
        throw new Error(`only ${found.length} of ${count} ${event} webhooks arrived`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('keeps no SSN, account number, webhook secret, product secret, e-mail or KYC token in the clear', async () => {
    const keyed = (path: string, json: unknown, headers = authOf(merchant)) => {
      const key = `probe-${randomUUID()}`;
      return service
        .request('POST', path, { headers: { ...headers, 'idempotency-key': key }, json })
        .then((res) => ({ res, key }));
    };

    // A rotated webhook secret: the response holds it. Every webhook below is signed with it.
    const rotated = await keyed('/api/v1/webhook_secret/rotate', undefined, merchant.headers);
    expect(rotated.res.status, rotated.res.text).toBe(200);
    const webhookSecret = rotated.res.body.webhook_secret.secret as string;
    // A replay still answers the same, from the encrypted record.
    const replay = await service.request('POST', '/api/v1/webhook_secret/rotate', {
      headers: { ...merchant.headers, 'idempotency-key': rotated.key },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.webhook_secret.secret).toBe(webhookSecret);

    // The account's events (kyc_update, payment_detail_update) go to the receiver too.
    const endpoint = await service.request('PUT', '/webhook_endpoint', {
      headers: authOf(merchant),
      json: { webhook_endpoint: { url: receiver.url } },
    });
    expect(endpoint.status, endpoint.text).toBe(200);

    // A user: the response (and so its idempotency record) and its kyc_update webhooks hold the SSN.
    const ssn = `${digits(3)}-${digits(2)}-${digits(4)}`;
    const lastName = `Probe${digits(8)}`;
    const user = await keyed('/users', { user: { ...individual, ssn, last_name: lastName } });
    expect(user.res.status, user.res.text).toBe(200);
    expect(user.res.body.user.ssn).toBe(ssn);
    const userId = user.res.body.user.id as string;

    // A payment detail: the response and, once it is approved, its payment_detail_update webhook hold the
    // account and routing numbers.
    await decideKyc(service, merchant, userId, { status: 'approved' });
    await waitForKyc(service, merchant, userId, (k) => k.usd.status === 'approved');
    const accountNumber = digits(12);
    const detail = await keyed(`/users/${userId}/payment_details`, {
      payment_detail: { ...usdLocalAccount, account_number: accountNumber },
    });
    expect(detail.res.status, detail.res.text).toBe(200);
    const approved = await service.request(
      'PATCH',
      `/sandbox/users/${userId}/payment_details/${detail.res.body.payment_detail.id}`,
      { headers: authOf(merchant), json: { payment_detail: { status: 'approved' } } },
    );
    expect(approved.status, approved.text).toBe(200);

    // A KYC session whose page is opened by its token.
    const kyc = await service.request('POST', `/users/${userId}/kycs`, { headers: authOf(merchant) });
    expect(kyc.status, kyc.text).toBe(200);
    const token = new URL(kyc.body.kyc.url).pathname.split('/').at(-1)!;
    const page = await service.request('GET', `/sandbox/kyc/${token}`);
    expect(page.status, page.text).toBe(200);

    // A payment whose webhook carries the product secret and the customer's e-mail, delivered and then
    // redelivered.
    const email = `shopper-${digits(10)}@example.com`;
    const busd = chain.deployment.tokens.BUSD.address;
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Probe',
          email: 'merchant@example.com',
          active: true,
          open_amount: true,
          send_webhook: true,
          webhook_url: receiver.url,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(product.status, product.text).toBe(200);
    const opened = await service.request('POST', `/api/v1/checkout/${product.body.product.slug}/sessions`, {
      json: {
        dollar_amount: '3.00',
        email,
        sender_address: chain.deployment.shoppers[0]!.address,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const txHash = await chain.transfer(0, busd, merchant.address as Address, parseUnits('3', 18));
    const submitted = await service.request(
      'POST',
      `/api/v1/checkout/sessions/${opened.body.session.id}/transactions`,
      { json: { tx_hash: txHash } },
    );
    expect(submitted.status, submitted.text).toBe(200);
    const [first] = await arrived('resolved_payment.created', 1);
    const productSecret = JSON.parse(first!.body).product_secret as string;
    expect(productSecret).toMatch(/^ps_/);
    expect(first!.body).toContain(email);
    const deliveryId = String(first!.headers['x-webhook-id']);
    const redelivered = await service.request('POST', `/api/v1/webhook_deliveries/${deliveryId}/redeliver`, {
      headers: merchant.headers,
    });
    expect(redelivered.status, redelivered.text).toBe(200);
    const [, second] = await arrived('resolved_payment.created', 2);
    // The redelivery sends the same bytes, the product secret put back in its place.
    expect(second!.body).toBe(first!.body);

    // The account's webhooks carried the SSN and the account number.
    const kycUpdates = await arrived('kyc_update', 1, (b) => b.includes(ssn));
    const detailUpdates = await arrived('payment_detail_update', 1, (b) => b.includes(accountNumber));
    // Every body sent is the stored one opened (the product secret put back), and is what was signed.
    const db = service.deps.db.kysely;
    const sent = [...kycUpdates, ...detailUpdates, first!, second!];
    for (const request of sent) {
      expect(signatureMatches(webhookSecret, request.headers['x-sig'], request.body)).toBe(true);
      const row = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', String(request.headers['x-webhook-id']))
        .executeTakeFirstOrThrow();
      expect(await webhookRequestBody(db, service.deps.secrets, row)).toBe(request.body);
    }
    // The stored bodies hold none of it in the clear (the e-mail is also kept, in the clear, by the payment's
    // and the session's own rows, so the bodies are searched themselves).
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select(['event_type', 'payload'])
      .where('merchant_id', '=', merchant.merchantId)
      .execute();
    expect(new Set(rows.map((r) => r.event_type))).toEqual(
      new Set(['kyc_update', 'payment_detail_update', 'resolved_payment.created']),
    );
    const clearBodies = rows.filter((r) =>
      [ssn, accountNumber, email, productSecret, '{'].some((clear) => r.payload.includes(clear)),
    );
    expect(clearBodies).toEqual([]);

    const detailSubject = `${detail.res.body.payment_detail.id}:status:`;
    const stored = await databaseBytes(service);
    const text = log.join('');
    // What is stored in the clear next to each secret is found: the search looks where the secret would be.
    const controls = [
      ['the user (users)', lastName],
      ['an idempotency key (idempotency_keys)', user.key],
      ['an idempotency key (idempotency_keys)', rotated.key],
      ['a webhook delivery (webhook_deliveries)', detailSubject],
    ];
    expect(controls.filter(([, clear]) => !stored.includes(Buffer.from(clear!)))).toEqual([]);
    expect(text).toContain('"route":"/sandbox/kyc/:token"');
    const found: string[] = [];
    for (const [what, secret] of [
      ['SSN', ssn],
      ['account number', accountNumber],
      ['webhook secret', webhookSecret],
      ['product secret', productSecret],
      ['KYC page token', token],
    ] as const) {
      if (stored.includes(Buffer.from(secret))) found.push(`${what} in the database files`);
      if (text.includes(secret)) found.push(`${what} in the log`);
    }
    expect(found).toEqual([]);
    // The KYC session is kept by the token's hash.
    const tokenHash = createHash('sha256').update(token).digest('hex');
    expect(stored.includes(Buffer.from(tokenHash)), 'the token hash (kyc_sessions)').toBe(true);
  }, 180_000);
});
