/** Webhook secrets, deliveries and their attempts. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, WebhookAttemptRow, WebhookDeliveryRow } from '../schema.ts';
import type { SecretBox } from '../secretBox.ts';
import { findAccountWebhookEndpoint } from './users.ts';
import { storedWebhookPayload } from './webhookPayload.ts';

/** A new signing secret: `whsec_` and 43 base64url characters (256 bits). */
function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** A merchant's signing secret in the clear, with its dates. */
export interface WebhookSecretRecord {
  secret: string;
  created_at: Date;
  rotated_at: Date | null;
}

async function readSecret(
  db: Kysely<Database>,
  secrets: SecretBox,
  merchantId: string,
): Promise<WebhookSecretRecord | undefined> {
  const row = await db
    .selectFrom('webhook_secrets')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    secret: secrets.open(row.secret_ciphertext),
    created_at: row.created_at,
    rotated_at: row.rotated_at,
  };
}

/** The merchant's secret, created on first use (concurrent first uses agree on one). */
export async function ensureWebhookSecret(
  db: Kysely<Database>,
  secrets: SecretBox,
  merchantId: string,
): Promise<WebhookSecretRecord> {
  const existing = await readSecret(db, secrets, merchantId);
  if (existing) return existing;
  await db
    .insertInto('webhook_secrets')
    .values({
      merchant_id: merchantId,
      secret_ciphertext: secrets.seal(generateWebhookSecret()),
      created_at: new Date(),
    })
    .onConflict((oc) => oc.column('merchant_id').doNothing())
    .execute();
  const created = await readSecret(db, secrets, merchantId);
  if (!created) throw new Error('the webhook secret vanished right after it was written');
  return created;
}

/** Replaces the merchant's secret with a new one (creating it when absent) and returns it. */
export async function rotateWebhookSecret(
  db: Kysely<Database>,
  secrets: SecretBox,
  merchantId: string,
): Promise<WebhookSecretRecord> {
  const secret = generateWebhookSecret();
  const now = new Date();
  const row = await db
    .insertInto('webhook_secrets')
    .values({
      merchant_id: merchantId,
      secret_ciphertext: secrets.seal(secret),
      created_at: now,
      rotated_at: now,
    })
    .onConflict((oc) =>
      oc.column('merchant_id').doUpdateSet((eb) => ({
        secret_ciphertext: eb.ref('excluded.secret_ciphertext'),
        rotated_at: eb.ref('excluded.rotated_at'),
      })),
    )
    .returning(['created_at', 'rotated_at'])
    .executeTakeFirstOrThrow();
  return { secret, created_at: row.created_at, rotated_at: row.rotated_at };
}

/** What an event producer records about the webhook it owes. */
export interface NewWebhookDelivery {
  merchantId: string;
  /** e.g. `resolved_payment.created`. */
  eventType: string;
  /** Id of the record the event is about. */
  subjectId: string;
  productId?: string | null;
  url: string;
  /**
   * The exact body to send (serialised once, so every attempt and redelivery sends the same bytes); it is
   * stored sealed, a top-level `product_secret` kept out of it (see ./webhookPayload.ts).
   */
  payload: string;
}

/**
 * Queues an Area B account event (`kyc_update`, `payment_detail_update`, `onramp_update`, `offramp_update`,
 * `quote_update`) for the account's webhook endpoint, inside the caller's transaction: the body is
 * `{"event": <event>, "payload": <payload>}`, serialised once and stored sealed. Returns the delivery's id, or null when the
 * account has no endpoint. Idempotent on (event, subject), as {@link createWebhookDelivery} is.
 */
export async function queueAccountEvent(
  trx: Kysely<Database>,
  secrets: SecretBox,
  input: { merchantId: string; event: string; subjectId: string; payload: unknown },
): Promise<string | null> {
  const endpoint = await findAccountWebhookEndpoint(trx, input.merchantId);
  if (!endpoint) return null;
  const delivery = await createWebhookDelivery(trx, secrets, {
    merchantId: input.merchantId,
    eventType: input.event,
    subjectId: input.subjectId,
    url: endpoint.url,
    payload: JSON.stringify({ event: input.event, payload: input.payload }),
  });
  return delivery.id;
}

/**
 * Records the first delivery of an event to a URL, its body sealed, inside the caller's transaction (the one
 * that writes the event's record). Idempotent on (event type, subject, URL): a repeat returns the first row.
 */
export async function createWebhookDelivery(
  trx: Kysely<Database>,
  secrets: SecretBox,
  input: NewWebhookDelivery,
): Promise<WebhookDeliveryRow> {
  const inserted = await trx
    .insertInto('webhook_deliveries')
    .values({
      id: randomUUID(),
      merchant_id: input.merchantId,
      event_type: input.eventType,
      subject_id: input.subjectId,
      product_id: input.productId ?? null,
      url: input.url,
      payload: storedWebhookPayload(secrets, input.payload),
      status: 'pending',
      next_attempt_at: new Date(),
      created_at: new Date(),
    })
    .onConflict((oc) =>
      oc.columns(['event_type', 'subject_id', 'url']).where('redelivery_of', 'is', null).doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  if (inserted) return inserted;
  return trx
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('event_type', '=', input.eventType)
    .where('subject_id', '=', input.subjectId)
    .where('url', '=', input.url)
    .where('redelivery_of', 'is', null)
    .executeTakeFirstOrThrow();
}

/** Which deliveries a merchant wallet may see: its merchant's, and for product events its own products'. */
export interface WebhookScope {
  merchantId: string;
  addressId: string;
}

/** A delivery of the merchant wallet, or undefined (absent or someone else's). */
export async function findScopedWebhookDelivery(
  db: Kysely<Database>,
  scope: WebhookScope,
  id: string,
): Promise<WebhookDeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .leftJoin('products', 'products.id', 'webhook_deliveries.product_id')
    .selectAll('webhook_deliveries')
    .where('webhook_deliveries.id', '=', id)
    .where('webhook_deliveries.merchant_id', '=', scope.merchantId)
    .where((eb) =>
      eb.or([
        eb('webhook_deliveries.product_id', 'is', null),
        eb('products.address_id', '=', scope.addressId),
      ]),
    )
    .executeTakeFirst();
}

/**
 * A new delivery of the same bytes (copied sealed, as stored) to the same URL. It links to the event's first delivery (also when
 * `of` is itself a redelivery), so receivers deduplicate on one original id.
 */
export async function createWebhookRedelivery(
  db: Kysely<Database>,
  of: WebhookDeliveryRow,
): Promise<WebhookDeliveryRow> {
  const now = new Date();
  return db
    .insertInto('webhook_deliveries')
    .values({
      id: randomUUID(),
      merchant_id: of.merchant_id,
      event_type: of.event_type,
      subject_id: of.subject_id,
      product_id: of.product_id,
      url: of.url,
      payload: of.payload,
      status: 'pending',
      next_attempt_at: now,
      redelivery_of: of.redelivery_of ?? of.id,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The first delivery of an event that nobody attempted yet (no request made, still pending), or null: what
 * a retried step hands to delivery when its first attempt wrote the row and died before starting it.
 */
export async function findUnattemptedDelivery(
  db: Kysely<Database>,
  eventType: string,
  subjectId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('event_type', '=', eventType)
    .where('subject_id', '=', subjectId)
    .where('redelivery_of', 'is', null)
    .where('status', '=', 'pending')
    .where('attempt_count', '=', 0)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A delivery by id, unscoped (for the delivery workflow). */
export async function findWebhookDelivery(
  db: Kysely<Database>,
  id: string,
): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks an attempt as in flight, unless the delivery already reached a final status. */
export async function markWebhookDelivering(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'delivering', next_attempt_at: null })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'delivering'])
    .execute();
}

/** The outcome of one HTTP request and the delivery status it leads to. */
export interface WebhookAttemptRecord {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseSnippet: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  /** When the next attempt is due (status `pending` only). */
  nextAttemptAt: Date | null;
}

/** Stores an attempt and updates its delivery in one transaction (a repeated attempt number overwrites). */
export async function recordWebhookAttempt(
  db: Kysely<Database>,
  record: WebhookAttemptRecord,
): Promise<void> {
  const finishedAt = new Date(record.startedAt.getTime() + record.durationMs);
  await db.transaction().execute(async (trx) => {
    const attempt = {
      started_at: record.startedAt,
      duration_ms: record.durationMs,
      status_code: record.statusCode,
      error: record.error,
      response_snippet: record.responseSnippet,
    };
    await trx
      .insertInto('webhook_attempts')
      .values({ id: randomUUID(), delivery_id: record.deliveryId, attempt: record.attempt, ...attempt })
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doUpdateSet(attempt))
      .execute();
    await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: record.status,
        attempt_count: eb.fn('greatest', [eb.ref('attempt_count'), eb.val(record.attempt)]),
        last_status_code: record.statusCode,
        last_error: record.error,
        next_attempt_at: record.status === 'pending' ? record.nextAttemptAt : null,
        delivered_at: record.status === 'succeeded' ? finishedAt : null,
      }))
      .where('id', '=', record.deliveryId)
      .where('status', '!=', 'succeeded')
      .execute();
  });
}

/** A delivery with its attempts, oldest attempt first. */
export type WebhookDeliveryWithAttempts = WebhookDeliveryRow & { attempts: WebhookAttemptRow[] };

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
