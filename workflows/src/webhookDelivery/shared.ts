/**
 * Types, ids and the retry schedule of the `webhookDelivery` workflow, shared by the workflow, its
 * activities and the callers that start it. Safe to import inside the workflow sandbox.
 */

/** Workflow type name, as registered from bundle.workflow.ts. */
export const webhookDeliveryWorkflowType = 'webhookDelivery';

/** Input of the workflow: the delivery row, written by the caller before starting it. */
export interface WebhookDeliveryInput {
  deliveryId: string;
  /**
   * An attempt the caller already made (the checkout makes the first one itself, right after recording
   * the payment): the workflow carries on from it, waiting its backoff first when it asked for a retry.
   */
  madeAttempt?: { attempt: number; result: WebhookAttemptResult };
}

/** How a delivery workflow ended; times are workflow time in epoch milliseconds. */
export interface WebhookDeliveryResult {
  deliveryId: string;
  /** `missing`: the delivery row never appeared (its transaction rolled back). */
  status: 'succeeded' | 'failed' | 'missing';
  /** Number of the last attempt made. */
  attempts: number;
  startedAt: number;
  finishedAt: number;
}

/** Signature of the workflow function, for typed starts by name. */
export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>;

/** What the workflow learns about a delivery before its first attempt. */
export interface WebhookTarget {
  merchantId: string;
  productId: string | null;
  /** The product's receiving wallet (checksummed), for a delivery about a product's payment. */
  merchantWallet: string | null;
  eventType: string;
  /** Host (and port) of the URL: shown in the Temporal UI without the path, which may hold a token. */
  urlHost: string;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed';
  attemptCount: number;
}

/** Input of one attempt; `retry` is null when this is the last attempt the schedule allows. */
export interface WebhookAttemptInput {
  deliveryId: string;
  /** 1-based attempt number. */
  attempt: number;
  retry: { delaySeconds: number; maxDelaySeconds: number } | null;
  /** A shorter limit for this request than the configured one (an attempt made on a payment's hot path). */
  timeoutMs?: number;
}

/** Result of one attempt; `retryAfterSeconds` is the wait before the next one (`retry` only). */
export interface WebhookAttemptResult {
  outcome: 'delivered' | 'retry' | 'give_up';
  retryAfterSeconds?: number;
  statusCode?: number;
  error?: string;
}

/** Activities of the webhook family. */
export interface WebhookActivities {
  describeWebhookDelivery(input: WebhookDeliveryInput): Promise<WebhookTarget>;
  attemptWebhookDelivery(input: WebhookAttemptInput): Promise<WebhookAttemptResult>;
}

/** Error type thrown when the delivery row does not exist (retried briefly: its transaction may not have committed). */
export const webhookDeliveryNotFound = 'webhook_delivery_not_found';

/** The retry schedule: 30 s doubling to at most 6 h between attempts, for 3 days. */
export const webhookRetrySchedule = {
  firstDelaySeconds: 30,
  factor: 2,
  maxDelaySeconds: 6 * 60 * 60,
  horizonSeconds: 3 * 24 * 60 * 60,
  /** Bound on attempts per run, above the 22 the schedule produces within the horizon. */
  maxAttempts: 30,
} as const;

/** The memo of a delivery workflow: what it sends and where, without the URL's path (which may hold a token). */
export interface WebhookMemo {
  eventType: string;
  /** Host (and port) of the URL; empty when it does not parse (the attempt refuses it and records why). */
  urlHost: string;
}

/** The memo of a delivery of `eventType` to `url`. */
export function webhookMemo(eventType: string, url: string): WebhookMemo {
  let urlHost = '';
  try {
    urlHost = new URL(url).host;
  } catch {
    // Left empty: the attempt refuses the URL and records why.
  }
  return { eventType, urlHost };
}

/** The retry allowance of a delivery's first attempt, for a caller that makes it outside the workflow. */
export function firstAttemptRetry(): { delaySeconds: number; maxDelaySeconds: number } {
  return {
    delaySeconds: webhookRetrySchedule.firstDelaySeconds,
    maxDelaySeconds: webhookRetrySchedule.horizonSeconds,
  };
}

/** Backoff after failed attempt `attempt` (1-based), before any Retry-After or horizon clamp. */
export function webhookRetryDelaySeconds(attempt: number): number {
  const { firstDelaySeconds, factor, maxDelaySeconds } = webhookRetrySchedule;
  const exponent = Math.min(Math.max(attempt - 1, 0), 32);
  return Math.min(maxDelaySeconds, firstDelaySeconds * factor ** exponent);
}

/** The workflow id of a delivery: a business key, so a delivery is never sent by two workflows. */
export function webhookWorkflowId(deliveryId: string): string {
  return `webhook-${deliveryId}`;
}
