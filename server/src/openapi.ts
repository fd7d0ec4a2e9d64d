/**
 * The OpenAPI 3.1 document, generated from the route declarations (routes/index.ts: each route's method,
 * path, operation and handler in one call) and the zod schemas the handlers validate with.
 */

import Router from '@koa/router';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import type { AppDeps, AppState } from './context.ts';
import { type RouteDeclaration, routesOn } from './routes/declare.ts';
import { idempotencyKeyDescription, idempotencyKeyPattern } from './routes/docs.ts';
import { declareRoutes, routerPrefixes } from './routes/index.ts';

/** The Idempotency-Key header every POST behind an API key honours (Area A declares it with X-ADDRESS). */
const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: idempotencyKeyDescription,
  schema: { type: 'string', pattern: idempotencyKeyPattern },
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
    'x-required-scope'?: string;
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
      // The body reader answers before any route: too large, or not JSON (middleware/jsonBody.ts).
      if (method === 'post' || method === 'put' || method === 'patch') {
        responses['413'] ??= errorBody('The request body is too large (the limit is in `message`)');
        responses['415'] ??= errorBody('The request body is not JSON, not UTF-8, or in an unknown encoding');
      }
      const scope = op['x-required-scope'];
      if (scope) responses['403'] ??= errorBody(`The API key lacks the scope ${scope} (insufficient_scope)`);
      if (method !== 'post' || !op.security) continue;
      op.parameters ??= [];
      const parameters = op.parameters;
      if (!parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')) {
        parameters.push({ ...idempotencyKeyParameter });
      }
      responses['400'] ??= errorBody('Missing parameter, malformed JSON or header (such as Idempotency-Key)');
    }
  }
  storableText(document);
  return document;
}

/** Text PostgreSQL can store: no NUL (middleware/storableInput.ts refuses it anywhere in a request). */
const nulFree = '^[^\\u0000]*$';
/** Any JSON value whose strings and object keys hold no NUL: what a free-form field (such as metadata) takes. */
const storableJson = {
  description: 'Any JSON value; no string or object key in it may contain the NUL character (U+0000)',
  type: ['string', 'number', 'boolean', 'null', 'array', 'object'],
  pattern: nulFree,
  propertyNames: { pattern: nulFree },
  items: { $ref: '#/components/schemas/StorableJson' },
  additionalProperties: { $ref: '#/components/schemas/StorableJson' },
};

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * States, once for the whole document, the rule middleware/storableInput.ts enforces for every request: no
 * string, object key or query parameter may contain NUL. In every parameter and request body (and the
 * components they refer to), each string schema without a stricter pattern, format, enum or const gets a
 * pattern excluding U+0000, and each free-form value (an empty schema, such as metadata's values) becomes
 * `StorableJson`. Answers are left as they are: an error message may quote the NUL it refuses.
 */
function storableText(document: ReturnType<typeof createDocument>): void {
  document.components ??= {};
  document.components.schemas ??= {};
  const schemas = document.components.schemas as Record<string, unknown>;
  const visited = new Set<Schema>();
  const visit = (schema: Schema): void => {
    if (visited.has(schema)) return;
    visited.add(schema);
    const ref = /^#\/components\/schemas\/(.+)$/.exec(String(schema.$ref ?? ''))?.[1];
    const target = ref === undefined ? undefined : schemas[ref];
    if (isObject(target)) visit(target);
    const type = schema.type;
    const isString = type === 'string' || (Array.isArray(type) && type.includes('string'));
    if (
      isString &&
      schema.pattern === undefined &&
      schema.format === undefined &&
      schema.enum === undefined &&
      schema.const === undefined
    ) {
      schema.pattern = nulFree;
    }
    for (const key of ['items', 'additionalProperties', 'propertyNames'] as const) {
      const child = schema[key];
      if (!isObject(child)) continue;
      if (Object.keys(child).length === 0) schema[key] = { $ref: '#/components/schemas/StorableJson' };
      else visit(child);
    }
    if (isObject(schema.properties)) Object.values(schema.properties).filter(isObject).forEach(visit);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
      const list = schema[key];
      if (Array.isArray(list)) list.filter(isObject).forEach(visit);
    }
  };
  schemas.StorableJson = storableJson;
  visited.add(storableJson);
  for (const item of Object.values(document.paths ?? {})) {
    for (const op of Object.values(item as Record<string, unknown>)) {
      if (!isObject(op)) continue;
      if (Array.isArray(op.parameters)) {
        for (const parameter of op.parameters.filter(isObject)) {
          if (isObject(parameter.schema)) visit(parameter.schema);
        }
      }
      if (isObject(op.requestBody) && isObject(op.requestBody.content)) {
        for (const media of Object.values(op.requestBody.content)) {
          if (isObject(media) && isObject(media.schema)) visit(media.schema);
        }
      }
    }
  }
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
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'API key' },
        consoleSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'console_session',
          description:
            'The console session (POST /api/v1/console/session); every POST, PUT, PATCH and DELETE with it carries X-CSRF-Token',
        },
      },
    },
    paths,
  });
}
