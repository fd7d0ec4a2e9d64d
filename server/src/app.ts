import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps, AppState } from './context.ts';
import { requireApiKey, requireMerchantWallet } from './middleware/auth.ts';
import { errorHandler } from './middleware/errorHandler.ts';
import { handOverAfterRequest } from './middleware/handOver.ts';
import { idempotency } from './middleware/idempotency.ts';
import { jsonBody } from './middleware/jsonBody.ts';
import { observe } from './middleware/observe.ts';
import { openCors, rateLimit } from './middleware/publicAccess.ts';
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
  app.use(router.allowedMethods());
  return app;
}

/** The whole HTTP API over its dependencies. */
export function createApp(deps: AppDeps): Koa<AppState> {
  // X-Forwarded-For is believed only from as many proxies as TRUST_PROXY names, counted from the right.
  const hops = deps.config.trustProxyHops;
  const app = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops });
  // Errors are answered by errorHandler; Koa's own handler only sees what escapes it.
  app.silent = true;

  app.use(observe(deps.logger, deps.metrics));
  app.use(errorHandler());
  app.use(async (ctx, next) => {
    ctx.state.db = deps.db.kysely;
    await next();
  });
  app.use(handOverAfterRequest(deps.handOver, deps.db.kysely));
  app.use(jsonBody(deps.config.bodyLimitBytes));
  app.use(storableInput());

  // Every route is declared once (routes/index.ts): registered here, on the router that serves it, and
  // described by the document from the same declarations.
  const routers: Record<RouterName, Router<AppState>> = {
    open: new Router<AppState>(),
    checkout: new Router<AppState>({ prefix: routerPrefixes.checkout }),
    areaA: new Router<AppState>({ prefix: routerPrefixes.areaA }),
    pages: new Router<AppState>(),
    areaB: new Router<AppState>(),
  };
  routers.checkout.use(
    '/checkout',
    rateLimit(deps.config.publicRateLimitPerMinute, publicRateLimitStore(deps.db, deps.logger)),
  );
  routers.areaA.use(
    requireMerchantWallet(),
    idempotency((s) => `merchant:${s.merchant!.merchantId}`),
  );
  routers.areaB.use(
    requireApiKey(),
    idempotency((s) => `account:${s.merchant!.merchantId}`),
  );
  const openapi = buildOpenApiDocument(deps);
  declareRoutes(
    deps,
    (name) => routesOn(routers[name]),
    () => openapi,
  );

  const mount = (router: Router<AppState>) => {
    app.use(router.routes());
    // The router answers 405/501 with an Allow header and no body; errorHandler writes the error body.
    app.use(router.allowedMethods());
  };
  mount(routers.open);
  // Public checkout API first: its paths need no key. CORS runs before the router, which calls route
  // middleware only for a matched method: a preflight (OPTIONS) would get no CORS headers inside it.
  const cors = openCors();
  app.use((ctx, next) =>
    ctx.path === '/api/v1/checkout' || ctx.path.startsWith('/api/v1/checkout/') ? cors(ctx, next) : next(),
  );
  mount(routers.checkout);
  mount(routers.areaA);
  if (deps.config.areaB.sandboxEnabled) mount(routers.pages);
  mount(routers.areaB);

  return app;
}
