/** The wire forms of the webhook objects: the signing secret, a delivery with its attempts, the account endpoint. */
import type { WebhookDelivery, WebhookEndpoint, WebhookSecret } from '@checkout/core';
import type { WebhookDeliveryWithAttempts } from '../repositories/webhookDeliveryLog.ts';
import { isTestEvent, type WebhookSecretRecord, webhookEventId } from '../repositories/webhooks.ts';
import type { AccountWebhookEndpointRow } from '../usersSchema.ts';

/** The webhook signing secret as its routes show it. */
export function presentSecret(record: WebhookSecretRecord): WebhookSecret {
  return {
    secret: record.secret,
    created_at: record.created_at.toISOString(),
    rotated_at: record.rotated_at?.toISOString() ?? null,
  };
}

/** A delivery as listed; the payload stays out because it carries the product secret. */
export function presentDelivery(row: WebhookDeliveryWithAttempts): WebhookDelivery {
  return {
    id: row.id,
    event_type: row.event_type,
    url: row.url,
    status: row.status,
    attempt_count: row.attempt_count,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    delivered_at: row.delivered_at?.toISOString() ?? null,
    redelivery_of: row.redelivery_of,
    event_id: webhookEventId(row),
    event_sequence: row.event_sequence,
    test: isTestEvent(row),
    attempts: row.attempts.map((a) => ({
      attempt: a.attempt,
      started_at: a.started_at.toISOString(),
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
      response_excerpt: a.response_snippet,
    })),
  };
}

/** The account's webhook endpoint (Area B) as its routes show it. */
export function presentWebhookEndpoint(row: AccountWebhookEndpointRow): WebhookEndpoint {
  return { url: row.url, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}
