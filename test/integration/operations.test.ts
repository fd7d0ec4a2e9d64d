/** Health, metrics, OpenAPI, request ids, log hygiene, and the worker inside the service process. */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '@checkout/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

describe.skipIf(databaseUnavailable())('operations', () => {
  let service: TestService;
  let merchant: TestMerchant;
  const lines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        callback();
      },
    });
    // The service's own logger configuration, writing into memory.
    const logger = createLogger('info', sink);
    service = await startTestService({ logger });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('reports database and Temporal health', async () => {
    const res = await service.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      database: { status: 'ok', kind: service.deps.db.kind },
      temporal: { status: 'ok', namespace: 'default' },
      workers: {
        status: 'ok',
        task_queue: service.deps.config.temporal.taskQueue,
        workflow_pollers: 1,
        activity_pollers: 1,
      },
      backlog: 0,
      // No chain is configured here, so no watcher runs.
      chain_watchers: [],
    });
    const metrics = await service.request('GET', '/metrics');
    expect(metrics.text).toMatch(/^checkout_temporal_workflow_pollers 1$/m);
    expect(metrics.text).toMatch(/^checkout_workflow_call_backlog 0$/m);
  });

  it('runs workflows on the worker hosted in the service process', async () => {
    const client = service.deps.temporal!.client;
    const handle = await client.workflow.start('ping', {
      taskQueue: service.deps.config.temporal.taskQueue,
      workflowId: `smoke-${randomUUID()}`,
      args: [{ message: 'hello' }],
    });
    const result = (await handle.result()) as { echoed: string };
    expect(result.echoed).toContain('hello');
  });

  it('exposes Prometheus metrics of the HTTP API', async () => {
    await service.request('GET', '/api/v1/products', { headers: merchant.headers });
    const res = await service.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    expect(res.text).toMatch(
      /http_requests_total\{method="GET",route="\/api\/v1\/products",status="200"\} \d+/,
    );
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });

  it('serves an OpenAPI 3.1 document generated from the schemas', async () => {
    const res = await service.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/products',
        '/api/v1/products/{id}',
        '/api/v1/product/{id}',
        '/api/v1/products/{id}/resolved_payments',
        '/users/{id}/onramps',
        '/users/{id}/quote/rate',
        '/users/{id}/quotes/{quoteId}/execute',
      ]),
    );
    const product = res.body.components.schemas.Product;
    expect(Object.keys(product.properties)).toContain('verified_address');
    expect(Object.keys(res.body.components.schemas.UpdatedProduct.properties)).not.toContain(
      'verified_address',
    );
    expect(product.required).toContain('webhook_url');
    const create = res.body.paths['/api/v1/products'].post;
    expect(create.responses['422'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/Error',
    );
    // Ramp responses come from their schemas too (every ramp operation: test/integration/rampsBadInput.test.ts).
    const execute = res.body.paths['/users/{id}/quotes/{quoteId}/execute'].post;
    expect(execute.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/QuoteResponse',
    );
    expect(Object.keys(res.body.components.schemas.Offramp.properties)).toContain('refund');
  });

  it('gives every response a request id, echoing a well-formed one', async () => {
    const own = await service.request('GET', '/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(own.headers.get('x-request-id')).toBe('trace-123');
    const generated = await service.request('GET', '/health', {
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs one JSON line per request with its request id, and never the API key', async () => {
    await service.request('POST', '/api/v1/products', {
      headers: { ...merchant.headers, 'x-request-id': 'log-check-1' },
      json: {
        product: {
          name: 'Logged',
          email: 'a@example.com',
          token: {
            blockchain: 'ethereum',
            network: 'mainnet',
            address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
          },
        },
      },
    });
    await service.request('GET', '/api/v1/products', {
      headers: { authorization: 'Bearer ck_wrong_key_that_is_long_enough' },
    });
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const entry = entries.find((e) => e.req_id === 'log-check-1');
    expect(entry).toMatchObject({ msg: 'request', method: 'POST', route: '/api/v1/products', status: 200 });
    expect(entry?.merchant_id).toBe(merchant.merchantId);
    const all = lines.join('\n');
    expect(all).not.toContain(merchant.key);
    expect(all).not.toContain('ck_wrong_key_that_is_long_enough');
    expect(all).not.toMatch(/ps_[\w-]{32}/);
  });
});
