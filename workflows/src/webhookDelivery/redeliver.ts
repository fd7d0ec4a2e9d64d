/** A merchant's redelivery: the same bytes to the same URL, as a new delivery linked to the original. */
import { createWebhookRedelivery, type Database, inTransaction, type WebhookDeliveryRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueDeliveryStart } from './start.ts';

/** Writes the redelivery with its workflow's start queued in the same transaction. */
export function redeliverWebhook(
  db: Kysely<Database>,
  original: WebhookDeliveryRow,
): Promise<WebhookDeliveryRow> {
  return inTransaction(db, async (trx) => {
    const row = await createWebhookRedelivery(trx, original);
    await queueDeliveryStart(trx, row.id, row);
    return row;
  });
}
