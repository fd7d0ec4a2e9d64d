/**
 * A resolved payment's later events (`resolved_payment.updated` after a top-up, a refund, a move to another
 * block, or a duplicate of it found or settled; `resolved_payment.reversed`), queued to its product's `webhook_url` in the transaction that writes
 * the change, with the payment as it now stands (the body of `created`).
 */
import type { webhookEvents } from '@checkout/core';
import {
  createWebhookDelivery,
  type Database,
  findProductById,
  listPaidTwice,
  type ProductRow,
  presentResolvedPayment,
  type ResolvedPaymentRow,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueDeliveryStart } from '../webhookDelivery/start.ts';

/**
 * Queues `event` of `payment` once per `subjectId` when its product sends webhooks, with its flags as they
 * now stand (`paid_twice` while a duplicate of it waits open); the product (undefined when it no longer
 * exists).
 */
export async function queueResolvedPaymentEvent(
  trx: Kysely<Database>,
  secrets: SecretBox,
  input: {
    payment: ResolvedPaymentRow;
    event: typeof webhookEvents.resolvedPaymentUpdated | typeof webhookEvents.resolvedPaymentReversed;
    subjectId: string;
  },
): Promise<ProductRow | undefined> {
  const product = await findProductById(trx, input.payment.product_id);
  if (product?.send_webhook && product.webhook_url) {
    const paidTwice = (await listPaidTwice(trx, [input.payment.id])).has(input.payment.id);
    const delivery = await createWebhookDelivery(trx, secrets, {
      merchantId: product.merchant_id,
      eventType: input.event,
      subjectId: input.subjectId,
      productId: product.id,
      url: product.webhook_url,
      payload: () => JSON.stringify(presentResolvedPayment(input.payment, product, secrets, { paidTwice })),
    });
    await queueDeliveryStart(trx, delivery.id, delivery);
  }
  return product;
}
