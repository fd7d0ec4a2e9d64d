/**
 * Each route is declared once: its method and path, what the document says of it (summary, parameters,
 * body, every status it answers, its security) and its handler, in one call. The app's routers register the
 * handlers from these declarations (app.ts), and `/openapi.json` is generated from the same declarations
 * (../openapi.ts): both walk one list, `declareRoutes` in ./index.ts. The declared path parameters are
 * checked before the handler runs: a malformed one answers its record's 404 (`recordPath`). The declared
 * query parameters are parsed before it runs too, and the handler reads them, typed, as `ctx.state.query`
 * (`checkingQuery`). A route behind an API key declares the scope it needs (`x-required-scope`, set by
 * `areaA`/`areaB` in ./docs.ts): it is checked right after authentication, before the body is read
 * (`requireScope`), and a declaration with a security requirement but no scope is refused at start. A route
 * declaring a `304` answer (`notModified`) is served with an ETag and answers `If-None-Match` (`conditionalGet`).
 */
import {
  ApiError,
  type FieldError,
  fieldErrors,
  notFound,
  recordInvalid,
  type Scope,
  safeParseReporting,
} from '@checkout/core';
import type { Router, RouterContext, RouterMiddleware } from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import type { AppState } from '../context.ts';
import { requireScope } from '../middleware/auth.ts';
import { conditionalGet } from '../middleware/conditionalGet.ts';
import { type BodyRules, parseBody } from '../parseBody.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type RouteHandler = RouterMiddleware<AppState>;

/** A route's query schema: an object of its parameters. */
type QuerySchema = z.ZodObject;

/** The parsed query of a route whose document declares `requestParams.query`. */
type QueryOf<D> = D extends { requestParams?: { query?: infer Q } }
  ? Q extends QuerySchema
    ? z.output<Q>
    : undefined
  : undefined;

/** The handler of a route documented by `D`: its declared query parameters, parsed, are `ctx.state.query`. */
type DeclaredHandler<D> =
  QueryOf<D> extends undefined ? RouteHandler : RouterMiddleware<AppState & { query: QueryOf<D> }>;

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
export type Routes = Record<
  Method,
  <D extends RouteDoc>(path: string, doc: D, handler: DeclaredHandler<D>) => void
> & {
  files(register: (router: Router<AppState>) => void): void;
};

const methods: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/** A route's JSON body: its schema, the key it sits under (none for a flat body), rules beyond the schema. */
export interface BodySpec<T extends z.ZodType = z.ZodType> {
  schema: T;
  root?: string;
  rules?: BodyRules;
  /** The body may be left out (no bytes, or only whitespace): it is read as `{}`. */
  optional?: boolean;
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
    handler(ctx, () =>
      parseBody(spec.schema, ctx.state.body ?? (spec.optional ? {} : undefined), spec.root, spec.rules),
    );
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

/** The record each parameter of a query schema names, for its 404. */
const queryRecords = new WeakMap<z.ZodType, Record<string, string>>();

/**
 * A query of optional uuid parameters, each naming the record it finds (`{ expected_payment: 'Expected
 * payment' }`): a parameter that is not one uuid answers `404 record_not_found` for that record, as a path
 * parameter does.
 */
export function recordQuery<const K extends string>(records: Record<K, string>) {
  const shape = Object.fromEntries(Object.keys(records).map((key) => [key, z.uuid().optional()])) as Record<
    K,
    z.ZodOptional<z.ZodUUID>
  >;
  const schema = z.object(shape);
  queryRecords.set(schema, records);
  return schema;
}

/**
 * The query as `schema` reads it, or the one error naming what is wrong: a record's parameter that is not
 * a uuid answers its 404 (`recordQuery`); a required parameter absent or empty `400 parameter_missing`;
 * anything else (a parameter given twice, a wrong value, one the schema does not know when it is strict)
 * `422 record_invalid`, naming every parameter.
 */
function parseQuery(schema: QuerySchema, query: Record<string, string | string[] | undefined>): unknown {
  const repeated = Object.keys(query).filter((name) => Array.isArray(query[name]));
  const parsed = safeParseReporting(schema, query);
  if (parsed.success && repeated.length === 0) return parsed.data;
  const wrong: FieldError[] = repeated.map((path) => ({ path, message: 'must be given once' }));
  if (!parsed.success) wrong.push(...fieldErrors(parsed.error).filter((e) => !repeated.includes(e.path)));
  const records = queryRecords.get(schema) ?? {};
  const record = wrong.find((e) => records[e.path] !== undefined);
  if (record) throw notFound(records[record.path]!);
  const shape = schema.shape as Record<string, z.ZodType | undefined>;
  const missing = wrong
    .map((e) => e.path)
    .filter((name) => !query[name] && shape[name] && !shape[name].safeParse(undefined).success);
  if (missing.length > 0) {
    throw new ApiError('parameter_missing', `param is missing or the value is empty: ${missing.join(', ')}`, {
      errors: missing.map((path) => ({ path, message: 'is required' })),
    });
  }
  throw recordInvalid(wrong);
}

/** The handler behind the parse of its declared query parameters, which it reads as `ctx.state.query`. */
function checkingQuery(doc: RouteDoc, handler: RouteHandler): RouteHandler {
  const schema = doc.requestParams?.query as QuerySchema | undefined;
  if (!schema) return handler;
  return (ctx, next) => {
    ctx.state.query = parseQuery(schema, { ...ctx.query });
    return handler(ctx, next);
  };
}

/** The operation with the request body its handler parses (required unless declared optional). */
function documented(doc: RouteDoc, handler: BodyHandler): RouteDoc {
  const spec = handler.body;
  if (!spec) return doc;
  return {
    ...doc,
    requestBody: { required: !spec.optional, content: { 'application/json': { schema: spec.schema } } },
  };
}

/** The scope a route's document says it needs (`x-required-scope`); undefined for a route without a key. */
function requiredScope(method: Method, path: string, doc: RouteDoc): Scope | undefined {
  const scope = (doc as { 'x-required-scope'?: Scope })['x-required-scope'];
  if (doc.security?.length && !scope) throw new Error(`${method.toUpperCase()} ${path} declares no scope`);
  return scope;
}

/**
 * Routes registered on `router` (under its prefix), each also noted in `declared` when given. Each route runs
 * its scope check (after the router's own middleware, which authenticates), then `afterScope` (reading the
 * body, Idempotency-Key), then the checks of its path and query, then its handler.
 */
/** Marks a route whose Idempotency-Key is claimed before, not around, its handler (middleware/idempotency.ts). */
const claimFirst: Middleware<AppState> = (ctx, next) => {
  ctx.state.claimFirst = true;
  return next();
};

export function routesOn(
  router: Router<AppState>,
  declared?: RouteDeclaration[],
  afterScope: readonly Middleware<AppState>[] = [],
): Routes {
  const prefix = router.opts.prefix ?? '';
  const routes = {
    files: (register: (r: Router<AppState>) => void) => register(router),
  } as unknown as Routes;
  for (const method of methods) {
    routes[method] = (path, doc, handler) => {
      const scope = requiredScope(method, `${prefix}${path}`, doc);
      router[method](
        path,
        ...(doc['x-idempotency'] === 'claim_first' ? [claimFirst] : []),
        ...(scope ? [requireScope(scope)] : []),
        ...(afterScope as Middleware[]),
        // A route that declares `304` answers with an ETag and honours If-None-Match.
        ...(doc.responses?.['304'] ? [conditionalGet as Middleware] : []),
        checkingPath(doc, checkingQuery(doc, handler as RouteHandler)),
      );
      declared?.push({ method, path: `${prefix}${path}`, doc: documented(doc, handler as BodyHandler) });
    };
  }
  return routes;
}
