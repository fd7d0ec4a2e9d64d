/**
 * A merchant's redelivery: the same bytes to the same URL, as a new delivery linked to the original; one, or
 * every failed event since a time.
 */
import {
  createWebhookRedelivery,
  type Database,
  inTransaction,
  listRedeliverableFailures,
  type WebhookDeliveryRow,
  type WebhookScope,
} from '@checkout/db';
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

/**
 * Redelivers, in one transaction, every event of the wallet whose deliveries since `since` failed and that no
 * delivery has sent or is sending (so a repeat queues none again while they run); answers how many.
 */
export function redeliverFailedWebhooks(
  db: Kysely<Database>,
  scope: WebhookScope,
  input: { since: Date; productId?: string | undefined },
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const failed = await listRedeliverableFailures(trx, scope, input);
    for (const original of failed) await redeliverWebhook(trx, original);
    return failed.length;
  });
}
