/** The delivery log: deliveries with their attempts, as the merchant reads them. */
import type { Kysely } from 'kysely';
import type { Database, WebhookAttemptRow, WebhookDeliveryRow } from '../schema.ts';

/** A delivery with its attempts, oldest attempt first. */
export type WebhookDeliveryWithAttempts = WebhookDeliveryRow & { attempts: WebhookAttemptRow[] };

/** `deliveries`, each with its attempts (one query for all of them). */
async function withAttempts(
  db: Kysely<Database>,
  deliveries: WebhookDeliveryRow[],
): Promise<WebhookDeliveryWithAttempts[]> {
  if (deliveries.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      deliveries.map((d) => d.id),
    )
    .orderBy('attempt')
    .execute();
  return deliveries.map((d) => ({ ...d, attempts: attempts.filter((a) => a.delivery_id === d.id) }));
}

/** The newest deliveries of a product (at most `limit`), newest first, each with its attempts. */
export async function listWebhookDeliveries(
  db: Kysely<Database>,
  productId: string,
  limit = 100,
): Promise<WebhookDeliveryWithAttempts[]> {
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('product_id', '=', productId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return withAttempts(db, deliveries);
}

/** One delivery with its attempts, oldest attempt first. */
export async function findWebhookDeliveryWithAttempts(
  db: Kysely<Database>,
  id: string,
): Promise<WebhookDeliveryWithAttempts> {
  const delivery = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const [found] = await withAttempts(db, [delivery]);
  return found!;
}

/**
 * The merchant's deliveries of events about `subjects` (records whose events carry them as their sequence's
 * subject) and their redeliveries, oldest first, each with its attempts.
 */
export async function listDeliveriesAbout(
  db: Kysely<Database>,
  merchantId: string,
  subjects: string[],
): Promise<WebhookDeliveryWithAttempts[]> {
  const firsts = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('sequence_subject', 'in', subjects)
    .where('redelivery_of', 'is', null)
    .where('merchant_id', '=', merchantId)
    .execute();
  const again =
    firsts.length === 0
      ? []
      : await db
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where(
            'redelivery_of',
            'in',
            firsts.map((d) => d.id),
          )
          .where('merchant_id', '=', merchantId)
          .execute();
  const all = [...firsts, ...again].sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id),
  );
  return withAttempts(db, all);
}
