/** Activities of `webhookDelivery`: read the delivery, and make one signed, recorded HTTP attempt. */
import { signWebhook, webhookHeaderNames, webhookSignatureHeader } from '@checkout/core/webhookSignature';
import {
  ensureWebhookSecret,
  findProductById,
  findWebhookDelivery,
  isTestEvent,
  markWebhookDelivering,
  recordWebhookAttempt,
  webhookEventId,
  webhookRequestBody,
} from '@checkout/db';
import { log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { performOnce } from '../effects.ts';
import type { WorkerResources } from '../resources.ts';
import { sendWebhookRequest, type WebhookHttpOutcome } from './sendWebhookRequest.ts';
import {
  type WebhookActivities,
  type WebhookAttemptInput,
  type WebhookAttemptResult,
  type WebhookDeliveryInput,
  type WebhookTarget,
  webhookDeliveryNotFound,
  webhookMemo,
  webhookRetrySchedule,
} from './shared.ts';

/** User-Agent of every webhook request. */
const webhookUserAgent = 'stable-checkout-webhooks/1';

/** Resources the webhook activities use. */
export interface WebhookActivityDeps extends Pick<WorkerResources, 'db' | 'secrets'> {
  webhooks: {
    /** Lets webhooks reach loopback and private networks (development and tests only). */
    allowPrivateAddresses: boolean;
    userAgent?: string;
    /** Limit of one HTTP request, connect to last byte kept; 30 s by default (`WEBHOOK_TIMEOUT_SECONDS`). */
    timeoutMs?: number;
  };
}

/**
 * Seconds to wait according to a Retry-After value (delta seconds or HTTP-date), capped at the longest backoff.
 * @internal exported for its unit test
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let seconds: number;
  if (/^\d+$/.test(text)) {
    seconds = Number(text);
  } else {
    // Every HTTP-date form starts with the day name; Date.parse alone would read "1.5" as a date.
    if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/.test(text)) return undefined;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    seconds = Math.max(0, Math.ceil((at - now) / 1000));
  }
  return Math.min(seconds, webhookRetrySchedule.maxDelaySeconds);
}

/** What one HTTP outcome means for the delivery. */
function judge(outcome: WebhookHttpOutcome): {
  verdict: WebhookAttemptResult['outcome'];
  statusCode: number | null;
  error: string | null;
} {
  if (outcome.kind === 'refused') return { verdict: 'give_up', statusCode: null, error: outcome.error };
  if (outcome.kind === 'network_error') return { verdict: 'retry', statusCode: null, error: outcome.error };
  const code = outcome.statusCode;
  if (code >= 200 && code < 300) return { verdict: 'delivered', statusCode: code, error: null };
  if (code === 408 || code === 429 || code >= 500) {
    return { verdict: 'retry', statusCode: code, error: `HTTP ${code}` };
  }
  const why = code >= 300 && code < 400 ? ' (redirects are not followed)' : '';
  return { verdict: 'give_up', statusCode: code, error: `HTTP ${code}${why}` };
}

/** The attempt's result, and when the next attempt is due (after the receiver's `Retry-After` if later). */
function attemptResult(outcome: WebhookHttpOutcome, retry: WebhookAttemptInput['retry']) {
  const { verdict, statusCode, error } = judge(outcome);
  let result: WebhookAttemptResult;
  let nextAttemptAt: Date | null = null;
  if (verdict === 'retry' && retry) {
    const asked = outcome.kind === 'response' ? parseRetryAfter(outcome.retryAfter, Date.now()) : undefined;
    const delay = Math.min(Math.max(retry.delaySeconds, asked ?? 0), retry.maxDelaySeconds);
    nextAttemptAt = new Date(Date.now() + delay * 1000);
    result = { outcome: 'retry', retryAfterSeconds: delay };
  } else {
    // A retryable failure on the last allowed attempt ends the delivery.
    result = { outcome: verdict === 'delivered' ? 'delivered' : 'give_up' };
  }
  if (statusCode !== null) result.statusCode = statusCode;
  if (error !== null) result.error = error;
  return { result, nextAttemptAt, statusCode, error };
}

function notFound(deliveryId: string): ApplicationFailure {
  return ApplicationFailure.retryable(
    `webhook delivery ${deliveryId} does not exist`,
    webhookDeliveryNotFound,
  );
}

/** Builds the webhook activities. */
export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  const db = deps.db.kysely;
  const timeoutMs = deps.webhooks.timeoutMs ?? 30_000;
  const userAgent = deps.webhooks.userAgent ?? webhookUserAgent;

  return {
    async describeWebhookDelivery({ deliveryId }: WebhookDeliveryInput): Promise<WebhookTarget> {
      const delivery = await findWebhookDelivery(db, deliveryId);
      if (!delivery) throw notFound(deliveryId);
      const { urlHost } = webhookMemo(delivery.event_type, delivery.url);
      const product = delivery.product_id ? await findProductById(db, delivery.product_id) : undefined;
      return {
        merchantId: delivery.merchant_id,
        productId: delivery.product_id,
        merchantWallet: product?.address ?? null,
        eventType: delivery.event_type,
        urlHost,
        status: delivery.status,
        attemptCount: delivery.attempt_count,
      };
    },

    async attemptWebhookDelivery({ deliveryId, attempt, retry, timeoutMs: answerMs }: WebhookAttemptInput) {
      const delivery = await findWebhookDelivery(db, deliveryId);
      if (!delivery) throw notFound(deliveryId);
      if (delivery.status === 'succeeded') return { outcome: 'delivered' };
      if (delivery.status === 'failed') {
        return { outcome: 'give_up', ...(delivery.last_error ? { error: delivery.last_error } : {}) };
      }
      // Attempt n of a delivery is one request: a retried activity or workflow task gets the first
      // request's result back instead of sending it again.
      const made = await performOnce(deps.db, `webhook:${deliveryId}:${attempt}`, timeoutMs + 30_000, () =>
        send(delivery, attempt, retry, answerMs),
      );
      // An attempt always ends with an outcome (an answer, or an error that is retried): never unknown.
      if ('outcomeUnknown' in made)
        throw new Error(`webhook attempt ${deliveryId}:${attempt} has no outcome`);
      return made.result;
    },
  };

  /**
   * Makes one signed HTTP request for the delivery and records it. The request may take the whole
   * configured timeout; a caller that cannot wait that long names `answerMs`: when the receiver has not
   * answered by then, the attempt answers `retry` at once, while the request goes on to its own timeout and
   * is recorded when it ends. The next attempt is then due only after that timeout, and finds the delivery
   * succeeded when the receiver took it: a slow receiver gets the event once.
   */
  async function send(
    delivery: NonNullable<Awaited<ReturnType<typeof findWebhookDelivery>>>,
    attempt: number,
    retry: WebhookAttemptInput['retry'],
    answerMs: number | undefined,
  ): Promise<WebhookAttemptResult> {
    const made = request(delivery, attempt, retry);
    if (answerMs === undefined || answerMs >= timeoutMs || !retry) return made;
    let timer: NodeJS.Timeout | undefined;
    const early = await Promise.race([
      made,
      new Promise<undefined>((r) => {
        timer = setTimeout(() => r(undefined), answerMs);
      }),
    ]).finally(() => clearTimeout(timer));
    if (early) return early;
    made.catch((error: unknown) =>
      log.warn('a webhook attempt that outlived its caller was not recorded', {
        deliveryId: delivery.id,
        attempt,
        error: String(error),
      }),
    );
    const delaySeconds = Math.min(
      Math.max(retry.delaySeconds, Math.ceil(timeoutMs / 1000) + 1),
      retry.maxDelaySeconds,
    );
    return {
      outcome: 'retry',
      retryAfterSeconds: delaySeconds,
      error: `no answer within ${answerMs} ms yet`,
    };
  }

  /** Makes one signed HTTP request for the delivery, within the configured timeout, and records it. */
  async function request(
    delivery: NonNullable<Awaited<ReturnType<typeof findWebhookDelivery>>>,
    attempt: number,
    retry: WebhookAttemptInput['retry'],
  ): Promise<WebhookAttemptResult> {
    const deliveryId = delivery.id;
    const [{ secret }, body] = await Promise.all([
      ensureWebhookSecret(db, deps.secrets, delivery.merchant_id),
      webhookRequestBody(db, deps.secrets, delivery),
      markWebhookDelivering(db, deliveryId),
    ]);

    const startedAt = new Date();
    const started = performance.now();
    // Signed at send time, so a retry days later still passes the receiver's freshness check.
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const signature = await signWebhook({ secret, timestamp, body });
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': userAgent,
      [webhookHeaderNames.signature]: webhookSignatureHeader(timestamp, signature),
      [webhookHeaderNames.id]: delivery.id,
      [webhookHeaderNames.event]: delivery.event_type,
      [webhookHeaderNames.eventId]: webhookEventId(delivery),
      [webhookHeaderNames.eventSequence]: String(delivery.event_sequence),
      ...(delivery.redelivery_of ? { [webhookHeaderNames.originalId]: delivery.redelivery_of } : {}),
      ...(isTestEvent(delivery) ? { [webhookHeaderNames.test]: 'true' } : {}),
    };
    const outcome = await sendWebhookRequest({
      url: delivery.url,
      headers,
      body,
      timeoutMs,
      allowPrivateAddresses: deps.webhooks.allowPrivateAddresses,
    });
    const durationMs = Math.round(performance.now() - started);
    const { result, nextAttemptAt, statusCode, error } = attemptResult(outcome, retry);

    await recordWebhookAttempt(db, {
      deliveryId,
      attempt,
      startedAt,
      durationMs,
      statusCode,
      error,
      responseSnippet: outcome.kind === 'response' ? outcome.snippet : null,
      status:
        result.outcome === 'delivered' ? 'succeeded' : result.outcome === 'retry' ? 'pending' : 'failed',
      nextAttemptAt,
    });
    if (result.outcome !== 'delivered') {
      log.info('webhook attempt failed', {
        deliveryId,
        attempt,
        outcome: result.outcome,
        statusCode,
        error,
      });
    }
    return result;
  }
}
