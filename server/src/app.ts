import Router from '@koa/router';
import Koa from 'koa';
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
    pages: new Router<AppState>(),
    areaB: new Router<AppState>(),
  };
  // Each router authenticates (or rate-limits) before it reads a body: an anonymous caller gets its 401 without
  // the service decompressing or parsing anything it sent. Router middleware runs only for a matched route.
  const body = () => [jsonBody(deps.config.bodyLimitBytes), storableInput()] as const;
  routers.open.use(...body());
  routers.pages.use(...body());
  routers.checkout.use(
    publicPaths,
    rateLimit(deps.config.publicRateLimitPerMinute, publicRateLimitStore(deps.db, deps.logger)),
  );
  routers.checkout.use(...body());
  routers.areaA.use(
    requireMerchantWallet(),
    ...body(),
    idempotency((s) => `merchant:${s.merchant!.merchantId}`, deps.secrets),
  );
  routers.areaB.use(
    requireApiKey(),
    ...body(),
    idempotency((s) => `account:${s.merchant!.merchantId}`, deps.secrets),
  );
  const openapi = buildOpenApiDocument(deps);
  declareRoutes(
    deps,
    (name) => routesOn(routers[name]),
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
  if (deps.config.areaB.sandboxEnabled) mount(routers.pages);
  mount(routers.areaB);
  // What no route took: OPTIONS, 405 and 501 with their Allow header; errorHandler writes the error body.
  app.use(allowedMethods());

  return app;
}
