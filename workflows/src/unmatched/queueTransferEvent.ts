/**
 * An unmatched transfer's events (`unmatched_transfer.created`; `unmatched_transfer.updated` after a
 * reorganisation), queued to the nearest product's `webhook_url` in the transaction that writes the change,
 * with the transfer as it now stands.
 */
import type { webhookEvents } from '@checkout/core';
import {
  type CheckoutSessionRow,
  createWebhookDelivery,
  type Database,
  findProductById,
  presentUnmatchedTransfer,
  type SecretBox,
  type UnmatchedTransferRow,
  webhookEnvelope,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueDeliveryStart } from '../webhookDelivery/start.ts';

/** Queues `event` of `transfer` once per `subjectId` when its nearest product sends webhooks. */
export async function queueUnmatchedTransferEvent(
  trx: Kysely<Database>,
  secrets: SecretBox,
  input: {
    transfer: UnmatchedTransferRow;
    /** The sessions it arrived near, nearest first. */
    near: CheckoutSessionRow[];
    event: typeof webhookEvents.unmatchedTransferCreated | typeof webhookEvents.unmatchedTransferUpdated;
    subjectId: string;
  },
): Promise<void> {
  const { transfer, event } = input;
  const product = transfer.product_id ? await findProductById(trx, transfer.product_id) : undefined;
  if (!product?.send_webhook || !product.webhook_url) return;
  const delivery = await createWebhookDelivery(trx, secrets, {
    merchantId: transfer.merchant_id,
    eventType: event,
    subjectId: input.subjectId,
    productId: product.id,
    url: product.webhook_url,
    payload: (stamp) =>
      webhookEnvelope(event, stamp, { unmatched_transfer: presentUnmatchedTransfer(transfer, input.near) }),
  });
  await queueDeliveryStart(trx, delivery.id, delivery);
}
