/**
 * `webhookDelivery`: sends one delivery row until the receiver accepts it, it refuses it for good, or
 * three days pass. The waits are durable timers here, so every attempt is its own recorded activity.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  upsertMemo,
} from '@temporalio/workflow';
import { MerchantId, MerchantWallet, merchantWallet, ProductId } from '../shared.ts';
import { ownMemo, showStatus } from '../showStatus.workflow.ts';
import { type WebhookShownState, webhookStatus } from '../summaries.ts';
import {
  type WebhookActivities,
  type WebhookAttemptResult,
  type WebhookDeliveryInput,
  type WebhookDeliveryResult,
  webhookDeliveryNotFound,
  webhookRetryDelaySeconds,
  webhookRetrySchedule,
} from './shared.ts';

// Retries here cover infrastructure only (database down, worker lost); HTTP failures are outcomes.
const retry = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  maximumAttempts: 8,
};
// Above the longest request `WEBHOOK_TIMEOUT_SECONDS` allows (60 s) and the recording around it, so a slow
// receiver's attempt is recorded, not cut off (a cut-off attempt would be made again).
const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '2 minutes',
  retry,
});

// The first look and the first attempt run as local activities, in the workflow's first task: the
// merchant hears of a payment without waiting for the server to hand out activity tasks. Later attempts
// are ordinary activities, each its own event in the history.
const firstSteps = proxyLocalActivities<WebhookActivities>({
  // Above the HTTP request's own limit (`WEBHOOK_TIMEOUT_SECONDS`, at most 60 s), as above.
  startToCloseTimeout: '90 seconds',
  localRetryThreshold: '10 seconds',
  retry,
});

function isMissingDelivery(error: unknown): boolean {
  // Local activities fail with the activity's own failure; ordinary ones wrap it in an ActivityFailure.
  const failure = error instanceof ActivityFailure ? error.cause : error;
  return failure instanceof ApplicationFailure && failure.type === webhookDeliveryNotFound;
}

/** Delivers one webhook with exponential backoff; see {@link webhookRetrySchedule}. */
export async function webhookDelivery({
  deliveryId,
  madeAttempt,
}: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const startedAt = Date.now();
  const show = (state: WebhookShownState, attributes: SearchAttributeUpdatePair[] = []) =>
    showStatus(webhookStatus(ownMemo(), state), attributes);
  const done = (
    status: WebhookDeliveryResult['status'],
    attempts: number,
    {
      lastError,
      attributes,
    }: { lastError?: string | undefined; attributes?: SearchAttributeUpdatePair[] } = {},
  ): WebhookDeliveryResult => {
    show({ phase: status === 'succeeded' ? 'delivered' : status, attempts, lastError }, attributes);
    return { deliveryId, status, attempts, startedAt, finishedAt: Date.now() };
  };
  /** An attempt failed and the next is made `waitMs` from now. */
  const failing = (attempts: number, waitMs: number, lastError: string | undefined) =>
    show({ phase: 'failing', attempts, lastError, nextAttemptAt: Date.now() + waitMs });

  let attempt: number;
  if (madeAttempt) {
    // The caller made the first attempt and started this workflow with its search attributes and memo.
    const { outcome, error } = madeAttempt.result;
    if (outcome === 'delivered') return done('succeeded', madeAttempt.attempt);
    if (outcome === 'give_up') return done('failed', madeAttempt.attempt, { lastError: error });
    attempt = madeAttempt.attempt;
  } else {
    let target: Awaited<ReturnType<WebhookActivities['describeWebhookDelivery']>>;
    try {
      target = await firstSteps.describeWebhookDelivery({ deliveryId });
    } catch (error) {
      if (isMissingDelivery(error)) return done('missing', 0);
      throw error;
    }
    const attributes: SearchAttributeUpdatePair[] = [{ key: MerchantId, value: target.merchantId }];
    if (target.productId) attributes.push({ key: ProductId, value: target.productId });
    if (target.merchantWallet) {
      attributes.push({ key: MerchantWallet, value: merchantWallet(target.merchantWallet) });
    }
    upsertMemo({ eventType: target.eventType, urlHost: target.urlHost });
    attempt = target.attemptCount;
    if (target.status === 'succeeded' || target.status === 'failed') {
      return done(target.status, attempt, { attributes });
    }
    show({ phase: attempt === 0 ? 'sending' : 'failing', attempts: attempt }, attributes);
  }

  const { firstDelaySeconds, horizonSeconds, maxAttempts } = webhookRetrySchedule;
  const horizonEnd = startedAt + horizonSeconds * 1000;
  // The caller's attempt asked for a retry: its backoff runs here before this workflow's first attempt.
  const waitFirst = madeAttempt?.result.outcome === 'retry' ? (madeAttempt.result.retryAfterSeconds ?? 0) : 0;
  if (madeAttempt) failing(attempt, Math.min(waitFirst, horizonSeconds) * 1000, madeAttempt.result.error);
  if (waitFirst > 0) await sleep(Math.min(waitFirst, horizonSeconds) * 1000);
  for (let run = 1; run <= maxAttempts; run++) {
    attempt += 1;
    const remainingSeconds = Math.floor((horizonEnd - Date.now()) / 1000);
    const backoff = webhookRetryDelaySeconds(attempt);
    const retry =
      run < maxAttempts && remainingSeconds >= firstDelaySeconds
        ? { delaySeconds: Math.min(backoff, remainingSeconds), maxDelaySeconds: remainingSeconds }
        : null;
    let result: WebhookAttemptResult;
    try {
      const attemptOnce =
        run === 1 && !madeAttempt ? firstSteps.attemptWebhookDelivery : attemptWebhookDelivery;
      result = await attemptOnce({ deliveryId, attempt, retry });
    } catch (error) {
      if (isMissingDelivery(error)) return done('missing', attempt - 1);
      // The infrastructure stayed down through the activity's retries: wait like for a failed attempt.
      if (!retry) throw error;
      result = {
        outcome: 'retry',
        retryAfterSeconds: retry.delaySeconds,
        error: 'the attempt could not be made',
      };
    }
    if (result.outcome === 'delivered') return done('succeeded', attempt);
    if (result.outcome === 'give_up' || !retry) return done('failed', attempt, { lastError: result.error });
    const wait = Math.min(
      Math.max(result.retryAfterSeconds ?? retry.delaySeconds, retry.delaySeconds),
      retry.maxDelaySeconds,
    );
    failing(attempt, wait * 1000, result.error);
    await sleep(wait * 1000);
  }
  return done('failed', attempt);
}
