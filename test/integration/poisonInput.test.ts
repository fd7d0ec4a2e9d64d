/**
 * Input PostgreSQL cannot store (NUL, lone surrogates), bodies that are not UTF-8 and encoded bodies:
 * refused in the one error shape on every route family, never a 5xx, and nothing written.
 */
import { randomUUID } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createUser, expectError, individual, usdLocalAccount } from '../support/areaB.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const usdc = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};
const product = { name: 'Shop', email: 'a@example.com', token: usdc, active: true, open_amount: true };
const nul = 'must not contain the NUL character (U+0000)';
const lone = 'must be valid Unicode: it contains a lone surrogate (U+D800 to U+DFFF)';

describe.skipIf(databaseUnavailable())('unstorable input', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let productId: string;
  let slug: string;
  let userId: string;

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    merchant = await service.createMerchant();
    const created = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: { product },
    });
    expect(created.status, created.text).toBe(200);
    productId = created.body.product.id;
    slug = created.body.product.slug;
    userId = await createUser(service, merchant);
  });
  afterAll(async () => {
    await service?.stop();
  });

  const count = async (table: 'products' | 'users' | 'expected_payments' | 'payment_details') => {
    const row = await service.deps.db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /** Sends the request and expects a 422 naming exactly `paths` (in any order). */
  const refused = async (
    method: string,
    path: string,
    json: unknown,
    errors: Array<{ path: string; message: string }>,
    headers: Record<string, string> = merchant.headers,
  ) => {
    const res = await service.request(method, path, { headers, json });
    expectError(res, 422, 'record_invalid');
    expect(res.body.errors).toEqual(expect.arrayContaining(errors));
    expect(res.body.errors).toHaveLength(errors.length);
  };

  it('refuses NUL and lone surrogates in Area A bodies, keys included, naming the field', async () => {
    const before = await count('products');
    await refused('POST', '/api/v1/products', { product: { ...product, name: 'a\u0000b' } }, [
      { path: 'product.name', message: nul },
    ]);
    await refused(
      'POST',
      '/api/v1/products',
      { product: { ...product, name: 'x\ud800', email_body: '\udfff' } },
      [
        { path: 'product.name', message: lone },
        { path: 'product.email_body', message: lone },
      ],
    );
    await refused(
      'POST',
      '/api/v1/products',
      { product: { ...product, token: { ...usdc, 'addr\u0000': 1 } } },
      [{ path: 'product.token.addr\\u0000', message: `is a key that ${nul}` }],
    );
    await refused('PATCH', `/api/v1/products/${productId}`, { product: { active: true, 'x\u0000': 1 } }, [
      { path: 'product.x\\u0000', message: `is a key that ${nul}` },
    ]);
    expect(await count('products')).toBe(before);

    const payments = await count('expected_payments');
    await refused(
      'POST',
      `/api/v1/products/${productId}/expected_payments`,
      { dollar_amount: '10', metadata: { note: 'x\u0000', nested: [{ 'k\ud800': 'v' }] } },
      [
        { path: 'metadata.note', message: nul },
        { path: 'metadata.nested.0.k\ufffd', message: `is a key that ${lone}` },
      ],
    );
    expect(await count('expected_payments')).toBe(payments);
    const auth = authOf(merchant);
    await refused(
      'PUT',
      '/webhook_endpoint',
      { webhook_endpoint: { url: 'https://hooks.example/\u0000' } },
      [{ path: 'webhook_endpoint.url', message: nul }],
      auth,
    );
    expect((await service.request('GET', '/webhook_endpoint', { headers: auth })).status).not.toBe(500);
  });

  it('refuses them in Area B bodies: users, payment details, quotes, offramps, onramps', async () => {
    const auth = authOf(merchant);
    const users = await count('users');
    await refused(
      'POST',
      '/users',
      { user: { ...individual, first_name: 'A\u0000', city: 'B\ud800' } },
      [
        { path: 'user.first_name', message: nul },
        { path: 'user.city', message: lone },
      ],
      auth,
    );
    expect(await count('users')).toBe(users);

    const details = await count('payment_details');
    for (const path of [`/users/${userId}/payment_details`, `/users/${userId}/payment_details/validate`]) {
      await refused(
        'POST',
        path,
        { payment_detail: { ...usdLocalAccount, bank_name: 'Chase\u0000' } },
        [{ path: 'payment_detail.bank_name', message: nul }],
        auth,
      );
    }
    expect(await count('payment_details')).toBe(details);

    await refused(
      'POST',
      `/users/${userId}/quotes`,
      { quote: { deposit_token: 'usdc\u0000', deposit_token_chain: 'polygon' } },
      [{ path: 'quote.deposit_token', message: nul }],
      auth,
    );
    const quoteId = randomUUID();
    await refused(
      'POST',
      `/users/${userId}/quotes/${quoteId}/offramps`,
      { offramps: [{ reference: 'r\u0000', metadata: { order: '\ud800' } }] },
      [
        { path: 'offramps.0.reference', message: nul },
        { path: 'offramps.0.metadata.order', message: lone },
      ],
      auth,
    );
    await refused(
      'PATCH',
      `/users/${userId}/quotes/${quoteId}/offramps/${randomUUID()}`,
      { offramp: { reference: '\u0000' } },
      [{ path: 'offramp.reference', message: nul }],
      auth,
    );
    await refused(
      'POST',
      `/users/${userId}/onramps`,
      { onramp: { destination_address: '0x\u0000', fiat_rails: 'ach_push' } },
      [{ path: 'onramp.destination_address', message: nul }],
      auth,
    );
  });

  it('refuses them on the public checkout and the sandbox', async () => {
    const payments = await count('expected_payments');
    await refused(
      'POST',
      `/api/v1/checkout/${slug}/sessions`,
      {
        email: 'shopper@example.com',
        token_address: usdc.address,
        sender_address: '0x2222222222222222222222222222222222222222',
        dollar_amount: '5',
        custom_fields: { reference: 'r\u0000' },
      },
      [{ path: 'custom_fields.reference', message: nul }],
      {},
    );
    expect(await count('expected_payments')).toBe(payments);
    await refused(
      'PATCH',
      `/sandbox/users/${userId}/kycs`,
      { kyc: { status: 'retry_required', moderation_comment: 'x\u0000' } },
      [{ path: 'kyc.moderation_comment', message: nul }],
      authOf(merchant),
    );
  });

  it('answers a path id holding NUL with 404, and a query parameter with 422 naming it', async () => {
    const auth = authOf(merchant);
    for (const [path, headers] of [
      ['/api/v1/checkout/a%00b', {}],
      ['/sandbox/kyc/%00', {}],
      [`/api/v1/expected_payments/%00`, merchant.headers],
      ['/users/%00', auth],
      [`/users/${userId}/payment_details/a%00`, auth],
    ] as const) {
      expectError(await service.request('GET', path, { headers }), 404, 'record_not_found');
    }
    expectError(await service.request('POST', '/sandbox/kyc/%00/submit', {}), 404, 'record_not_found');

    const query = await service.request('GET', `/api/v1/checkout/${slug}?expected_payment=%00`);
    expectError(query, 422, 'record_invalid');
    expect(query.body.errors).toEqual([{ path: 'expected_payment', message: nul }]);
    const banks = await service.request('GET', '/latam_bank_names?country_code=A%00R&x%00=1', {
      headers: auth,
    });
    expectError(banks, 422, 'record_invalid');
    expect(banks.body.errors).toEqual([
      { path: 'country_code', message: nul },
      { path: 'x\\u0000', message: `is a parameter name that ${nul}` },
    ]);
  });

  it('answers a body that is not UTF-8 with 415 and stores nothing', async () => {
    const before = await count('products');
    const text = JSON.stringify({ product: { ...product, name: 'AB' } });
    const at = text.indexOf('AB') + 1;
    const bytes = Buffer.concat([
      Buffer.from(text.slice(0, at)),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(text.slice(at)),
    ]);
    for (const contentType of ['application/json', 'application/json; charset=utf-8']) {
      const res = await service.request('POST', '/api/v1/products', {
        headers: { ...merchant.headers, 'content-type': contentType },
        body: bytes,
      });
      expectError(res, 415, 'unsupported_media_type');
      expect(res.body.message).toBe('The request body is not valid UTF-8');
    }
    expect(await count('products')).toBe(before);
  });

  it('reads gzip, deflate and br bodies, and refuses unknown encodings, broken data and bombs', async () => {
    const body = Buffer.from(JSON.stringify({ product: { ...product, name: 'Encoded' } }));
    const send = (encoding: string, data: Buffer) =>
      service.request('POST', '/api/v1/products', {
        headers: { ...merchant.headers, 'content-type': 'application/json', 'content-encoding': encoding },
        body: data,
      });
    for (const [encoding, data] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
      ['identity', body],
      ['gzip, br', brotliCompressSync(gzipSync(body))],
    ] as const) {
      const res = await send(encoding, data);
      expect(res.status, `${encoding}: ${res.text}`).toBe(200);
      expect(res.body.product.name).toBe('Encoded');
    }
    const unknown = await send('compress', body);
    expectError(unknown, 415, 'unsupported_media_type');
    expect(unknown.body.errors).toEqual([
      { path: 'Content-Encoding', message: 'must be gzip, deflate, br or identity' },
    ]);
    expectError(await send('gzip', body), 400, 'bad_request');
    // 50 MB of spaces inside a valid JSON string compress to about 50 KB: under the limit sent, far over it read.
    const bomb = gzipSync(
      Buffer.concat([
        Buffer.from('{"product":{"name":"'),
        Buffer.alloc(50_000_000, 0x20),
        Buffer.from('"}}'),
      ]),
    );
    expect(bomb.length).toBeLessThan(100 * 1024);
    expectError(await send('gzip', bomb), 413, 'payload_too_large');
    // A poisoned string inside an encoded body is still found.
    const poisoned = gzipSync(Buffer.from(JSON.stringify({ product: { ...product, name: '\u0000' } })));
    const res = await send('gzip', poisoned);
    expectError(res, 422, 'record_invalid');
    expect(res.body.errors).toEqual([{ path: 'product.name', message: nul }]);
  });
});
