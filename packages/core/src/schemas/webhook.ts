/** Webhook secret and delivery log responses of the merchant API. */
import { z } from 'zod';
import { accountTestEvents, productTestEvents } from '../webhookEvents.ts';
import { namedObject, Timestamp, Uuid } from './common.ts';

/** The merchant's signing secret; shown by its own endpoints only. */
export const WebhookSecret = namedObject('WebhookSecret', {
  secret: z.string().meta({ example: 'whsec_Jq2v9VbZl0m3cQ8xA1s4Rk7TnYw6eHd5uPfLgC0iOzE' }),
  created_at: Timestamp,
  rotated_at: Timestamp.nullable(),
});
export type WebhookSecret = z.infer<typeof WebhookSecret>;

export const WebhookSecretResponse = namedObject('WebhookSecretResponse', { webhook_secret: WebhookSecret });

/** Lifecycle of a delivery: waiting for an attempt, attempt in flight, or final. */
const webhookDeliveryStatuses = ['pending', 'delivering', 'succeeded', 'failed'] as const;

/** One HTTP request of a delivery. */
const WebhookAttempt = namedObject('WebhookAttempt', {
  attempt: z.number().int().min(1),
  started_at: Timestamp,
  duration_ms: z.number().int().min(0),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  /** The first 1 KB of what the receiver answered, or null when it did not answer. */
  response_excerpt: z.string().nullable(),
});

/** One event sent to one URL, with every attempt (the payload itself is not listed: it holds secrets). */
export const WebhookDelivery = namedObject('WebhookDelivery', {
  id: Uuid,
  event_type: z.string().meta({ example: 'resolved_payment.created' }),
  url: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attempt_count: z.number().int().min(0),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: Timestamp,
  delivered_at: Timestamp.nullable(),
  redelivery_of: Uuid.nullable(),
  /** The event's id (`X-Event-Id`): the same on every attempt and redelivery. */
  event_id: z.string().meta({ example: 'evt_0b6f5c0f3c1e4b7e9d2a6b1c8e4f7a90' }),
  /** The event's place among the events about its record (`X-Event-Sequence`). */
  event_sequence: z.number().int().min(1),
  /** A sample event sent on request (`X-Test-Event: true`), not about a real record. */
  test: z.boolean(),
  attempts: z.array(WebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryResponse = namedObject('WebhookDeliveryResponse', {
  webhook_delivery: WebhookDelivery,
});

export const WebhookDeliveryListResponse = namedObject('WebhookDeliveryList', {
  webhook_deliveries: z.array(WebhookDelivery),
});

/** Redeliver every failed event since a time: the failed deliveries made since then, of one product or all. */
export const RedeliverFailedWebhooksRequest = namedObject('RedeliverFailedWebhooksRequest', {
  since: z.iso.datetime({ offset: true }).meta({ example: '2026-11-22T00:00:00Z' }),
  product_id: Uuid.optional(),
});

export const RedeliverFailedWebhooksResponse = namedObject('RedeliverFailedWebhooksResponse', {
  /** How many redeliveries were queued: one per failed event no other delivery has sent or is sending. */
  queued: z.number().int().min(0),
});

/** Send a sample event, signed like real ones and marked as a test, to the product's `webhook_url`. */
export const WebhookTestEventRequest = namedObject('WebhookTestEventRequest', {
  event: z.enum(productTestEvents),
});

/** Body of POST /webhook_endpoint/test_events (Area B): the account event to imitate. */
export const AccountWebhookTestEventRequest = namedObject('AccountWebhookTestEventRequest', {
  event: z.enum(accountTestEvents),
});
