/**
 * Each route is declared once: its method and path, what the document says of it (summary, parameters,
 * body, every status it answers, its security) and its handler, in one call. The app's routers register the
 * handlers from these declarations (app.ts), and `/openapi.json` is generated from the same declarations
 * (../openapi.ts): both walk one list, `declareRoutes` in ./index.ts. The declared path parameters are
 * checked before the handler runs: a malformed one answers its record's 404 (`recordPath`).
 */
import { notFound } from '@checkout/core';
import type { Router, RouterContext, RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import type { AppState } from '../context.ts';
import { type BodyRules, parseBody } from '../parseBody.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type RouteHandler = RouterMiddleware<AppState>;

/** What the document says of one route. */
export type RouteDoc = ZodOpenApiOperationObject;

/** A route as the document sees it: the full path (Koa's `:param` form) and its operation. */
export interface RouteDeclaration {
  method: Method;
  path: string;
  doc: RouteDoc;
}

/**
 * Where routes are declared: `routes.post(path, doc, handler)` and so on. `files` registers what the
 * document leaves out on purpose (the element's static files, matched by a pattern).
 */
export type Routes = Record<Method, (path: string, doc: RouteDoc, handler: RouteHandler) => void> & {
  files(register: (router: Router<AppState>) => void): void;
};

const methods: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/** A route's JSON body: its schema, the key it sits under (none for a flat body), rules beyond the schema. */
export interface BodySpec<T extends z.ZodType = z.ZodType> {
  schema: T;
  root?: string;
  rules?: BodyRules;
}

type BodyHandler = RouteHandler & { body?: BodySpec };

/**
 * A handler whose body its declaration parses: `body()` validates the request body against `spec` (when
 * the handler asks, so that its path checks answer first) and the document's request body is `spec.schema`.
 */
export function withBody<T extends z.ZodType>(
  spec: BodySpec<T>,
  handler: (ctx: RouterContext<AppState>, body: () => z.output<T>) => Promise<void>,
): RouteHandler {
  const route: RouteHandler = (ctx) =>
    handler(ctx, () => parseBody(spec.schema, ctx.state.body, spec.root, spec.rules));
  return Object.assign(route, { body: spec });
}

/** The record each parameter of a path schema names, for its 404. */
const pathRecords = new WeakMap<z.ZodType, Record<string, string>>();

/**
 * A path of uuid parameters, each naming the record it finds (`{ id: 'User', quoteId: 'Quote' }`): a
 * parameter that is not a uuid answers `404 record_not_found` for that record, as an unknown one does.
 */
export function recordPath<const K extends string>(records: Record<K, string>) {
  const shape = Object.fromEntries(Object.keys(records).map((key) => [key, z.uuid()])) as Record<
    K,
    z.ZodUUID
  >;
  const schema = z.object(shape);
  pathRecords.set(schema, records);
  return schema;
}

/** The handler behind the check of its declared path parameters. */
function checkingPath(doc: RouteDoc, handler: RouteHandler): RouteHandler {
  const path = doc.requestParams?.path as z.ZodType | undefined;
  const records = path && pathRecords.get(path);
  if (!path || !records) return handler;
  return (ctx, next) => {
    const parsed = path.safeParse(ctx.params);
    if (!parsed.success) throw notFound(records[String(parsed.error.issues[0]?.path[0])] ?? 'Record');
    return handler(ctx, next);
  };
}

/** The operation with the request body its handler parses (always required). */
function documented(doc: RouteDoc, handler: BodyHandler): RouteDoc {
  const spec = handler.body;
  if (!spec) return doc;
  return {
    ...doc,
    requestBody: { required: true, content: { 'application/json': { schema: spec.schema } } },
  };
}

/** Routes registered on `router` (under its prefix), each also noted in `declared` when given. */
export function routesOn(router: Router<AppState>, declared?: RouteDeclaration[]): Routes {
  const prefix = router.opts.prefix ?? '';
  const routes = {
    files: (register: (r: Router<AppState>) => void) => register(router),
  } as unknown as Routes;
  for (const method of methods) {
    routes[method] = (path, doc, handler) => {
      router[method](path, checkingPath(doc, handler));
      declared?.push({ method, path: `${prefix}${path}`, doc: documented(doc, handler) });
    };
  }
  return routes;
}
