/**
 * Area B account webhook endpoint: where `kyc_update` and `payment_detail_update` events are sent, and a test
 * event of either.
 */
import {
  AccountWebhookTestEventRequest,
  notFound,
  WebhookDeliveryResponse,
  WebhookEndpointBody,
  WebhookEndpointResponse,
} from '@checkout/core';
import {
  deleteAccountWebhookEndpoint,
  findAccountWebhookEndpoint,
  presentDelivery,
  presentWebhookEndpoint,
  putAccountWebhookEndpoint,
} from '@checkout/db';
import { sendAccountTestEvent } from '@checkout/workflows';
import type { AppDeps } from '../context.ts';
import { assertWebhookUrlAllowed } from '../webhookUrlPolicy.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, errors, ok } from './docs.ts';

/** Registers `PUT/GET/DELETE /webhook_endpoint` and its test events on the Area B router. */
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

  router.post(
    '/webhook_endpoint/test_events',
    areaB('webhooks:write', {
      summary:
        "Send a sample kyc_update, payment_detail_update, onramp_update, offramp_update or quote_update to the account's endpoint, signed like real ones and marked X-Test-Event: true; answers the delivery with its first attempt (status code and the answer's first 1 KB)",
      // The delivery is committed before the answer waits for its first attempt (middleware/idempotency.ts).
      'x-idempotency': 'claim_first',
      responses: { ...ok('The test delivery', WebhookDeliveryResponse), ...errors(400, 401, 403, 409, 422) },
    }),
    withBody({ schema: AccountWebhookTestEventRequest }, async (ctx, body) => {
      // No transaction is open here (`claim_first`): the delivery is committed before the worker can send it.
      const row = await sendAccountTestEvent(ctx.state.db, deps.secrets, {
        merchantId: ctx.state.merchant!.merchantId,
        event: body().event,
        waitMs: Math.min(deps.config.webhooks.timeoutMs, 30_000) + 2_000,
        dispatcher: deps.handOver.dispatcher,
      });
      ctx.body = { webhook_delivery: presentDelivery(row) };
    }),
  );
}
