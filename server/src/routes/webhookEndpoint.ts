/** Area B account webhook endpoint: where `kyc_update` and `payment_detail_update` events are sent. */
import { notFound, WebhookEndpointBody, WebhookEndpointResponse } from '@checkout/core';
import {
  deleteAccountWebhookEndpoint,
  findAccountWebhookEndpoint,
  presentWebhookEndpoint,
  putAccountWebhookEndpoint,
} from '@checkout/db';
import type { AppDeps } from '../context.ts';
import { assertWebhookUrlAllowed } from '../webhookUrlPolicy.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, errors, ok } from './docs.ts';

/** Registers `PUT/GET/DELETE /webhook_endpoint` on the Area B router. */
export function webhookEndpointRoutes(router: Routes, deps: AppDeps): void {
  router.put(
    '/webhook_endpoint',
    areaB('webhooks:write', {
      summary: 'Set the URL that receives kyc_update and payment_detail_update',
      responses: { ...ok('The endpoint', WebhookEndpointResponse), ...errors(400, 401, 422) },
    }),
    withBody({ schema: WebhookEndpointBody, root: 'webhook_endpoint' }, async (ctx, body) => {
      const { webhook_endpoint: input } = body();
      assertWebhookUrlAllowed(input.url, 'webhook_endpoint.url', deps.config.webhooks.allowPrivateAddresses);
      const row = await putAccountWebhookEndpoint(ctx.state.db, ctx.state.merchant!.merchantId, input.url);
      ctx.body = { webhook_endpoint: presentWebhookEndpoint(row) };
    }),
  );

  router.get(
    '/webhook_endpoint',
    areaB('webhooks:read', {
      summary: 'Show the webhook endpoint',
      responses: { ...ok('The endpoint', WebhookEndpointResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const row = await findAccountWebhookEndpoint(ctx.state.db, ctx.state.merchant!.merchantId);
      if (!row) throw notFound('Webhook endpoint');
      ctx.body = { webhook_endpoint: presentWebhookEndpoint(row) };
    },
  );

  router.delete(
    '/webhook_endpoint',
    areaB('webhooks:write', {
      summary: 'Remove the webhook endpoint',
      responses: { ...ok('The removed endpoint', WebhookEndpointResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const row = await findAccountWebhookEndpoint(ctx.state.db, ctx.state.merchant!.merchantId);
      if (!row) throw notFound('Webhook endpoint');
      await deleteAccountWebhookEndpoint(ctx.state.db, ctx.state.merchant!.merchantId);
      ctx.body = { webhook_endpoint: presentWebhookEndpoint(row) };
    },
  );
}
