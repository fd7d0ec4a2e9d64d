/** Builds the Koa application (no listen: tests and main.ts both use it). */
import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps, AppState } from './context.ts';
import { requireApiKey, requireMerchantAddress } from './middleware/auth.ts';
import { errorHandler } from './middleware/errorHandler.ts';
import { idempotency } from './middleware/idempotency.ts';
import { jsonBody } from './middleware/jsonBody.ts';
import { observe } from './middleware/observe.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { healthRoutes } from './routes/health.ts';
import { productRoutes } from './routes/products.ts';

/** The whole HTTP API over its dependencies. */
export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: false });
  // Errors are answered by errorHandler; Koa's own handler only sees what escapes it.
  app.silent = true;

  app.use(observe(deps.logger, deps.metrics));
  app.use(errorHandler());
  app.use(async (ctx, next) => {
    ctx.state.db = deps.db.kysely;
    await next();
  });
  app.use(jsonBody(deps.config.bodyLimitBytes));

  const open = new Router<AppState>();
  healthRoutes(open, deps);
  const openapi = buildOpenApiDocument(deps);
  open.get('/openapi.json', (ctx) => {
    ctx.state.route = '/openapi.json';
    ctx.body = openapi;
  });
  app.use(open.routes());
  // The router answers 405/501 with an Allow header and no body; errorHandler writes the error body.
  app.use(open.allowedMethods());

  const areaA = new Router<AppState>({ prefix: '/api/v1' });
  areaA.use(
    requireApiKey(),
    requireMerchantAddress(),
    idempotency((s) => `merchant:${s.merchant!.merchantId}`),
  );
  productRoutes(areaA, deps);
  app.use(areaA.routes());
  app.use(areaA.allowedMethods());

  return app;
}
