/** Webhook secrets, deliveries and their attempts. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { WebhookEvent } from '@checkout/core';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { inTransaction } from '../inTransaction.ts';
import type { Database, WebhookDeliveryRow } from '../schema.ts';
import type { SecretBox } from '../secretBox.ts';
import { findAccountWebhookEndpoint } from './users.ts';
import type { WalletScope } from './walletScope.ts';
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

/** An event's id and its place among the events about its record, fixed when its first delivery is recorded. */
export interface WebhookEventStamp {
  /** `evt_` and the first delivery's id in hex: the same on every attempt and redelivery. */
  id: string;
  sequence: number;
}

/** The event id of a delivery: its first delivery's id (its own, or the one it redelivers), as `evt_<hex>`. */
export function webhookEventId(delivery: Pick<WebhookDeliveryRow, 'id' | 'redelivery_of'>): string {
  return `evt_${(delivery.redelivery_of ?? delivery.id).replaceAll('-', '')}`;
}

/**
 * The body of the service's own events (every event but the resolved payment's, whose body is the Resolved
 * Payment itself, spec 2.3): `{"event", "id", "sequence", "payload"}`.
 */
export function webhookEnvelope(event: WebhookEvent, stamp: WebhookEventStamp, payload: unknown): string {
  return JSON.stringify({ event, id: stamp.id, sequence: stamp.sequence, payload });
}

/** The subject of a sample event sent on request: `test_event:` and a fresh id, so no two are one event. */
export const testEventSubject = 'test_event';

/** Whether a delivery carries a sample event sent on request, not one about a real record. */
export function isTestEvent(delivery: Pick<WebhookDeliveryRow, 'sequence_subject'>): boolean {
  return delivery.sequence_subject === testEventSubject;
}

/** What an event producer records about the webhook it owes. */
export interface NewWebhookDelivery {
  merchantId: string;
  /** e.g. `resolved_payment.created`. */
  eventType: WebhookEvent;
  /**
   * Id of the record the event is about, then `:` and what tells this event apart from the record's others
   * (e.g. `<refund id>:<status>`). Events are numbered per record: the part before the first `:`.
   */
  subjectId: string;
  productId?: string | null;
  url: string;
  /**
   * The exact body to send, given the event's stamp (serialised once, so every attempt and redelivery sends the
   * same bytes); it is stored sealed, a top-level `product_secret` kept out of it (see ./webhookPayload.ts).
   */
  payload: (stamp: WebhookEventStamp) => string;
}

/**
 * Queues an Area B account event (`kyc_update`, `payment_detail_update`, `onramp_update`, `offramp_update`,
 * `quote_update`) for the account's webhook endpoint, inside the caller's transaction: the body is
 * {@link webhookEnvelope}, serialised once and stored sealed. Returns the delivery's id, or null when the
 * account has no endpoint. Idempotent on (event, subject), as {@link createWebhookDelivery} is.
 */
export async function queueAccountEvent(
  trx: Kysely<Database>,
  secrets: SecretBox,
  input: { merchantId: string; event: WebhookEvent; subjectId: string; payload: unknown },
): Promise<string | null> {
  const endpoint = await findAccountWebhookEndpoint(trx, input.merchantId);
  if (!endpoint) return null;
  const delivery = await createWebhookDelivery(trx, secrets, {
    merchantId: input.merchantId,
    eventType: input.event,
    subjectId: input.subjectId,
    url: endpoint.url,
    payload: (stamp) => webhookEnvelope(input.event, stamp, input.payload),
  });
  return delivery.id;
}

/**
 * Records the first delivery of an event to a URL, its body sealed, inside the caller's transaction (the one
 * that writes the event's record; one of its own when there is none). Idempotent on (event type, subject,
 * URL): a repeat returns the first row. The event's sequence is the record's last one plus one, taken under a
 * transaction lock on the record, so concurrent events about one record get distinct, increasing numbers.
 */
export async function createWebhookDelivery(
  db: Kysely<Database>,
  secrets: SecretBox,
  input: NewWebhookDelivery,
): Promise<WebhookDeliveryRow> {
  const sequenceSubject = input.subjectId.split(':', 1)[0] ?? input.subjectId;
  return inTransaction(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`webhook_sequence:${sequenceSubject}`}, 0))`.execute(
      trx,
    );
    // The first delivery of this event to this URL, if any, and the record's last sequence, in one read.
    const known = await trx
      .selectNoFrom((eb) => [
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('event_type', '=', input.eventType)
          .where('subject_id', '=', input.subjectId)
          .where('url', '=', input.url)
          .where('redelivery_of', 'is', null)
          .limit(1)
          .as('existing'),
        eb
          .selectFrom('webhook_deliveries')
          .select((e) => e.fn.max('event_sequence').as('sequence'))
          .where('sequence_subject', '=', sequenceSubject)
          .where('redelivery_of', 'is', null)
          .as('sequence'),
      ])
      .executeTakeFirstOrThrow();
    if (known.existing) {
      return trx
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', known.existing)
        .executeTakeFirstOrThrow();
    }
    const id = randomUUID();
    const stamp = {
      id: webhookEventId({ id, redelivery_of: null }),
      sequence: Number(known.sequence ?? 0) + 1,
    };
    const now = new Date();
    return trx
      .insertInto('webhook_deliveries')
      .values({
        id,
        merchant_id: input.merchantId,
        event_type: input.eventType,
        subject_id: input.subjectId,
        product_id: input.productId ?? null,
        url: input.url,
        payload: storedWebhookPayload(secrets, input.payload(stamp)),
        status: 'pending',
        next_attempt_at: now,
        sequence_subject: sequenceSubject,
        event_sequence: stamp.sequence,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/**
 * Which deliveries a merchant wallet may see: its merchant's, and for product events its own products' (with
 * a test key, only test networks' products).
 */
export type WebhookScope = WalletScope;

/**
 * The condition of `scope` on a delivery joined to its product: the account's events, and the product events
 * of the wallet's own products (with a test key, only test networks' products).
 */
function visibleToWallet(
  eb: ExpressionBuilder<Database, 'webhook_deliveries' | 'products'>,
  scope: WebhookScope,
) {
  const ownProduct = eb('products.address_id', '=', scope.addressId);
  return eb.or([
    eb('webhook_deliveries.product_id', 'is', null),
    scope.testOnly ? eb.and([ownProduct, eb('products.token_network', '=', 'testnet')]) : ownProduct,
  ]);
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
    .where((eb) => visibleToWallet(eb, scope))
    .executeTakeFirst();
}

/**
 * The wallet's events whose deliveries since `since` failed and that no delivery has sent or is sending: for
 * each, its newest failed delivery (of `productId` only, when given), oldest event first.
 */
export async function listRedeliverableFailures(
  db: Kysely<Database>,
  scope: WebhookScope,
  input: { since: Date; productId?: string | undefined },
): Promise<WebhookDeliveryRow[]> {
  const event = sql<string>`coalesce(webhook_deliveries.redelivery_of, webhook_deliveries.id)`;
  let query = db
    .selectFrom('webhook_deliveries')
    .leftJoin('products', 'products.id', 'webhook_deliveries.product_id')
    .selectAll('webhook_deliveries')
    .distinctOn(event)
    .where('webhook_deliveries.merchant_id', '=', scope.merchantId)
    .where('webhook_deliveries.status', '=', 'failed')
    .where('webhook_deliveries.created_at', '>=', input.since)
    .where((eb) => visibleToWallet(eb, scope))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as other')
            .select('other.id')
            .where(sql<boolean>`coalesce(other.redelivery_of, other.id) = ${event}`)
            .where('other.status', '!=', 'failed'),
        ),
      ),
    );
  if (input.productId) query = query.where('webhook_deliveries.product_id', '=', input.productId);
  const rows = await query.orderBy(event).orderBy('webhook_deliveries.created_at', 'desc').execute();
  return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
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
      sequence_subject: of.sequence_subject,
      event_sequence: of.event_sequence,
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
  eventType: WebhookEvent,
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
