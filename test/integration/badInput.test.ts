/** Every bad request gets its documented status and the one error shape; none is a 5xx. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import {
  randomAddress,
  startTestService,
  type TestMerchant,
  type TestResponse,
  type TestService,
} from '../support/service.ts';

const usdc = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};
const validProduct = { product: { name: 'Shop', email: 'a@example.com', token: usdc } };

function expectError(res: TestResponse, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(Object.keys(res.body).sort()).toEqual(['error_code', 'errors', 'message', 'status']);
  expect(res.body.error_code).toBe(code);
  expect(res.body.status).toBe(status);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(Array.isArray(res.body.errors)).toBe(true);
}

describe.skipIf(databaseUnavailable())('bad input', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let productId: string;
  let productSlug: string;
  let otherProductId: string;

  beforeAll(async () => {
    service = await startTestService({ temporal: false, env: { BODY_LIMIT_BYTES: '4096' } });
    merchant = await service.createMerchant();
    other = await service.createMerchant();
    const mine = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: validProduct,
    });
    productId = mine.body.product.id;
    productSlug = mine.body.product.slug;
    const theirs = await service.request('POST', '/api/v1/products', {
      headers: other.headers,
      json: validProduct,
    });
    otherProductId = theirs.body.product.id;
  });
  afterAll(async () => {
    await service?.stop();
  });

  const endpoints = () => [
    { method: 'POST', path: '/api/v1/products', json: validProduct },
    { method: 'GET', path: '/api/v1/products' },
    { method: 'PATCH', path: `/api/v1/products/${productId}`, json: { product: { active: true } } },
    { method: 'PATCH', path: `/api/v1/product/${productId}`, json: { product: { active: true } } },
    { method: 'GET', path: `/api/v1/products/${productId}/resolved_payments` },
  ];

  it('refuses a missing API key with 401 on every endpoint', async () => {
    for (const e of endpoints()) {
      const res = await service.request(e.method, e.path, {
        headers: { 'x-address': merchant.address },
        json: e.json,
      });
      expectError(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('refuses a wrong or malformed API key with 401', async () => {
    for (const e of endpoints()) {
      for (const authorization of [`Bearer ck_${'x'.repeat(43)}`, 'Basic abc', merchant.key, 'Bearer']) {
        const res = await service.request(e.method, e.path, {
          headers: { authorization, 'x-address': merchant.address },
          json: e.json,
        });
        expectError(res, 401, 'unauthorized');
      }
    }
  });

  it('refuses a revoked key', async () => {
    const { revokeApiKey, findMerchantByApiKey } = await import('@checkout/db');
    const victim = await service.createMerchant();
    const found = await findMerchantByApiKey(service.deps.db.kysely, victim.key);
    await revokeApiKey(service.deps.db.kysely, found!.apiKeyId);
    expectError(
      await service.request('GET', '/api/v1/products', { headers: victim.headers }),
      401,
      'unauthorized',
    );
  });

  it('requires X-ADDRESS, well-formed, and of the key’s merchant', async () => {
    for (const e of endpoints()) {
      const auth = { authorization: merchant.headers.authorization! };
      const missing = await service.request(e.method, e.path, { headers: auth, json: e.json });
      expectError(missing, 400, 'parameter_missing');
      expect(missing.body.errors).toEqual([{ path: 'X-ADDRESS', message: 'is required' }]);
      const malformed = await service.request(e.method, e.path, {
        headers: { ...auth, 'x-address': '0x1234' },
        json: e.json,
      });
      expectError(malformed, 400, 'invalid_header');
      const foreign = await service.request(e.method, e.path, {
        headers: { ...auth, 'x-address': other.address },
        json: e.json,
      });
      expectError(foreign, 403, 'forbidden');
      const unknown = await service.request(e.method, e.path, {
        headers: { ...auth, 'x-address': randomAddress() },
        json: e.json,
      });
      expectError(unknown, 403, 'forbidden');
    }
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    for (const e of endpoints().filter((x) => x.json)) {
      const res = await service.request(e.method, e.path, {
        headers: { ...merchant.headers, 'content-type': 'application/json' },
        body: '{"product": {"name": ',
      });
      expectError(res, 400, 'invalid_json');
    }
  });

  it('answers a non-JSON content type with 415', async () => {
    for (const e of endpoints().filter((x) => x.json)) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const res = await service.request(e.method, e.path, {
          headers: { ...merchant.headers, 'content-type': type },
          body: JSON.stringify(e.json),
        });
        expectError(res, 415, 'unsupported_media_type');
      }
    }
  });

  it('answers an oversized body with 413', async () => {
    const big = { product: { ...validProduct.product, email_body: 'x'.repeat(10_000) } };
    for (const e of endpoints().filter((x) => x.json)) {
      expectError(
        await service.request(e.method, e.path, { headers: merchant.headers, json: big }),
        413,
        'payload_too_large',
      );
      // Chunked, without a declared length.
      const chunked = await fetch(`${service.url}${e.path}`, {
        method: e.method,
        headers: { ...merchant.headers, 'content-type': 'application/json' },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(JSON.stringify(big)));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);
      expect(((await chunked.json()) as { error_code: string }).error_code).toBe('payload_too_large');
    }
  });

  it('answers a missing body or root key with 400 parameter_missing', async () => {
    for (const e of endpoints().filter((x) => x.json)) {
      for (const json of [undefined, {}, [], 'text', 42, null, { products: {} }]) {
        const res = await service.request(e.method, e.path, {
          headers: merchant.headers,
          ...(json === undefined ? {} : { json }),
        });
        expectError(res, 400, 'parameter_missing');
        expect(res.body.errors).toEqual([{ path: 'product', message: 'is required' }]);
      }
    }
  });

  it('answers wrong types and unknown fields with 422 naming each field', async () => {
    const wrong = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          ...validProduct.product,
          name: 42,
          active: 'yes',
          tax_rate: {},
          custom_fields: 'company',
          token: 'USDC',
        },
      },
    });
    expectError(wrong, 422, 'record_invalid');
    expect(wrong.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      ['product.active', 'product.custom_fields', 'product.name', 'product.tax_rate', 'product.token'].sort(),
    );
    const unknown = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: { product: { ...validProduct.product, price: 5 }, extra: true },
    });
    expectError(unknown, 422, 'record_invalid');
    expect(unknown.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'product.price', message: 'is not a known field' },
        { path: 'extra', message: 'is not a known field' },
      ]),
    );
    const patch = await service.request('PATCH', `/api/v1/products/${productId}`, {
      headers: merchant.headers,
      json: { product: { active: 'true', name: 'x' } },
    });
    expectError(patch, 422, 'record_invalid');
    expect(patch.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'product.active',
      'product.name',
    ]);
  });

  it('answers another merchant’s or an unknown id with 404', async () => {
    for (const id of [otherProductId, crypto.randomUUID(), 'not-a-uuid', '1']) {
      expectError(
        await service.request('PATCH', `/api/v1/products/${id}`, {
          headers: merchant.headers,
          json: { product: { active: true } },
        }),
        404,
        'record_not_found',
      );
      expectError(
        await service.request('GET', `/api/v1/products/${id}/resolved_payments`, {
          headers: merchant.headers,
        }),
        404,
        'record_not_found',
      );
    }
  });

  it('answers bad query parameters as their declaration says, naming each', async () => {
    const get = (path: string) => service.request('GET', path, { headers: merchant.headers });
    // A parameter naming a record answers that record's 404, malformed or given twice.
    for (const query of ['not-a-uuid', `${crypto.randomUUID()}&expected_payment=${crypto.randomUUID()}`]) {
      const view = await get(`/api/v1/checkout/${productSlug}?expected_payment=${query}`);
      expectError(view, 404, 'record_not_found');
      expect(view.body.message).toBe('Expected payment not found');
      expectError(await get(`/checkout/${productSlug}?expected_payment=${query}`), 404, 'record_not_found');
    }
    const paths = (res: TestResponse) => res.body.errors.map((e: { path: string }) => e.path).sort();
    const twice = await get('/api/v1/refunds?status=canceled&status=expired&since=yesterday');
    expectError(twice, 422, 'record_invalid');
    expect(twice.body.errors).toEqual(
      expect.arrayContaining([{ path: 'status', message: 'must be given once' }]),
    );
    expect(paths(twice)).toEqual(['since', 'status']);
    const unknown = await get('/api/v1/unmatched_transfers?product_id=1&colour=red');
    expectError(unknown, 422, 'record_invalid');
    expect(paths(unknown)).toEqual(['colour', 'product_id']);
  });

  it('answers unknown routes with 404 and wrong methods with 405', async () => {
    expectError(await service.request('GET', '/nope'), 404, 'route_not_found');
    expectError(
      await service.request('GET', '/api/v1/nope', { headers: merchant.headers }),
      404,
      'route_not_found',
    );
    const del = await service.request('DELETE', '/api/v1/products', { headers: merchant.headers });
    expectError(del, 405, 'method_not_allowed');
    expect(del.headers.get('allow')).toMatch(/GET/);
    expectError(
      await service.request('PUT', `/api/v1/products/${productId}`, { headers: merchant.headers, json: {} }),
      405,
      'method_not_allowed',
    );
    expectError(await service.request('POST', '/health'), 405, 'method_not_allowed');
  });

  it('never answers 5xx to odd requests', async () => {
    const odd: Array<[string, string, Record<string, string>, string | undefined]> = [
      [
        'POST',
        '/api/v1/products',
        { ...merchant.headers, 'content-type': 'application/json; charset=latin1' },
        '{}',
      ],
      [
        'POST',
        '/api/v1/products',
        { ...merchant.headers, 'content-type': 'application/json' },
        '\u0000\u0001',
      ],
      [
        'POST',
        '/api/v1/products',
        { ...merchant.headers, 'content-type': 'application/json' },
        '{"product":{"name":"\ud800"}}',
      ],
      ['GET', `/api/v1/products/${'%'}`, merchant.headers, undefined],
      ['GET', `/api/v1/products/${'a'.repeat(5000)}/resolved_payments`, merchant.headers, undefined],
      [
        'POST',
        '/api/v1/products',
        { ...merchant.headers, 'idempotency-key': 'x'.repeat(300) },
        JSON.stringify(validProduct),
      ],
    ];
    for (const [method, path, headers, body] of odd) {
      const res = await service.request(method, path, {
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body }),
      });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(500);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body?.error_code, res.text).toBeTypeOf('string');
    }
  });
});
