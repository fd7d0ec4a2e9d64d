import Router from '@koa/router';
import { describe, expect, it } from 'vitest';
import type { AppState } from '../context.ts';
import { type RouteDeclaration, routesOn } from './declare.ts';
import { areaB } from './docs.ts';

describe('routesOn', () => {
  const respond = () => Promise.resolve();

  it('refuses a route behind a key that declares no scope', () => {
    const routes = routesOn(new Router<AppState>({ prefix: '/api/v1' }));
    expect(() => routes.get('/things', { security: [{ apiKey: [] }], responses: {} }, respond)).toThrow(
      'GET /api/v1/things declares no scope',
    );
  });

  it('registers a scoped route with its scope check first, and documents the scope', () => {
    const router = new Router<AppState>();
    const declared: RouteDeclaration[] = [];
    routesOn(router, declared).post('/things', areaB('products:write', { responses: {} }), respond);
    expect(declared[0]!.doc).toMatchObject({
      security: [{ apiKey: ['products:write'] }],
      'x-required-scope': 'products:write',
    });
    // The scope check, then the handler behind its path and query checks.
    expect(router.stack[0]!.stack).toHaveLength(2);
  });

  it('registers a route without a key with no scope check', () => {
    const router = new Router<AppState>();
    routesOn(router).get('/open', { responses: {} }, respond);
    expect(router.stack[0]!.stack).toHaveLength(1);
  });
});
