import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { AppDeps, AppState } from './context.ts';
import { allowedMethods } from './middleware/allowedMethods.ts';
import { requireApiKey, requireMerchantWallet } from './middleware/auth.ts';
import { errorHandler } from './middleware/errorHandler.ts';
import { handOverAfterRequest } from './middleware/handOver.ts';
import { idempotency } from './middleware/idempotency.ts';
import { jsonBody } from './middleware/jsonBody.ts';
import { noFraming } from './middleware/noFraming.ts';
import { observe } from './middleware/observe.ts';
import { openCors } from './middleware/openCors.ts';
import { rateLimit } from './middleware/rateLimit.ts';
import { storableInput } from './middleware/storableInput.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { publicRateLimitStore } from './publicRateLimitStore.ts';
import { routesOn } from './routes/declare.ts';
import { healthRoutes } from './routes/health.ts';
import { declareRoutes, type RouterName, routerPrefixes } from './routes/index.ts';

/** The port of a worker-only process: GET /health and GET /metrics, nothing else. */
export function createOpsApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: false });
  app.silent = true;
  app.use(observe(deps.logger, deps.metrics));
  app.use(errorHandler());
  const router = new Router<AppState>();
  healthRoutes(routesOn(router), deps);
  app.use(router.routes());
  app.use(allowedMethods());
  return app;
}

/** The public API's paths under /api/v1 (no key, open CORS, the per-client rate limit). */
const publicPaths = ['/checkout', '/refund_claims', '/refund_payments'];

/** The whole HTTP API over its dependencies. */
export function createApp(deps: AppDeps): Koa<AppState> {
  // X-Forwarded-For is believed only from as many proxies as TRUST_PROXY names, counted from the right.
  const hops = deps.config.trustProxyHops;
  const app = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops });
  // Errors are answered by errorHandler; Koa's own handler only sees what escapes it.
  app.silent = true;

  app.use(observe(deps.logger, deps.metrics));
  app.use(errorHandler());
  app.use(noFraming());
  app.use(async (ctx, next) => {
    ctx.state.db = deps.db.kysely;
    await next();
  });
  app.use(handOverAfterRequest(deps.handOver, deps.db.kysely));

  // Every route is declared once (routes/index.ts): registered here, on the router that serves it, and
  // described by the document from the same declarations.
  const routers: Record<RouterName, Router<AppState>> = {
    open: new Router<AppState>(),
    checkout: new Router<AppState>({ prefix: routerPrefixes.checkout }),
    areaA: new Router<AppState>({ prefix: routerPrefixes.areaA }),
    console: new Router<AppState>({ prefix: routerPrefixes.console }),
    account: new Router<AppState>({ prefix: routerPrefixes.account }),
    pages: new Router<AppState>(),
    sandbox: new Router<AppState>(),
    areaB: new Router<AppState>(),
  };
  // Each router authenticates (or rate-limits) before it reads a body: an anonymous caller gets its 401 without
  // the service decompressing or parsing anything it sent. Router middleware runs only for a matched route.
  const body = () => [jsonBody(deps.config.bodyLimitBytes), storableInput()] as const;
  routers.open.use(...body());
  routers.pages.use(...body());
  const publicLimit = rateLimit(
    deps.config.publicRateLimitPerMinute,
    publicRateLimitStore(deps.db, deps.logger),
  );
  routers.checkout.use(publicPaths, publicLimit);
  routers.checkout.use(...body());
  // Signing in needs no key: the nonce and the sign-in itself are limited per client as the public API is.
  routers.console.use(['/console/nonce', '/console/session'], async (ctx, next) =>
    ctx.method === 'POST' ? publicLimit(ctx, next) : next(),
  );
  routers.console.use(...body());
  // Each router authenticates; each route then checks its scope before the body is read and the
  // Idempotency-Key claimed (routesOn, routes/declare.ts), so a key without the scope sends nothing further.
  const keyed = (scope: (s: AppState) => string) => [...body(), idempotency(scope, deps.secrets)];
  const afterScope: Partial<Record<RouterName, readonly Middleware<AppState>[]>> = {
    areaA: keyed((s) => `merchant:${s.merchant!.merchantId}`),
    // Per caller: a replayed key creation or roll answers a secret, which only its own caller may read again.
    account: keyed((s) => `caller:${s.merchant!.merchantId}:${JSON.stringify(s.merchant!.actor)}`),
    // The sandbox's outcome moves send transactions, so no Idempotency-Key replays them.
    sandbox: body(),
    areaB: keyed((s) => `account:${s.merchant!.merchantId}`),
  };
  // Area A, the account's routes and the sandbox take an API key or the console's session cookie (whose CSRF
  // token SECRET_KEY derives); Area B, the account's ramps, API keys only.
  const { secretKey } = deps.config;
  const { authCache } = deps;
  routers.areaA.use(requireMerchantWallet(authCache, secretKey));
  routers.account.use(requireApiKey(authCache, secretKey));
  // The sandbox's outcome moves act on the wallet's objects, as Area A does.
  routers.sandbox.use(requireMerchantWallet(authCache, secretKey));
  routers.areaB.use(requireApiKey(authCache));
  const openapi = buildOpenApiDocument(deps);
  declareRoutes(
    deps,
    (name) => routesOn(routers[name], undefined, afterScope[name]),
    () => openapi,
  );

  const mount = (router: Router<AppState>) => app.use(router.routes());
  mount(routers.open);
  // Public checkout API first: its paths need no key. CORS runs before the router, which calls route
  // middleware only for a matched method: a preflight (OPTIONS) would get no CORS headers inside it.
  const cors = openCors();
  app.use((ctx, next) =>
    publicPaths.some((p) => ctx.path === `/api/v1${p}` || ctx.path.startsWith(`/api/v1${p}/`))
      ? cors(ctx, next)
      : next(),
  );
  mount(routers.checkout);
  mount(routers.areaA);
  mount(routers.console);
  mount(routers.account);
  if (deps.config.areaB.sandboxEnabled) mount(routers.pages);
  if (deps.config.areaB.sandboxEnabled) mount(routers.sandbox);
  mount(routers.areaB);
  // What no route took: OPTIONS, 405 and 501 with their Allow header; errorHandler writes the error body.
  app.use(allowedMethods());

  return app;
}
