/**
 * Area A webhooks: the signing secret, a product's delivery log, redelivery (one, or every failed one) and test
 * events.
 */
import {
  RedeliverFailedWebhooksRequest,
  RedeliverFailedWebhooksResponse,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookSecretResponse,
  WebhookTestEventRequest,
} from '@checkout/core';
import {
  ensureWebhookSecret,
  listWebhookDeliveries,
  presentDelivery,
  presentSecret,
  rotateWebhookSecret,
} from '@checkout/db';
import { redeliverFailedWebhooks, redeliverWebhook, sendProductTestEvent } from '@checkout/workflows';
import type { RouterContext } from '@koa/router';
import type { AppDeps, AppState } from '../context.ts';
import { audited } from './audited.ts';
import { type RouteHandler, type Routes, withBody } from './declare.ts';
import { areaA, deliveryPath, errors, merchantHeaders, ok, productPath, walletHeader } from './docs.ts';
import { productOfRequest, walletScope, webhookDeliveryOfRequest } from './loaders.ts';

/** Registers the webhook routes on the authenticated Area A router. */
export function webhookRoutes(router: Routes, deps: AppDeps): void {
  /** Answers the account's signing secret as `secretOf` reads (or replaces) it; never cached. */
  const answerSecret =
    (secretOf: (ctx: RouterContext<AppState>) => ReturnType<typeof ensureWebhookSecret>): RouteHandler =>
    async (ctx) => {
      const record = await secretOf(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { webhook_secret: presentSecret(record) };
    };

  router.get(
    '/webhook_secret',
    areaA('webhooks:write', {
      summary: 'The webhook signing secret (created on first read)',
      requestParams: { header: walletHeader },
      responses: { ...ok('The secret', WebhookSecretResponse), ...errors(400, 401, 403) },
    }),
    answerSecret((ctx) => ensureWebhookSecret(ctx.state.db, deps.secrets, ctx.state.merchant!.merchantId)),
  );

  router.post(
    '/webhook_secret/rotate',
    areaA('webhooks:write', {
      summary: 'Replace the webhook signing secret; later attempts are signed with the new one',
      requestParams: { header: merchantHeaders },
      responses: { ...ok('The new secret', WebhookSecretResponse), ...errors(400, 401, 403, 409, 422) },
    }),
    answerSecret((ctx) =>
      audited(
        ctx,
        (db) => rotateWebhookSecret(db, deps.secrets, ctx.state.merchant!.merchantId),
        () => ({ action: 'webhook_secret.rotated', subject: ctx.state.merchant!.merchantId }),
      ),
    ),
  );

  router.get(
    '/products/:id/webhook_deliveries',
    areaA('webhooks:read', {
      summary: "List a product's webhook deliveries, newest first, with every attempt",
      requestParams: { header: walletHeader, path: productPath },
      responses: { ...ok('Webhook deliveries', WebhookDeliveryListResponse), ...errors(400, 401, 403, 404) },
    }),
    async (ctx) => {
      const product = await productOfRequest(ctx);
      const rows = await listWebhookDeliveries(ctx.state.db, product.id);
      ctx.body = { webhook_deliveries: rows.map(presentDelivery) };
    },
  );

  router.post(
    '/products/:id/webhook_test_events',
    areaA('webhooks:write', {
      summary:
        "Send a sample event of a type to the product's webhook_url, signed like real ones and marked X-Test-Event: true; answers the delivery with its first attempt (status code and the answer's first 1 KB)",
      requestParams: { header: merchantHeaders, path: productPath },
      // The delivery is committed before the answer waits for its first attempt (middleware/idempotency.ts).
      'x-idempotency': 'claim_first',
      responses: {
        ...ok('The test delivery', WebhookDeliveryResponse),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }),
    withBody({ schema: WebhookTestEventRequest }, async (ctx, body) => {
      const product = await productOfRequest(ctx);
      // No transaction is open here (`claim_first`): the delivery is committed before the worker can send it.
      const row = await sendProductTestEvent(ctx.state.db, deps.secrets, {
        product,
        event: body().event,
        // The first attempt's own limit and a little more: a receiver that answers at all is shown answering.
        waitMs: Math.min(deps.config.webhooks.timeoutMs, 30_000) + 2_000,
        dispatcher: deps.handOver.dispatcher,
      });
      ctx.body = { webhook_delivery: presentDelivery(row) };
    }),
  );

  router.post(
    '/webhook_deliveries/:id/redeliver',
    areaA('webhooks:write', {
      summary: 'Send a delivery again: same bytes, same URL, linked to the original',
      requestParams: { header: merchantHeaders, path: deliveryPath },
      responses: {
        ...ok('The new delivery', WebhookDeliveryResponse),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }),
    async (ctx) => {
      const original = await webhookDeliveryOfRequest(ctx);
      const row = await redeliverWebhook(ctx.state.db, original);
      ctx.body = { webhook_delivery: presentDelivery({ ...row, attempts: [] }) };
    },
  );

  router.post(
    '/webhook_deliveries/redeliver',
    areaA('webhooks:write', {
      summary:
        "Send again every event whose deliveries since a time failed (of one product, or the wallet's and the account's), unless another delivery sent it or is sending it",
      requestParams: { header: merchantHeaders },
      responses: {
        ...ok('How many redeliveries were queued', RedeliverFailedWebhooksResponse),
        ...errors(400, 401, 403, 409, 422),
      },
    }),
    withBody({ schema: RedeliverFailedWebhooksRequest }, async (ctx, body) => {
      const { since, product_id } = body();
      const queued = await redeliverFailedWebhooks(ctx.state.db, walletScope(ctx.state), {
        since: new Date(since),
        productId: product_id,
      });
      ctx.body = { queued };
    }),
  );
}
