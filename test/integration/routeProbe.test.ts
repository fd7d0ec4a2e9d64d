/**
 * Walks every route the app registers and sends it text the database cannot store, in the path, the
 * query string and the body: none may answer a 5xx.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { type Route, registeredRoutes } from '../support/routes.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const withParams = (path: string, value: () => string) => path.replace(/:\w+/g, () => value());
const methodsWithBody = new Set(['POST', 'PUT', 'PATCH']);

describe.skipIf(databaseUnavailable())('route probe', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let routes: Route[];

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    merchant = await service.createMerchant();
    routes = registeredRoutes(service);
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('finds the routes of every family', () => {
    const paths = new Set(routes.map((r) => r.path));
    for (const path of [
      '/api/v1/products',
      '/api/v1/checkout/:slug/sessions',
      '/users/:id/quotes/:quoteId/offramps',
      '/sandbox/kyc/:token',
      '/webhook_endpoint',
      '/latam_bank_names',
    ]) {
      expect(paths).toContain(path);
    }
    expect(routes.length).toBeGreaterThan(50);
  });

  it('answers NUL in a path parameter with a 404 on every route with one', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.path.includes(':'))) {
      const path = withParams(route.path, () => 'a%00b');
      const res = await service.request(route.method, path, { headers: merchant.headers });
      if (res.status !== 404 || res.body?.error_code !== 'record_not_found') {
        failures.push(`${route.method} ${path}: ${res.status} ${res.text}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers NUL and lone surrogates in a body or query string with a 422 naming them, on every route', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const path = withParams(route.path, randomUUID);
      const res = methodsWithBody.has(route.method)
        ? await service.request(route.method, path, {
            headers: merchant.headers,
            json: { probe: { text: 'a\u0000b', 'key\ud800': 1 } },
          })
        : await service.request(route.method, `${path}?probe=a%00b`, { headers: merchant.headers });
      const expected = methodsWithBody.has(route.method) ? ['probe.text', 'probe.key\ufffd'] : ['probe'];
      const named = (res.body?.errors ?? []).map((e: { path: string }) => e.path);
      if (res.status !== 422 || JSON.stringify(named) !== JSON.stringify(expected)) {
        failures.push(`${route.method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers every route without a 5xx when its ids are well-formed but unknown', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const path = withParams(route.path, randomUUID);
      const res = await service.request(route.method, path, {
        headers: merchant.headers,
        ...(methodsWithBody.has(route.method) ? { json: {} } : {}),
      });
      // Without Temporal, a route that needs it says so with a 503 (health reports itself degraded).
      const unavailable = res.body?.error_code === 'service_unavailable' || route.path === '/health';
      if (res.status >= 500 && !(res.status === 503 && unavailable)) {
        failures.push(`${route.method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
