/** The checkout workflow's activity proxies (workflow code): how long each step may take, and its retries. */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { localMailOptions } from '../finalFailure.ts';
import type { WebhookActivities } from '../webhookDelivery/shared.ts';
import type { CheckoutActivities } from './activities.ts';

/** Short, idempotent database steps run as local activities: no extra round trip through the server. */
export const local = proxyLocalActivities<CheckoutActivities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * The one look at a hash on arrival runs while the shopper's submission waits: briefly, and when the chain
 * does not answer, the polling activity (which retries patiently) takes over.
 */
export const glance = proxyLocalActivities<CheckoutActivities>({
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '200 milliseconds', maximumAttempts: 2 },
});

/** E-mails as a local activity: no round trip through the server; long outages back off on timers. */
export const localMail = proxyLocalActivities<CheckoutActivities>(localMailOptions);

/** Polls a transaction until it is final: long, heartbeating. */
export const watching = proxyActivities<CheckoutActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * The merchant's first webhook attempt, made as soon as the payment is recorded. Its answer is awaited for
 * a shorter time than later attempts ({@link hotWebhookTimeoutMs}): it runs before the shopper's
 * submission is answered. A receiver slower than that is not cut off: its request runs on to the usual
 * timeout (`send` in workflows/src/webhookDelivery/activities.ts).
 */
export const hotWebhook = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumAttempts: 2 },
});
export const hotWebhookTimeoutMs = 3_000;
