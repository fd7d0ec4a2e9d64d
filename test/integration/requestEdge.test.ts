/**
 * The edge of every request, as a no-auth fuzz run and a hostile caller see it: authentication before any
 * body is read, bodies whose keys repeat or whose metadata nests without end, text that reads differently
 * from what it holds, the pages' framing headers and the methods each path allows.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import {
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
const product = (fields: Record<string, unknown> = {}) => ({
  product: { name: 'Shop', email: 'a@example.com', token: usdc, active: true, ...fields },
});
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

function expectError(res: TestResponse, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['error_code', 'errors', 'message', 'status']);
  expect(res.body.error_code).toBe(code);
}

interface Operation {
  method: string;
  path: string;
  secured: boolean;
}

describe.skipIf(databaseUnavailable())('the edge of a request', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let operations: Operation[];
  let slug: string;
  let productId: string;

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    merchant = await service.createMerchant();
    const doc = (await service.request('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    operations = Object.entries(doc.paths).flatMap(([template, item]) => {
      // A parameter is a fresh UUID: the route exists, no record does.
      const path = template.replace(/\{[^}]+\}/g, () => randomUUID());
      return Object.entries(item).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        secured: (op.security ?? []).length > 0,
      }));
    });
    const created = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: product({ custom_fields: ['full_name'] }),
    });
    expect(created.status, created.text).toBe(200);
    slug = created.body.product.slug;
    productId = created.body.product.id;
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('answers an anonymous request to a protected route with 401, whatever its body', async () => {
    const bodies: Array<{ name: string; headers: Record<string, string>; body: string | Buffer }> = [
      { name: 'malformed', headers: { 'content-type': 'application/json' }, body: '{"product": ' },
      { name: 'oversized', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(200_000) },
      { name: 'not JSON', headers: { 'content-type': 'text/plain' }, body: 'hello' },
      {
        name: 'unknown encoding',
        headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' },
        body: '{}',
      },
      {
        name: 'gzip bomb',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync(Buffer.alloc(1_000_000, 0x20)),
      },
      { name: 'repeated key', headers: { 'content-type': 'application/json' }, body: '{"a":1,"a":2}' },
      { name: 'deep', headers: { 'content-type': 'application/json' }, body: nested(5_000) },
    ];
    const secured = operations.filter((o) => o.secured && ['POST', 'PUT', 'PATCH'].includes(o.method));
    expect(secured.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const op of secured) {
      for (const { name, headers, body } of bodies) {
        const res = await service.request(op.method, op.path, { headers, body });
        if (res.status !== 401 || res.body?.error_code !== 'unauthorized') {
          failures.push(`${op.method} ${op.path} (${name}): ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers an anonymous caller without waiting for the body it announced', async () => {
    const secured = operations.filter((o) => o.secured && o.method === 'POST');
    for (const op of secured.slice(0, 5)) {
      // 2,000 bytes announced, 10 sent: a server that read the body first would wait for the rest.
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${service.url}${op.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': '2000' },
        });
        const timer = setTimeout(() => reject(new Error(`${op.path}: no answer before the body`)), 5_000);
        req.on('response', (res) => {
          clearTimeout(timer);
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', () => undefined);
        req.write('{"user": {');
      });
      expect(status, op.path).toBe(401);
    }
  });

  it('refuses a key given twice with 400 naming it, and creates nothing', async () => {
    const expected = `/api/v1/products/${productId}/expected_payments`;
    const res = await service.request('POST', expected, {
      headers: { ...merchant.headers, 'content-type': 'application/json' },
      body: '{"dollar_amount":"1.00","dollar_amount":"999.00"}',
    });
    expectError(res, 400, 'invalid_json');
    expect(res.body.errors).toEqual([{ path: 'dollar_amount', message: 'is given more than once' }]);
    const nestedKey = await service.request('POST', '/api/v1/products', {
      headers: { ...merchant.headers, 'content-type': 'application/json' },
      body: `{"product":{"name":"A","email":"a@example.com","name":"B","token":${JSON.stringify(usdc)}}}`,
    });
    expectError(nestedKey, 400, 'invalid_json');
    expect(nestedKey.body.errors).toEqual([{ path: 'product.name', message: 'is given more than once' }]);
    // The same key in two objects is no repetition.
    const fine = await service.request('POST', expected, {
      headers: { ...merchant.headers, 'content-type': 'application/json' },
      body: '{"dollar_amount":"1.00","metadata":{"a":{"dollar_amount":1},"b":{"dollar_amount":2}}}',
    });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body.expected_payment.dollar_amount).toBe('1.00');
  });

  it('refuses metadata nested without end with 422 on metadata, at any depth', async () => {
    const expected = `/api/v1/products/${productId}/expected_payments`;
    for (const levels of [33, 500, 5_000]) {
      const res = await service.request('POST', expected, {
        headers: { ...merchant.headers, 'content-type': 'application/json' },
        body: `{"dollar_amount":"1.00","metadata":${nested(levels)}}`,
      });
      expectError(res, 422, 'record_invalid');
      expect(res.body.errors).toEqual([
        { path: 'metadata', message: 'must be nested at most 32 levels deep' },
      ]);
    }
    const deepest = await service.request('POST', expected, {
      headers: { ...merchant.headers, 'content-type': 'application/json' },
      body: `{"dollar_amount":"1.00","metadata":${nested(32)}}`,
    });
    expect(deepest.status, deepest.text).toBe(200);
  });

  it('refuses bidi overrides and control characters where people read the text, naming the field', async () => {
    const refused = [
      [{ name: 'invoice\u202efdp.exe' }, 'product.name', /bidirectional formatting character U\+202E/],
      [{ name: 'Ring\u0007' }, 'product.name', /control character U\+0007/],
      [{ send_email: true, email_body: 'Hi \u001b[2J' }, 'product.email_body', /control character U\+001B/],
    ] as const;
    for (const [fields, path, message] of refused) {
      const res = await service.request('POST', '/api/v1/products', {
        headers: merchant.headers,
        json: product(fields),
      });
      expectError(res, 422, 'record_invalid');
      expect(res.body.errors).toEqual([{ path, message: expect.stringMatching(message) }]);
    }
    const fine = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: product({ name: 'قهوة\u200f Café', send_email: true, email_body: 'Thanks!\n\n\tThe shop' }),
    });
    expect(fine.status, fine.text).toBe(200);

    const session = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: {
        dollar_amount: '5.00',
        email: 'shopper@example.com',
        custom_fields: { full_name: 'Eve\u2066\u202eevE' },
        token_address: usdc.address,
      },
    });
    expectError(session, 422, 'record_invalid');
    expect(session.body.errors).toEqual([
      {
        path: 'custom_fields.full_name',
        message: 'must not contain the bidirectional formatting character U+2066',
      },
    ]);
  });

  it('forbids framing the hosted pages', async () => {
    for (const path of [`/checkout/${slug}`, '/checkout/no-such-slug']) {
      const res = await fetch(`${service.url}${path}`);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('lists in Allow the methods each path really has, OPTIONS included', async () => {
    const validate = await service.request('OPTIONS', `/users/${randomUUID()}/payment_details/validate`);
    expect(validate.status).toBe(200);
    expect(validate.headers.get('allow')).toBe('POST, OPTIONS');
    // Every documented path (the public checkout and refund pages' routes answer preflights themselves, with CORS).
    const byPath = new Map<string, Set<string>>();
    const openToBrowsers = ['/api/v1/checkout', '/api/v1/refund_claims', '/api/v1/refund_payments'];
    for (const op of operations) {
      if (openToBrowsers.some((p) => op.path.startsWith(p))) continue;
      const methods = byPath.get(op.path) ?? new Set(['OPTIONS']);
      methods.add(op.method);
      if (op.method === 'GET') methods.add('HEAD');
      byPath.set(op.path, methods);
    }
    const failures: string[] = [];
    for (const [path, methods] of byPath) {
      const res = await service.request('OPTIONS', path);
      const allow = new Set((res.headers.get('allow') ?? '').split(', '));
      if (res.status !== 200 || [...methods].sort().join() !== [...allow].sort().join()) {
        failures.push(
          `${path}: ${res.status} Allow: ${res.headers.get('allow')}, documented: ${[...methods]}`,
        );
      }
    }
    expect(failures).toEqual([]);
    const wrong = await service.request('DELETE', '/api/v1/products', { headers: merchant.headers });
    expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('POST, HEAD, GET, OPTIONS');
  });
});
