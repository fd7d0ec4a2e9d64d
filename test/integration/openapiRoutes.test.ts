/**
 * The OpenAPI document names every route the service answers, and nothing it does not: the app's routers
 * are walked and compared with the document's paths and methods, parameters named alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { registeredRoutes } from '../support/routes.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe.skipIf(databaseUnavailable())('OpenAPI document and router', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ temporal: false, env: { DEV_INBOX_DIR: '/tmp' } });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('documents exactly the routes the app registers', async () => {
    const registered = new Set(
      registeredRoutes(service).map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const res = await service.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) {
        if (['get', 'post', 'put', 'patch', 'delete'].includes(method))
          documented.add(`${method.toUpperCase()} ${path}`);
      }
    }
    const missing = [...registered].filter((r) => !documented.has(r)).sort();
    const extra = [...documented].filter((r) => !registered.has(r)).sort();
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it('says what the server enforces: required bodies, Idempotency-Key, every status, patterns and formats', async () => {
    const doc = (await service.request('GET', '/openapi.json')).body;
    type Op = {
      requestBody?: { required?: boolean };
      parameters?: { in: string; name: string }[];
      responses: Record<string, unknown>;
      security?: unknown;
    };
    const ops = Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, method, op })),
    );
    // Every body is required but a refund's cancel, whose reason is optional.
    const optionalBodies = ['POST /api/v1/refunds/{id}/cancel'];
    for (const { key, op } of ops) {
      if (op.requestBody) expect(op.requestBody.required, `${key} body`).toBe(!optionalBodies.includes(key));
    }
    for (const { key, method, op } of ops) {
      if (method !== 'post' || !op.security) continue;
      expect(
        op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
        `${key} Idempotency-Key`,
      ).toBe(true);
    }
    const op = (key: string) => ops.find((o) => o.key === key)!.op;
    expect(Object.keys(op('POST /api/v1/webhook_deliveries/{id}/redeliver').responses)).toContain('422');
    expect(Object.keys(op('POST /api/v1/webhook_secret/rotate').responses)).toContain('422');
    expect(Object.keys(op('PATCH /sandbox/users/{id}/kycs').responses)).toContain('415');
    expect(Object.keys(op('GET /api/v1/checkout/{slug}').responses)).toContain('429');
    const schemas = doc.components.schemas;
    expect(schemas.UserCreateBody.properties.user.properties.country.pattern).toBe('^\\s*[A-Z]{2}\\s*$');
    expect(schemas.WebhookEndpointBody.properties.webhook_endpoint.properties.url.format).toBe('uri');
  });

  it('declares every path parameter of each route', async () => {
    const res = await service.request('GET', '/openapi.json');
    for (const [path, item] of Object.entries(
      res.body.paths as Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>,
    )) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(item)) {
        const declared = (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort();
        expect(declared, `${method.toUpperCase()} ${path}`).toEqual(names);
      }
    }
  });
});
