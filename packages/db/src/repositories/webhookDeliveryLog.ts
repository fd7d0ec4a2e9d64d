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
