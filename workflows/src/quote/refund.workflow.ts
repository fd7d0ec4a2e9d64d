/**
 * The quote's own refunds (workflow side): looks at the deposit address for tokens no payout uses and
 * returns them from the treasury, one refund at a time (treasury sends are serialised anyway), again while
 * transfers are too recent to count or new ones are reported.
 */
import { sleep } from '@temporalio/workflow';
import { startDeliveryChild } from '../webhookDelivery/child.workflow.ts';
import { activities, notify, type QuoteRun } from './run.workflow.ts';

// Looks at the deposit address while transfers into it are too recent to count, and the pause between.
const rescans = 20;
const rescanDelay = '30 seconds';

/** Sends one refund from the treasury and waits until its transfer is final; false on handover. */
async function refundOne(run: QuoteRun, refundId: string): Promise<boolean> {
  if (!run.budget()) return false;
  let step = await notify(await activities.sendQuoteRefund({ refundId }));
  for (let checks = 0; step.status === 'pending'; checks++) {
    await sleep(checks < 20 ? '500 milliseconds' : '5 seconds');
    if (!run.budget()) return false;
    step = await notify(await activities.checkQuoteRefund({ refundId }));
  }
  return true;
}

/** Finds and returns what no payout uses; false on handover. */
export async function findAndRefund(run: QuoteRun): Promise<boolean> {
  for (let looks = 1; ; looks++) {
    run.reported = false;
    if (!run.budget()) return false;
    const scan = await activities.findQuoteRefunds({
      quoteId: run.input.quoteId,
      reported: [...run.reportedHashes],
    });
    for (const id of scan.webhookDeliveryIds) await startDeliveryChild(id);
    for (const id of scan.pending) if (!(await refundOne(run, id))) return false;
    if (run.reported) continue;
    if (!scan.unconfirmed || looks >= rescans) return true;
    await sleep(rescanDelay);
  }
}
