/** The `refund.updated` webhook of a refund's status, queued in the transaction that writes the status. */
import { webhookEvents } from '@checkout/core';
import {
  createWebhookDelivery,
  type Database,
  findProductById,
  presentRefund,
  type RefundRow,
  type SecretBox,
  webhookEnvelope,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueDeliveryStart } from '../webhookDelivery/start.ts';

/**
 * Queues `refund.updated` with the refund as it now stands to its product's `webhook_url`, when the product
 * sends webhooks; once per status (the delivery's subject is `<refund id>:<status>`), or once per `subjectId`
 * given (a part payment's).
 */
export async function announceRefund(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string },
  row: RefundRow,
  subjectId = `${row.id}:${row.status}`,
): Promise<void> {
  const product = row.product_id ? await findProductById(db, row.product_id) : undefined;
  if (!product?.send_webhook || !product.webhook_url) return;
  const delivery = await createWebhookDelivery(db, deps.secrets, {
    merchantId: row.merchant_id,
    eventType: webhookEvents.refundUpdated,
    subjectId,
    productId: product.id,
    url: product.webhook_url,
    payload: (stamp) =>
      webhookEnvelope(webhookEvents.refundUpdated, stamp, { refund: presentRefund(row, deps) }),
  });
  await queueDeliveryStart(db, delivery.id, delivery);
}
