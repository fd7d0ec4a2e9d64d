/** Area B account webhook endpoint: where `kyc_update` and `payment_detail_update` events are sent. */
import { notFound, WebhookEndpointBody } from '@checkout/core';
import {
  type AccountWebhookEndpointRow,
  deleteAccountWebhookEndpoint,
  findAccountWebhookEndpoint,
  putAccountWebhookEndpoint,
} from '@checkout/db';
import type { Router } from '@koa/router';
import type { AppDeps, AppState } from '../context.ts';
import { parseBody } from '../parseBody.ts';
import { assertWebhookUrlAllowed } from '../webhookUrlPolicy.ts';

function present(row: AccountWebhookEndpointRow) {
  return { url: row.url, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

/** Registers `PUT/GET/DELETE /webhook_endpoint` on the Area B router. */
export function webhookEndpointRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.put('/webhook_endpoint', async (ctx) => {
    const { webhook_endpoint: input } = parseBody(WebhookEndpointBody, ctx.state.body, 'webhook_endpoint');
    assertWebhookUrlAllowed(input.url, 'webhook_endpoint.url', deps.config.webhooks.allowPrivateAddresses);
    const row = await putAccountWebhookEndpoint(ctx.state.db, ctx.state.merchant!.merchantId, input.url);
    ctx.body = { webhook_endpoint: present(row) };
  });

  router.get('/webhook_endpoint', async (ctx) => {
    const row = await findAccountWebhookEndpoint(ctx.state.db, ctx.state.merchant!.merchantId);
    if (!row) throw notFound('Webhook endpoint');
    ctx.body = { webhook_endpoint: present(row) };
  });

  router.delete('/webhook_endpoint', async (ctx) => {
    const row = await findAccountWebhookEndpoint(ctx.state.db, ctx.state.merchant!.merchantId);
    if (!row) throw notFound('Webhook endpoint');
    await deleteAccountWebhookEndpoint(ctx.state.db, ctx.state.merchant!.merchantId);
    ctx.body = { webhook_endpoint: present(row) };
  });
}
