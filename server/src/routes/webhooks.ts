/** Area A webhooks: the signing secret, a product's delivery log, and redelivery. */
import { WebhookDeliveryListResponse, WebhookDeliveryResponse, WebhookSecretResponse } from '@checkout/core';
import {
  ensureWebhookSecret,
  listWebhookDeliveries,
  presentDelivery,
  presentSecret,
  rotateWebhookSecret,
} from '@checkout/db';
import { redeliverWebhook } from '@checkout/workflows';
import type { AppDeps } from '../context.ts';
import type { RouteHandler, Routes } from './declare.ts';
import { areaA, deliveryPath, errors, merchantHeaders, ok, productPath, walletHeader } from './docs.ts';
import { productOfRequest, webhookDeliveryOfRequest } from './loaders.ts';

/** Registers the webhook routes on the authenticated Area A router. */
export function webhookRoutes(router: Routes, deps: AppDeps): void {
  /** Answers the account's signing secret as `secretOf` reads (or replaces) it; never cached. */
  const answerSecret =
    (secretOf: typeof ensureWebhookSecret): RouteHandler =>
    async (ctx) => {
      const record = await secretOf(ctx.state.db, deps.secrets, ctx.state.merchant!.merchantId);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { webhook_secret: presentSecret(record) };
    };

  router.get(
    '/webhook_secret',
    areaA({
      summary: 'The webhook signing secret (created on first read)',
      requestParams: { header: walletHeader },
      responses: { ...ok('The secret', WebhookSecretResponse), ...errors(400, 401, 403) },
    }),
    answerSecret(ensureWebhookSecret),
  );

  router.post(
    '/webhook_secret/rotate',
    areaA({
      summary: 'Replace the webhook signing secret; later attempts are signed with the new one',
      requestParams: { header: merchantHeaders },
      responses: { ...ok('The new secret', WebhookSecretResponse), ...errors(400, 401, 403, 409, 422) },
    }),
    answerSecret(rotateWebhookSecret),
  );

  router.get(
    '/products/:id/webhook_deliveries',
    areaA({
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
    '/webhook_deliveries/:id/redeliver',
    areaA({
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
}
