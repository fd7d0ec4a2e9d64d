/**
 * GET /api/v1/resolved_payments (filters, search, cursor pages), GET /api/v1/resolved_payments/:id and the
 * CSV export, against the real server and database; one merchant never sees another's payments.
 */
import { ResolvedPaymentPage } from '@checkout/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const usdc = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};
const token = { symbol: 'USDC', name: 'USD Coin', decimal_count: 6, ...usdc };
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe.skipIf(databaseUnavailable())('the payments list and its CSV export', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;
  const ids: string[] = [];

  /** Payment `n` of `productId`: 25 USDC expected; `received` and `email` as given; a minute apart. */
  async function pay(productId: string, n: number, received = '25000000', email = `shopper${n}@example.com`) {
    const id = crypto.randomUUID();
    await service.deps.db.kysely
      .insertInto('resolved_payments')
      .values({
        id,
        product_id: productId,
        expected_payment_id: crypto.randomUUID(),
        is_test: n % 2 === 0,
        dollar_amount: '25.00',
        metadata: JSON.stringify(null),
        user_email: email,
        custom_fields: JSON.stringify({}),
        chain_id: 1,
        expected_token: JSON.stringify(token),
        received_token: JSON.stringify(token),
        expected_token_amount: '25000000',
        received_token_amount: received,
        amount_difference: '0',
        receiving_address: merchant.address,
        sender_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        tx_id: hashOf(n),
        log_index: 0,
        tx_success: true,
        tx_failure: false,
        swapped: false,
        late: false,
        created_at: new Date(Date.UTC(2026, 10, 1, 0, n)),
      })
      .execute();
    return id;
  }

  const list = (query: string, who: TestMerchant = merchant) =>
    service.request('GET', `/api/v1/resolved_payments${query}`, { headers: who.headers });

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    merchant = await service.createMerchant();
    other = await service.createMerchant();
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: { product: { name: 'Tea', email: 'owner@example.com', token: usdc } },
    });
    for (let n = 1; n <= 5; n++) ids.push(await pay(product.body.product.id, n));
    // Payment 6 arrived short, with a formula for an e-mail: the export must not let a spreadsheet run it.
    ids.push(await pay(product.body.product.id, 6, '20000000', '=cmd@example.com'));
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('pages newest first with a cursor until the last page', async () => {
    const first = await list('?limit=4');
    expect(first.status).toBe(200);
    expect(ResolvedPaymentPage.safeParse(first.body).success).toBe(true);
    expect(first.body.resolved_payments.map((p: { id: string }) => p.id)).toEqual(ids.slice(2).reverse());
    expect(first.body.next_cursor).toBe(ids[2]);
    const second = await list(`?limit=4&cursor=${first.body.next_cursor}`);
    expect(second.body.resolved_payments.map((p: { id: string }) => p.id)).toEqual([ids[1], ids[0]]);
    expect(second.body.next_cursor).toBeNull();
  });

  it('finds a payment by its hash, e-mail or id, and filters by exception and mode', async () => {
    const byHash = await list(`?q=${hashOf(3).toUpperCase().replace('0X', '0x')}`);
    expect(byHash.body.resolved_payments.map((p: { id: string }) => p.id)).toEqual([ids[2]]);
    const byEmail = await list('?q=SHOPPER4@example.com');
    expect(byEmail.body.resolved_payments.map((p: { id: string }) => p.id)).toEqual([ids[3]]);
    const byId = await list(`?q=${ids[0]}`);
    expect(byId.body.resolved_payments.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect((await list('?q=tea')).body.resolved_payments).toEqual([]);
    const short = await list('?exception=paid_partially');
    expect(short.body.resolved_payments.map((p: { id: string }) => p.id)).toEqual([ids[5]]);
    expect(short.body.resolved_payments[0].payment.exception_status).toBe('paid_partially');
    const live = await list('?mode=live');
    expect(live.body.resolved_payments.map((p: { id: string }) => p.id)).toEqual([ids[4], ids[2], ids[0]]);
    const one = await service.request('GET', `/api/v1/resolved_payments/${ids[1]}`, {
      headers: merchant.headers,
    });
    expect(one.status).toBe(200);
    expect(one.body.resolved_payment.payment.tx_id).toBe(hashOf(2));
  });

  it('refuses a bad filter naming it, and keeps other merchants out', async () => {
    const bad = await list('?exception=lost&limit=0');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['exception', 'limit']);
    expect((await list('', other)).body.resolved_payments).toEqual([]);
    const theirs = await service.request('GET', `/api/v1/resolved_payments/${ids[0]}`, {
      headers: other.headers,
    });
    expect(theirs.status).toBe(404);
    const csv = await service.request('GET', '/api/v1/resolved_payments/export', { headers: other.headers });
    expect(csv.text.trim().split('\r\n')).toHaveLength(1);
  });

  it('answers a key without payments:read 403 naming it, on the list and the export', async () => {
    const made = await service.request('POST', '/api/v1/api_keys', {
      headers: merchant.headers,
      json: { name: 'products only', scopes: ['products:read'] },
    });
    expect(made.status, made.text).toBe(201);
    const headers = { authorization: `Bearer ${made.body.key}`, 'x-address': merchant.address };
    for (const path of ['/api/v1/resolved_payments', '/api/v1/resolved_payments/export']) {
      const refused = await service.request('GET', path, { headers });
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.errors).toEqual([{ path: 'scope', message: 'payments:read is required' }]);
    }
  });

  it('exports the filtered payments as CSV', async () => {
    const res = await service.request('GET', '/api/v1/resolved_payments/export?mode=test', {
      headers: merchant.headers,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = res.text.trimEnd().split('\r\n');
    expect(header).toBe(
      'id,created_at,product,email,dollar_amount,amount,token,chain,chain_id,tx_hash,sender,exception,refunded,test',
    );
    expect(rows.map((r) => r.split(',')[0])).toEqual([ids[5], ids[3], ids[1]]);
    expect(rows[0]?.split(',').slice(3)).toEqual([
      "'=cmd@example.com",
      '25.00',
      '20',
      'USDC',
      'ethereum mainnet',
      '1',
      hashOf(6),
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      'paid_partially',
      '0',
      'true',
    ]);
  });
});
