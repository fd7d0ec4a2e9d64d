/**
 * `checkoutSession`: one per expected payment. Waits for the shopper's transaction hash (an Update)
 * or finds the payment by scanning the chain, confirms it, records exactly one Resolved Payment and
 * hands it to webhook delivery and e-mail. Expiry stops new submissions but never drops a payment.
 */
import {
  CancellationScope,
  condition,
  isCancellation,
  log,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { failedStepMemo, finalFailureOf } from '../finalFailure.ts';
import { CheckoutStatus, MerchantId, ProductId } from '../shared.ts';
import { startDeliveryChild } from '../webhookDelivery/child.ts';
import {
  firstAttemptRetry,
  type WebhookActivities,
  type WebhookDeliveryInput,
} from '../webhookDelivery/shared.ts';
import type { CheckoutActivities } from './activities.ts';
import {
  type CheckoutResult,
  type CheckoutSessionInput,
  type CheckoutState,
  type CheckoutWorkflowStatus,
  checkoutRejections,
  checkoutStateQuery,
  submitTransactionUpdate,
  type TransactionFacts,
  transferSeenSignal,
} from './shared.ts';

// Short, idempotent database steps run as local activities: no extra round trip through the server.
const local = proxyLocalActivities<CheckoutActivities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

// The one look at a hash on arrival runs while the shopper's submission waits: briefly, and when the chain
// does not answer, the polling activity (which retries patiently) takes over.
const glance = proxyLocalActivities<CheckoutActivities>({
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '200 milliseconds', maximumAttempts: 2 },
});

// E-mails as a local activity: no round trip through the server; long outages back off on timers.
const localMail = proxyLocalActivities<CheckoutActivities>({
  startToCloseTimeout: '1 minute',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

const watching = proxyActivities<CheckoutActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// The merchant's first webhook attempt, made as soon as the payment is recorded. Its request is held to
// a shorter limit than later attempts: it runs before the shopper's submission is answered.
const hotWebhook = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', maximumAttempts: 2 },
});
const hotWebhookTimeoutMs = 3_000;

const hashPattern = /^0x[0-9a-fA-F]{64}$/;
const maxSubmissions = 10;

/** What the session says of a transaction it refused. */
function refusalMessage(
  facts: Extract<TransactionFacts, { status: 'not_found' | 'no_transfer' | 'refused' }>,
) {
  if (facts.status === 'not_found') return 'The transaction was not found on the chain';
  if (facts.status === 'no_transfer') return 'The transaction does not pay this checkout';
  return facts.reason === 'before_opening'
    ? 'The transaction was mined before this checkout opened'
    : "The transaction was not sent by this checkout's payer";
}

/** The checkout of one expected payment. */
export async function checkoutSession(input: CheckoutSessionInput): Promise<CheckoutResult> {
  let status: CheckoutWorkflowStatus = 'awaiting_payment';
  let txHash: string | null = null;
  let expired = false;
  let resolvedPaymentId: string | null = null;
  const rejected = new Set<string>();
  const state = (): CheckoutState => ({ status, txHash, expired, resolvedPaymentId });

  setHandler(checkoutStateQuery, state);
  setHandler(
    submitTransactionUpdate,
    (hash) => {
      txHash = hash.toLowerCase();
      return state();
    },
    {
      validator: (hash) => {
        if (typeof hash !== 'string' || !hashPattern.test(hash))
          throw new Error(checkoutRejections.malformed);
        const normalized = hash.toLowerCase();
        if (txHash === normalized) return;
        if (status === 'resolved' || status === 'failed') throw new Error(checkoutRejections.closed);
        if (expired) throw new Error(checkoutRejections.expired);
        if (txHash !== null) throw new Error(checkoutRejections.otherHash);
        if (rejected.has(normalized)) throw new Error(checkoutRejections.rejectedHash);
      },
    },
  );

  const setStatus = async (
    next: CheckoutWorkflowStatus,
    extra: { txHash?: string | null; error?: string | null } = {},
  ) => {
    status = next;
    upsertSearchAttributes([{ key: CheckoutStatus, value: next }]);
    await local.setSessionStatus({ sessionId: input.sessionId, status: next, ...extra });
  };

  // The chain's watcher says when it recorded a transfer this checkout may take.
  let sightings = 0;
  setHandler(transferSeenSignal, () => {
    sightings++;
  });

  /**
   * Waits for the payment among the transfers the chain's watcher records: looks once at once (what was
   * recorded before), then on every sighting, when a transfer's claim delay ends, and at the window's end.
   */
  const awaitRecordedPayment = async (): Promise<string | null> => {
    let looked = -1;
    let retryAt: number | null = null;
    for (;;) {
      const deadline = Math.min(retryAt ?? input.scanUntil, input.scanUntil);
      await condition(() => sightings !== looked, Math.max(deadline - Date.now(), 1));
      looked = sightings;
      const match = await local.matchPayment({
        sessionId: input.sessionId,
        chainId: input.chainId,
        exclude: [...rejected],
      });
      if (match.txHash) return match.txHash;
      retryAt = match.retryAt;
      if (retryAt === null && Date.now() >= input.scanUntil) return null;
    }
  };

  // Shoppers who close the tab never send the hash: while none is known, the checkout looks for their
  // transfer. `scanned` is the running look's result: undefined while it runs, a hash when it found one,
  // null when its window closed.
  let scanned: string | null | undefined;
  let scanScope: CancellationScope | undefined;
  let scanDone: Promise<void> = Promise.resolve();
  const startScan = () => {
    scanned = undefined;
    const scope = new CancellationScope();
    scanScope = scope;
    scanDone = scope
      .run(() => awaitRecordedPayment())
      .then(
        (found) => {
          scanned = found;
        },
        (error: unknown) => {
          if (!isCancellation(error)) throw error;
        },
      );
  };
  const stopScan = async () => {
    scanScope?.cancel();
    scanScope = undefined;
    await scanDone;
  };

  // A scan cannot claim a transfer before the claim delay anyway, so it starts only then: most
  // shoppers submit their hash first, and their checkout never scans at all.
  let scanStartAt: number | null = input.scanStartAt ?? null;
  if (scanStartAt === null || Date.now() >= scanStartAt) {
    scanStartAt = null;
    startScan();
  }

  for (let round = 0; round < maxSubmissions; round++) {
    while (txHash === null && scanned === undefined) {
      const woken = () => txHash !== null || scanned !== undefined;
      const deadlines: number[] = [];
      if (!expired && input.expiresAt !== null) deadlines.push(input.expiresAt);
      if (scanStartAt !== null) deadlines.push(scanStartAt);
      if (deadlines.length === 0) {
        // No timer left to run: wait for a hash or the scan's end only (`condition` without a
        // timeout resolves to nothing, so it must not be read as "timed out").
        await condition(woken);
        continue;
      }
      const woke = await condition(woken, Math.max(Math.min(...deadlines) - Date.now(), 1));
      if (woke) continue;
      if (scanStartAt !== null && Date.now() >= scanStartAt) {
        scanStartAt = null;
        startScan();
      }
      if (!expired && input.expiresAt !== null && Date.now() >= input.expiresAt) {
        expired = true;
        await setStatus('expired');
      }
    }
    if (txHash === null && typeof scanned === 'string') txHash = scanned;
    if (txHash === null) {
      // The scan window closed without a payment.
      if (!expired) {
        expired = true;
        await setStatus('expired');
      }
      return { status, resolvedPaymentId: null, webhookDeliveryId: null, late: false };
    }

    const hash: string = txHash;
    // One transaction at a time: the scan stops while it is checked (and resumes if it is rejected).
    scanStartAt = null;
    await stopScan();
    status = 'confirming';
    const target = { sessionId: input.sessionId, chainId: input.chainId, txHash: hash };
    // A hash usually arrives once its block is in: one look settles it without the polling activity
    // (and the workflow goes from awaiting payment straight to its outcome).
    let facts: Awaited<ReturnType<CheckoutActivities['checkTransaction']>> = null;
    try {
      facts = await glance.checkTransaction(target);
    } catch (error) {
      if (isCancellation(error)) throw error;
      // The chain did not answer: the session shows the hash confirming while the watch retries.
      await local.setSessionStatus({ sessionId: input.sessionId, status, txHash: hash, error: null });
    }
    if (!facts) {
      upsertSearchAttributes([{ key: CheckoutStatus, value: status }]);
      facts = await watching.awaitTransaction(target);
    }
    if (facts.status === 'not_found' || facts.status === 'no_transfer' || facts.status === 'refused') {
      rejected.add(hash);
      txHash = null;
      status = expired ? 'expired' : 'awaiting_payment';
      upsertSearchAttributes([{ key: CheckoutStatus, value: status }]);
      await local.refuseTransaction({ ...target, status, error: refusalMessage(facts) });
      if (Date.now() < input.scanUntil) startScan();
      else scanned = null;
      continue;
    }

    const late = input.expiresAt !== null && facts.blockTimestamp > input.expiresAt;
    let recorded: Awaited<ReturnType<CheckoutActivities['recordResolution']>>;
    try {
      recorded = await local.recordResolution({ sessionId: input.sessionId, txHash: hash, facts, late });
    } catch (error) {
      const final = finalFailureOf(error);
      if (!final) throw error;
      // The payment cannot be recorded (a value or rule the database refuses): noted on the session, in
      // the memo and the log; the checkout goes on and takes another transaction.
      const message = `The payment in ${hash} could not be recorded: ${final.message}`;
      log.error('a checkout step failed for good; the checkout goes on', {
        sessionId: input.sessionId,
        step: 'record payment',
        type: final.type,
      });
      upsertMemo({ [failedStepMemo]: { step: 'record payment', type: final.type, message } });
      rejected.add(hash);
      txHash = null;
      await setStatus(expired ? 'expired' : 'awaiting_payment', {
        txHash: null,
        error: message.slice(0, 500),
      });
      if (Date.now() < input.scanUntil) startScan();
      else scanned = null;
      continue;
    }
    resolvedPaymentId = recorded.resolvedPaymentId;
    status = facts.status === 'reverted' ? 'failed' : 'resolved';
    upsertSearchAttributes([{ key: CheckoutStatus, value: status }]);

    if (recorded.webhookDeliveryId) {
      const delivery: WebhookDeliveryInput = { deliveryId: recorded.webhookDeliveryId };
      try {
        const result = await hotWebhook.attemptWebhookDelivery({
          deliveryId: recorded.webhookDeliveryId,
          attempt: 1,
          retry: firstAttemptRetry(),
          timeoutMs: hotWebhookTimeoutMs,
        });
        delivery.madeAttempt = { attempt: 1, result };
      } catch (error) {
        if (isCancellation(error)) throw error;
        // The delivery workflow makes the first attempt itself.
      }
      // What the delivery would otherwise look up and set itself, for finding it in the Temporal UI.
      // The memo also gives the delivery its summary in the Temporal UI.
      await startDeliveryChild(delivery, {
        ...(delivery.madeAttempt
          ? {
              typedSearchAttributes: [
                { key: MerchantId, value: input.merchantId },
                { key: ProductId, value: input.productId },
              ],
            }
          : {}),
        ...(recorded.webhookMemo ? { memo: { ...recorded.webhookMemo } } : {}),
      });
    }
    try {
      await localMail.sendPaymentEmails({ resolvedPaymentId: recorded.resolvedPaymentId });
    } catch (error) {
      const final = finalFailureOf(error);
      if (!final) throw error;
      // The payment stands: only its e-mails failed for good (noted in the memo and the log).
      log.error('the payment e-mails failed for good', { sessionId: input.sessionId, type: final.type });
      upsertMemo({
        [failedStepMemo]: {
          step: 'e-mails',
          type: final.type,
          message: `The e-mails failed: ${final.message}`,
        },
      });
    }
    return { status, resolvedPaymentId, webhookDeliveryId: recorded.webhookDeliveryId, late };
  }
  return { status, resolvedPaymentId: null, webhookDeliveryId: null, late: false };
}
