/**
 * `quoteLifecycle`: one per executed quote (id `quote-<id>`). Moves each offramp through
 * `pending_internal_assessment → sending_fiat → fiat_sent` (or `bounced` / `failed`) with the payout
 * partner, in parallel, then marks the quote completed. Each change carries an `offramp_update` webhook.
 */
import {
  ParentClosePolicy,
  proxyActivities,
  sleep,
  startChild,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { AccountId, QuoteStatus, UserId } from '../shared.ts';
import { webhookWorkflowId } from '../webhookDelivery/shared.ts';
import { webhookDelivery } from '../webhookDelivery/workflow.ts';
import type { OfframpStep, QuoteActivities, QuoteLifecycleInput, QuoteLifecycleResult } from './shared.ts';

const activities = proxyActivities<QuoteActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** The payouts of one executed quote. */
export async function quoteLifecycle(input: QuoteLifecycleInput): Promise<QuoteLifecycleResult> {
  upsertSearchAttributes([
    { key: AccountId, value: input.merchantId },
    { key: UserId, value: input.userId },
  ]);

  const notify = async (step: OfframpStep): Promise<string> => {
    if (step.webhookDeliveryId) {
      await startChild(webhookDelivery, {
        workflowId: webhookWorkflowId(step.webhookDeliveryId),
        args: [{ deliveryId: step.webhookDeliveryId }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    }
    return step.status;
  };

  const start = await activities.beginQuotePayouts({ quoteId: input.quoteId });
  upsertSearchAttributes([{ key: QuoteStatus, value: start.quoteStatus }]);
  for (const step of start.offramps) await notify(step);

  const payout = async (offrampId: string, status: string): Promise<{ id: string; status: string }> => {
    let current = status;
    if (current === 'pending_internal_assessment') {
      const submitted = await activities.submitOfframpPayout({ offrampId });
      current = await notify(submitted);
      if (current === 'sending_fiat' && submitted.settleAfterMs > 0) await sleep(submitted.settleAfterMs);
    }
    if (current === 'sending_fiat')
      current = await notify(await activities.settleOfframpPayout({ offrampId }));
    return { id: offrampId, status: current };
  };
  const offramps =
    start.quoteStatus === 'executed'
      ? await Promise.all(start.offramps.map((o) => payout(o.offrampId, o.status)))
      : start.offramps.map((o) => ({ id: o.offrampId, status: o.status }));

  const { quoteStatus } = await activities.completeQuote({ quoteId: input.quoteId });
  upsertSearchAttributes([{ key: QuoteStatus, value: quoteStatus }]);
  return { quoteId: input.quoteId, status: quoteStatus, offramps };
}
