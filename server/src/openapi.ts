/**
 * The OpenAPI 3.1 document, generated from the route declarations (routes/index.ts: each route's method,
 * path, operation and handler in one call) and the zod schemas the handlers validate with.
 */

import Router from '@koa/router';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import type { AppDeps, AppState } from './context.ts';
import { type RouteDeclaration, routesOn } from './routes/declare.ts';
import { declareRoutes, routerPrefixes } from './routes/index.ts';

/** The Idempotency-Key header every POST behind an API key honours (Area A declares it with X-ADDRESS). */
const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Replays the stored response of a retried POST (1–255 visible ASCII characters)',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
} as const;

/** Builds the document once at start. */
export function buildOpenApiDocument(deps: Pick<AppDeps, 'config'>): ReturnType<typeof createDocument> {
  const document = buildDocument(deps);
  const errorBody = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  type Operation = {
    security?: unknown;
    parameters?: Array<{ name?: string; in?: string }>;
    responses?: Record<string, unknown>;
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      op.responses ??= {};
      const responses = op.responses;
      // Every request's query string is checked for text the database cannot store.
      responses['422'] ??= errorBody(
        'A query parameter (or the body) holds a value refused; `errors` names it',
      );
      if (method !== 'post' || !op.security) continue;
      op.parameters ??= [];
      const parameters = op.parameters;
      if (!parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')) {
        parameters.push({ ...idempotencyKeyParameter });
      }
      responses['400'] ??= errorBody('Missing parameter, malformed JSON or header (such as Idempotency-Key)');
    }
  }
  return document;
}

function buildDocument(deps: Pick<AppDeps, 'config'>): ReturnType<typeof createDocument> {
  const declared: RouteDeclaration[] = [];
  // Only the declarations are read: the routers are thrown away and no handler is called, so the
  // configuration is all the routes need here.
  declareRoutes(
    deps as AppDeps,
    (name) => routesOn(new Router<AppState>({ prefix: routerPrefixes[name] }), declared),
    () => undefined,
  );
  const paths: ZodOpenApiPathsObject = {};
  for (const route of declared) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method]: route.doc };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Stablecoin checkout and fiat ramp API',
      version: '1.0.0',
      description: 'Merchant checkout (Area A, under /api/v1) and fiat users, payouts and ramps (Area B).',
    },
    servers: [{ url: deps.config.publicBaseUrl }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'API key' } },
    },
    paths,
  });
}
