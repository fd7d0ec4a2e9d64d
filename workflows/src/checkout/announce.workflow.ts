/**
 * What follows a recorded payment (workflow code): the merchant's first webhook attempt at once, the
 * delivery's own workflow for the rest, and the payment's e-mails. Each effect is claimed before it is made.
 */
import { isCancellation, log, upsertMemo } from '@temporalio/workflow';
import { failedStepMemo, unlessFinal } from '../finalFailure.ts';
import { MerchantId, ProductId } from '../shared.ts';
import { startDeliveryChild } from '../webhookDelivery/child.workflow.ts';
import { firstAttemptRetry, type WebhookDeliveryInput } from '../webhookDelivery/shared.ts';
import { hotWebhook, hotWebhookTimeoutMs, localMail } from './proxies.workflow.ts';
import type { CheckoutSessionInput, RecordedResolution } from './shared.ts';

/** Sends the recorded payment's webhook (first attempt here, the rest by its delivery) and e-mails. */
export async function announceResolution(
  input: CheckoutSessionInput,
  recorded: RecordedResolution,
): Promise<void> {
  if (recorded.webhookDeliveryId) await deliverWebhook(input, recorded);
  // The payment stands when only its e-mails failed for good (noted in the memo and the log).
  await unlessFinal(
    () => localMail.sendPaymentEmails({ resolvedPaymentId: recorded.resolvedPaymentId }),
    (final) => {
      log.error('the payment e-mails failed for good', { sessionId: input.sessionId, type: final.type });
      const message = `The e-mails failed: ${final.message}`;
      upsertMemo({ [failedStepMemo]: { step: 'e-mails', type: final.type, message } });
    },
  );
}

async function deliverWebhook(input: CheckoutSessionInput, recorded: RecordedResolution): Promise<void> {
  const deliveryId = recorded.webhookDeliveryId as string;
  const delivery: WebhookDeliveryInput = { deliveryId };
  try {
    const result = await hotWebhook.attemptWebhookDelivery({
      deliveryId,
      attempt: 1,
      retry: firstAttemptRetry(),
      timeoutMs: hotWebhookTimeoutMs,
    });
    delivery.madeAttempt = { attempt: 1, result };
  } catch (error) {
    if (isCancellation(error)) throw error;
    // The delivery workflow makes the first attempt itself.
  }
  // What the delivery would otherwise look up and set itself, for finding it in the Temporal UI. The memo
  // also gives the delivery its summary in the Temporal UI.
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
