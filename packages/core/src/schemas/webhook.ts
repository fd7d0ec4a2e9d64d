/** Webhook secret and delivery log responses of the merchant API. */
import { z } from 'zod';
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
  attempts: z.array(WebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryResponse = namedObject('WebhookDeliveryResponse', {
  webhook_delivery: WebhookDelivery,
});

export const WebhookDeliveryListResponse = namedObject('WebhookDeliveryList', {
  webhook_deliveries: z.array(WebhookDelivery),
});
