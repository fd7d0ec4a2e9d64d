/**
 * Bad input on every ramp endpoint (onramps, the sandbox deposit, quotes, rate, offramps, resend, refund,
 * execute): the documented 4xx in the one error shape, naming the field, never a 5xx. Also the OpenAPI
 * document: every ramp operation answers 200 with its schema and its errors with the one error shape.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createPayoutReadyUser, createUser } from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import {
  randomAddress,
  startTestService,
  type TestMerchant,
  type TestResponse,
  type TestService,
} from '../support/service.ts';

function expectError(res: TestResponse, status: number, code: string, what = '') {
  expect(res.status, `${what} ${res.text}`).toBe(status);
  expect(res.headers.get('content-type'), what).toMatch(/application\/json/);
  expect(Object.keys(res.body).sort(), what).toEqual(['error_code', 'errors', 'message', 'status']);
  expect(res.body.error_code, `${what} ${res.text}`).toBe(code);
  expect(res.body.status).toBe(status);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(Array.isArray(res.body.errors)).toBe(true);
}

interface Endpoint {
  method: string;
  path: string;
  /** The body's root key and a valid body, for endpoints that take one. */
  root?: string;
  json?: unknown;
  /** A body with wrong types or unknown fields, and the field paths the 422 must name. */
  invalid?: { json: unknown; paths: string[] };
}

describe.skipIf(databaseUnavailable())('ramp bad input', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let userId: string;
  let detail: string;
  let onrampId: string;
  let quoteId: string;
  let offrampId: string;

  beforeAll(async () => {
    chain = await startTestChain();
    service = await startTestService({ env: { RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl } });
    merchant = await service.createMerchant();
    other = await service.createMerchant();
    ({ userId, detail } = await createPayoutReadyUser(service, merchant));
    const api = (method: string, path: string, json: unknown) =>
      service.request(method, path, { headers: authOf(merchant), json });
    const onramp = await api('POST', `/users/${userId}/onramps`, { onramp: validOnramp() });
    expect(onramp.status, onramp.text).toBe(200);
    onrampId = onramp.body.onramp.id;
    const quote = await api('POST', `/users/${userId}/quotes`, { quote: validQuote });
    quoteId = quote.body.quote.id;
    const offramps = await api('POST', `/users/${userId}/quotes/${quoteId}/offramps`, {
      offramps: [validOfframp()],
    });
    expect(offramps.status, offramps.text).toBe(200);
    offrampId = offramps.body.offramps[0].id;
  });
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  const validOnramp = () => ({
    destination_amount: 10,
    crypto_currency: 'usdc',
    crypto_rails: 'binance-smart-chain',
    destination_address: randomAddress(),
    fiat_currency: 'usd',
    fiat_rails: 'ach_push',
  });
  const validQuote = { deposit_token: 'usdc', deposit_token_chain: 'binance-smart-chain' };
  const validOfframp = () => ({
    payment_detail_id: detail,
    destination_amount: 10,
    destination_currency: 'usd',
  });
  const transfer = { tx_id: `0x${'ab'.repeat(32)}`, blockchain: 'binance-smart-chain', network: 'testnet' };

  /** Every ramp endpoint, with the ids of the given user, quote, offramp and onramp. */
  const endpoints = (
    ids: { user?: string; quote?: string; offramp?: string; onramp?: string } = {},
  ): Endpoint[] => {
    const u = `/users/${ids.user ?? userId}`;
    const q = `${u}/quotes/${ids.quote ?? quoteId}`;
    const o = `${q}/offramps/${ids.offramp ?? offrampId}`;
    const r = `${u}/onramps/${ids.onramp ?? onrampId}`;
    return [
      {
        method: 'POST',
        path: `${u}/onramps`,
        root: 'onramp',
        json: { onramp: validOnramp() },
        invalid: {
          json: {
            onramp: { ...validOnramp(), destination_amount: 'ten', crypto_currency: 5, colour: 'red' },
          },
          paths: ['onramp.colour', 'onramp.crypto_currency', 'onramp.destination_amount'],
        },
      },
      {
        method: 'POST',
        path: `${u}/onramp`,
        root: 'onramp',
        json: { onramp: validOnramp() },
        invalid: {
          json: { onramp: { ...validOnramp(), destination_address: '0x12', fiat_rails: [] } },
          paths: ['onramp.destination_address', 'onramp.fiat_rails'],
        },
      },
      { method: 'GET', path: `${u}/onramps` },
      { method: 'GET', path: r },
      {
        method: 'POST',
        path: `/sandbox${r}/deposit`,
        root: 'amount',
        json: { amount: 1 },
        invalid: { json: { amount: '1.001', currency: 'usd' }, paths: ['amount', 'currency'] },
      },
      {
        method: 'POST',
        path: `${u}/quotes`,
        root: 'quote',
        json: { quote: validQuote },
        invalid: {
          json: { quote: { deposit_token: 5, deposit_token_chain: '', amount: 1 } },
          paths: ['quote.amount', 'quote.deposit_token', 'quote.deposit_token_chain'],
        },
      },
      {
        method: 'POST',
        path: `${u}/quote/rate`,
        root: 'quote',
        json: { quote: { ...validQuote, fiat_currency: 'usd', fiat_amount: 10 } },
        invalid: {
          json: { quote: { ...validQuote, fiat_currency: 'usd', fiat_amount: '1.234', rails: 7 } },
          paths: ['quote.fiat_amount', 'quote.rails'],
        },
      },
      { method: 'GET', path: q },
      {
        method: 'POST',
        path: `${q}/offramps`,
        root: 'offramps',
        json: { offramps: [validOfframp()] },
        invalid: {
          json: { offramps: [{ payment_detail_id: 'x', destination_amount: {}, destination_currency: 1 }] },
          paths: [
            'offramps.0.destination_amount',
            'offramps.0.destination_currency',
            'offramps.0.payment_detail_id',
          ],
        },
      },
      {
        method: 'PATCH',
        path: o,
        root: 'offramp',
        json: { offramp: { reference: 'INV-2' } },
        invalid: {
          json: { offramp: { reference: 5, status: 'fiat_sent' } },
          paths: ['offramp.reference', 'offramp.status'],
        },
      },
      {
        method: 'POST',
        path: `${o}/resend`,
        root: 'offramp',
        json: { offramp: { payment_detail_id: detail } },
        invalid: {
          json: { offramp: { payment_detail_id: 'nope', rails: 'swift' } },
          paths: ['offramp.payment_detail_id', 'offramp.rails'],
        },
      },
      {
        method: 'POST',
        path: `${o}/refund`,
        root: 'offramp',
        json: { offramp: {} },
        invalid: {
          json: { offramp: { refund_address: 'nope', amount: 1 } },
          paths: ['offramp.amount', 'offramp.refund_address'],
        },
      },
      {
        method: 'POST',
        path: `${q}/execute`,
        root: 'quote',
        json: { quote: { crypto_transfer: transfer } },
        invalid: {
          json: { quote: { crypto_transfer: { tx_id: '0x12', blockchain: 5 } } },
          paths: [
            'quote.crypto_transfer.blockchain',
            'quote.crypto_transfer.network',
            'quote.crypto_transfer.tx_id',
          ],
        },
      },
      { method: 'GET', path: `${u}/offramps` },
      { method: 'GET', path: `${u}/offramps/${ids.offramp ?? offrampId}` },
    ];
  };
  const withBody = () => endpoints().filter((e) => e.root);

  it('answers a missing or wrong API key with 401 on every endpoint', async () => {
    for (const e of endpoints()) {
      for (const headers of [
        {},
        { authorization: `Bearer ck_${'x'.repeat(43)}` },
        { authorization: 'Basic abc' },
      ]) {
        const res = await service.request(e.method, e.path, { headers, json: e.json });
        expectError(res, 401, 'unauthorized', `${e.method} ${e.path}`);
      }
    }
  });

  it("answers another account's, an unknown or a malformed id with 404 on every endpoint", async () => {
    for (const e of endpoints()) {
      const res = await service.request(e.method, e.path, { headers: authOf(other), json: e.json });
      expectError(res, 404, 'record_not_found', `other account: ${e.method} ${e.path}`);
    }
    const otherUser = await createUser(service, other);
    for (const ids of [
      { user: randomUUID() },
      { user: 'not-a-uuid' },
      { user: otherUser },
      { quote: randomUUID() },
      { quote: 'nope' },
      { offramp: randomUUID() },
      { offramp: '1' },
      { onramp: randomUUID() },
      { onramp: 'nope' },
    ]) {
      const changed = endpoints(ids).filter((e, i) => e.path !== endpoints()[i]?.path);
      expect(changed.length).toBeGreaterThan(0);
      for (const e of changed) {
        const res = await service.request(e.method, e.path, { headers: authOf(merchant), json: e.json });
        expectError(res, 404, 'record_not_found', `${JSON.stringify(ids)}: ${e.method} ${e.path}`);
      }
    }
    // An offramp of another quote of the same user is not found under this quote.
    const elsewhere = await service.request('POST', `/users/${userId}/quotes`, {
      headers: authOf(merchant),
      json: { quote: validQuote },
    });
    const underQuote = endpoints({ quote: elsewhere.body.quote.id }).filter(
      (x) => x.path.includes('/quotes/') && x.path.includes('/offramps/'),
    );
    expect(underQuote.length).toBe(3);
    for (const e of underQuote) {
      const res = await service.request(e.method, e.path, { headers: authOf(merchant), json: e.json });
      expectError(res, 404, 'record_not_found', `${e.method} ${e.path}`);
    }
  });

  it('answers malformed JSON with 400 and a non-JSON body with 415', async () => {
    for (const e of withBody()) {
      const broken = await service.request(e.method, e.path, {
        headers: { ...authOf(merchant), 'content-type': 'application/json' },
        body: `{"${e.root}": {`,
      });
      expectError(broken, 400, 'invalid_json', `${e.method} ${e.path}`);
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await service.request(e.method, e.path, {
          headers: { ...authOf(merchant), 'content-type': type },
          body: JSON.stringify(e.json),
        });
        expectError(res, 415, 'unsupported_media_type', `${type}: ${e.method} ${e.path}`);
      }
    }
  });

  it('answers a missing body or root key with 400 parameter_missing naming the root', async () => {
    for (const e of withBody()) {
      for (const json of [undefined, {}, [], 'text', 42, null, { [`${e.root}x`]: {} }, { [e.root!]: null }]) {
        const res = await service.request(e.method, e.path, {
          headers: authOf(merchant),
          ...(json === undefined ? {} : { json }),
        });
        expectError(res, 400, 'parameter_missing', `${JSON.stringify(json)}: ${e.method} ${e.path}`);
        expect(res.body.errors).toEqual([{ path: e.root, message: 'is required' }]);
      }
    }
  });

  it('answers wrong types and unknown fields with 422 record_invalid naming each field', async () => {
    for (const e of withBody()) {
      const res = await service.request(e.method, e.path, {
        headers: authOf(merchant),
        json: e.invalid!.json,
      });
      expectError(res, 422, 'record_invalid', `${e.method} ${e.path}`);
      const paths = [...new Set(res.body.errors.map((x: { path: string }) => x.path))].sort();
      expect(paths, `${e.method} ${e.path}: ${res.text}`).toEqual(e.invalid!.paths);
      // An unknown key beside the root is named too.
      const extra = await service.request(e.method, e.path, {
        headers: authOf(merchant),
        json: { ...(e.json as object), extra: true },
      });
      expectError(extra, 422, 'record_invalid', `extra: ${e.method} ${e.path}`);
      expect(extra.body.errors).toContainEqual({ path: 'extra', message: 'is not a known field' });
    }
  });

  it('never answers 5xx to odd values', async () => {
    const odd: Array<[Endpoint, unknown]> = [];
    const byPath = (suffix: string) => withBody().find((e) => e.path.endsWith(suffix))!;
    for (const amount of ['1e400', '99999999999999999999999999999999999999', '-0', '0x10', ' ', '1.', '.5']) {
      odd.push([byPath('/onramps'), { onramp: { ...validOnramp(), destination_amount: amount } }]);
      odd.push([byPath('/deposit'), { amount }]);
      odd.push([
        byPath(`/quotes/${quoteId}/offramps`),
        { offramps: [{ ...validOfframp(), destination_amount: amount }] },
      ]);
      odd.push([
        byPath('/quote/rate'),
        { quote: { ...validQuote, fiat_currency: 'usd', deposit_token_amount: amount } },
      ]);
    }
    odd.push([byPath(`/quotes/${quoteId}/offramps`), { offramps: Array.from({ length: 51 }, validOfframp) }]);
    odd.push([
      byPath(`/quotes/${quoteId}/offramps`),
      { offramps: [{ ...validOfframp(), reference: 'r'.repeat(5000) }] },
    ]);
    odd.push([
      byPath(`/quotes/${quoteId}/offramps`),
      { offramps: [{ ...validOfframp(), metadata: [1, 2] }] },
    ]);
    odd.push([byPath('/quotes'), { quote: { deposit_token: 'usdc\u0000', deposit_token_chain: '\ud800' } }]);
    odd.push([
      byPath('/execute'),
      { quote: { crypto_transfer: { ...transfer, blockchain: 'x'.repeat(5000) } } },
    ]);
    odd.push([byPath('/execute'), { quote: { crypto_transfer: transfer } }]);
    odd.push([byPath('/resend'), { offramp: { payment_detail_id: detail } }]);
    odd.push([byPath('/refund'), { offramp: { refund_address: randomAddress() } }]);
    for (const [e, json] of odd) {
      const res = await service.request(e.method, e.path, { headers: authOf(merchant), json });
      const what = `${e.method} ${e.path} ${JSON.stringify(json).slice(0, 200)}`;
      expect(res.status, `${what}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${what}: ${res.text}`).toBeLessThan(500);
      expectError(res, res.status, res.body.error_code, what);
    }
    // A 413 for an oversized body, still in the one shape.
    const huge = await service.request('POST', `/users/${userId}/quotes/${quoteId}/offramps`, {
      headers: authOf(merchant),
      json: { offramps: [{ ...validOfframp(), metadata: { blob: 'x'.repeat(2_000_000) } }] },
    });
    expectError(huge, 413, 'payload_too_large');
  });

  it('describes every ramp operation in the OpenAPI document with its response schema', async () => {
    const res = await service.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    const operations: Array<[string, string, string]> = [
      ['/users/{id}/onramps', 'post', 'OnrampResponse'],
      ['/users/{id}/onramp', 'post', 'OnrampResponse'],
      ['/users/{id}/onramps', 'get', 'OnrampListResponse'],
      ['/users/{id}/onramps/{onrampId}', 'get', 'OnrampResponse'],
      ['/sandbox/users/{id}/onramps/{onrampId}/deposit', 'post', 'SandboxDepositResponse'],
      ['/users/{id}/quotes', 'post', 'QuoteResponse'],
      ['/users/{id}/quote/rate', 'post', 'QuoteRateResponse'],
      ['/users/{id}/quotes/{quoteId}', 'get', 'QuoteResponse'],
      ['/users/{id}/quotes/{quoteId}/offramps', 'post', 'OfframpListResponse'],
      ['/users/{id}/quotes/{quoteId}/offramps/{offrampId}', 'patch', 'OfframpResponse'],
      ['/users/{id}/quotes/{quoteId}/offramps/{offrampId}/resend', 'post', 'OfframpResponse'],
      ['/users/{id}/quotes/{quoteId}/offramps/{offrampId}/refund', 'post', 'OfframpResponse'],
      ['/users/{id}/quotes/{quoteId}/execute', 'post', 'QuoteResponse'],
      ['/users/{id}/offramps', 'get', 'OfframpListResponse'],
      ['/users/{id}/offramps/{offrampId}', 'get', 'OfframpResponse'],
    ];
    for (const [path, method, schema] of operations) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.responses['200'].content['application/json'].schema.$ref, `${method} ${path}`).toBe(
        `#/components/schemas/${schema}`,
      );
      expect(op.responses['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      if (method !== 'get') {
        expect(op.responses['422'].content['application/json'].schema.$ref).toBe(
          '#/components/schemas/Error',
        );
      }
    }
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.Offramp.properties)).toEqual(
      expect.arrayContaining(['status', 'status_message', 'refund', 'supporting_document', 'metadata']),
    );
    expect(schemas.Offramp.properties.status.enum).toEqual(
      expect.arrayContaining(['initiated', 'fiat_sent', 'bounced', 'failed']),
    );
    expect(Object.keys(schemas.QuoteResponse.properties).sort()).toEqual([
      'crypto_transfer',
      'deposit_address',
      'offramps',
      'quote',
    ]);
    expect(Object.keys(schemas.Onramp.properties)).toContain('deposit_instructions');
    expect(schemas.Onramp.required).not.toContain('deposit_instructions');
  });
});
