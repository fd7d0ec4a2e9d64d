/**
 * A product's webhook events (`refund.updated`; `resolved_payment.updated` and `resolved_payment.reversed`
 * after the payment's creation; `unmatched_transfer.created` and `unmatched_transfer.updated`), queued to the
 * product's `webhook_url` in the transaction that writes the change, with the record as it now stands. The
 * account's events are `queueAccountEvent` (`packages/db/src/repositories/webhooks.ts`).
 */
import { type WebhookEvent, webhookEvents } from '@checkout/core';
import {
  type CheckoutSessionRow,
  createWebhookDelivery,
  type Database,
  findProductById,
  listPaidTwice,
  type NewWebhookDelivery,
  type ProductRow,
  presentRefund,
  presentResolvedPayment,
  presentUnmatchedTransfer,
  type RefundRow,
  type ResolvedPaymentRow,
  type SecretBox,
  type UnmatchedTransferRow,
  webhookEnvelope,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueDeliveryStart } from './start.ts';

/**
 * One event of a product's record. `subjectId` tells the event apart from the record's others (a refund's,
 * always `refund.updated`, defaults to `<refund id>:<status>`: once per status).
 */
export type ProductEvent =
  | { refund: RefundRow; publicBaseUrl: string; subjectId?: string }
  | {
      event: typeof webhookEvents.resolvedPaymentUpdated | typeof webhookEvents.resolvedPaymentReversed;
      payment: ResolvedPaymentRow;
      subjectId: string;
    }
  | {
      event: typeof webhookEvents.unmatchedTransferCreated | typeof webhookEvents.unmatchedTransferUpdated;
      transfer: UnmatchedTransferRow;
      /** The sessions it arrived near, nearest first. */
      near: CheckoutSessionRow[];
      subjectId: string;
    };

/**
 * Queues `input`'s event once per subject when its record's product sends webhooks: its delivery is recorded
 * (idempotent on event and subject) and its workflow's start queued. Returns the product (undefined when the
 * record has none or it no longer exists).
 */
export async function queueProductEvent(
  trx: Kysely<Database>,
  secrets: SecretBox,
  input: ProductEvent,
): Promise<ProductRow | undefined> {
  const record = recordOf(input, secrets);
  const product = record.productId ? await findProductById(trx, record.productId) : undefined;
  if (!product?.send_webhook || !product.webhook_url) return product;
  const delivery = await createWebhookDelivery(trx, secrets, {
    merchantId: record.merchantId ?? product.merchant_id,
    eventType: record.event,
    subjectId: record.subjectId,
    productId: product.id,
    url: product.webhook_url,
    payload: await record.payload(trx, product),
  });
  await queueDeliveryStart(trx, delivery.id, delivery);
  return product;
}

/** The event's product, merchant (the product's when undefined), subject and body. */
function recordOf(
  input: ProductEvent,
  secrets: SecretBox,
): {
  event: WebhookEvent;
  productId: string | null;
  merchantId?: string;
  subjectId: string;
  payload: (trx: Kysely<Database>, product: ProductRow) => Promise<NewWebhookDelivery['payload']>;
} {
  if ('refund' in input) {
    const { refund: row, publicBaseUrl } = input;
    const event = webhookEvents.refundUpdated;
    return {
      event,
      productId: row.product_id,
      merchantId: row.merchant_id,
      subjectId: input.subjectId ?? `${row.id}:${row.status}`,
      payload: async () => (stamp) =>
        webhookEnvelope(event, stamp, { refund: presentRefund(row, { secrets, publicBaseUrl }) }),
    };
  }
  if ('payment' in input) {
    const { payment, event } = input;
    return {
      event,
      productId: payment.product_id,
      subjectId: input.subjectId,
      // The body of `created`, with its flags as they now stand (`paid_twice` while a duplicate of it waits open).
      payload: async (trx, product) => {
        const paidTwice = (await listPaidTwice(trx, [payment.id])).has(payment.id);
        return () => JSON.stringify(presentResolvedPayment(payment, product, secrets, { paidTwice }));
      },
    };
  }
  const { transfer, near, event } = input;
  return {
    event,
    productId: transfer.product_id,
    merchantId: transfer.merchant_id,
    subjectId: input.subjectId,
    payload: async () => (stamp) =>
      webhookEnvelope(event, stamp, { unmatched_transfer: presentUnmatchedTransfer(transfer, near) }),
  };
}
