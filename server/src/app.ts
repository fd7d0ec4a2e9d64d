/** Builds the Koa application (no listen: tests and main.ts both use it). */
import { readInbox, renderInboxPage } from '@checkout/mail';
import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps, AppState } from './context.ts';
import { sandboxKycProvider } from './kycProvider.ts';
import { requireApiKey, requireMerchantWallet } from './middleware/auth.ts';
import { errorHandler } from './middleware/errorHandler.ts';
import { idempotency } from './middleware/idempotency.ts';
import { jsonBody } from './middleware/jsonBody.ts';
import { observe } from './middleware/observe.ts';
import { openCors, rateLimit } from './middleware/publicAccess.ts';
import { storableInput } from './middleware/storableInput.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { publicRateLimitStore } from './publicRateLimitStore.ts';
import { expectedPaymentRoutes, publicCheckoutRoutes } from './routes/checkout.ts';
import { healthRoutes } from './routes/health.ts';
import { hostedCheckoutRoutes } from './routes/hostedCheckout.ts';
import { latamBankNameRoutes } from './routes/latamBankNames.ts';
import { offrampRoutes } from './routes/offramps.ts';
import { onrampRoutes, onrampSandboxRoutes } from './routes/onramps.ts';
import { paymentDetailRoutes } from './routes/paymentDetails.ts';
import { productRoutes } from './routes/products.ts';
import { quoteRoutes } from './routes/quotes.ts';
import { sandboxPageRoutes, sandboxRoutes } from './routes/sandbox.ts';
import { userRoutes } from './routes/users.ts';
import { webhookEndpointRoutes } from './routes/webhookEndpoint.ts';
import { webhookRoutes } from './routes/webhooks.ts';

/** The port of a worker-only process: GET /health and GET /metrics, nothing else. */
export function createOpsApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: false });
  app.silent = true;
  app.use(observe(deps.logger, deps.metrics));
  app.use(errorHandler());
  const router = new Router<AppState>();
  healthRoutes(router, deps);
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
  app.use(jsonBody(deps.config.bodyLimitBytes));
  app.use(storableInput());

  const open = new Router<AppState>();
  healthRoutes(open, deps);
  hostedCheckoutRoutes(open, deps);
  const openapi = buildOpenApiDocument(deps);
  open.get('/openapi.json', (ctx) => {
    ctx.body = openapi;
  });
  const inboxDir = deps.config.mail.devInboxDir;
  if (inboxDir) {
    // Development only: the local SMTP inbox as a page.
    const cache = new Map();
    open.get('/dev/mail', async (ctx) => {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = renderInboxPage(await readInbox(inboxDir, { cache }));
    });
  }
  app.use(open.routes());
  // The router answers 405/501 with an Allow header and no body; errorHandler writes the error body.
  app.use(open.allowedMethods());

  // Public checkout API first: its paths need no key. CORS runs before the router, which calls route
  // middleware only for a matched method: a preflight (OPTIONS) would get no CORS headers inside it.
  const cors = openCors();
  app.use((ctx, next) =>
    ctx.path === '/api/v1/checkout' || ctx.path.startsWith('/api/v1/checkout/') ? cors(ctx, next) : next(),
  );
  const checkout = new Router<AppState>({ prefix: '/api/v1' });
  checkout.use(
    '/checkout',
    rateLimit(deps.config.publicRateLimitPerMinute, publicRateLimitStore(deps.db, deps.logger)),
  );
  publicCheckoutRoutes(checkout, deps);
  app.use(checkout.routes());
  app.use(checkout.allowedMethods());

  const areaA = new Router<AppState>({ prefix: '/api/v1' });
  areaA.use(
    requireMerchantWallet(),
    idempotency((s) => `merchant:${s.merchant!.merchantId}`),
  );
  productRoutes(areaA, deps);
  expectedPaymentRoutes(areaA, deps);
  webhookRoutes(areaA, deps);
  app.use(areaA.routes());
  app.use(areaA.allowedMethods());

  // Area B: users, payment details and the account webhook endpoint; the key's merchant is the account.
  const sandbox = deps.config.areaB.sandboxEnabled;
  if (sandbox) {
    const pages = new Router<AppState>();
    sandboxPageRoutes(pages, deps);
    app.use(pages.routes());
    app.use(pages.allowedMethods());
  }
  const areaB = new Router<AppState>();
  areaB.use(
    requireApiKey(),
    idempotency((s) => `account:${s.merchant!.merchantId}`),
  );
  userRoutes(areaB, deps, sandbox ? sandboxKycProvider(deps.config.publicBaseUrl) : undefined);
  paymentDetailRoutes(areaB, deps);
  latamBankNameRoutes(areaB);
  webhookEndpointRoutes(areaB, deps);
  onrampRoutes(areaB, deps);
  quoteRoutes(areaB, deps);
  offrampRoutes(areaB, deps);
  if (sandbox) sandboxRoutes(areaB, deps);
  if (sandbox) onrampSandboxRoutes(areaB, deps);
  app.use(areaB.routes());
  app.use(areaB.allowedMethods());

  return app;
}
