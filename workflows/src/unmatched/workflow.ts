/**
 * `unmatchedTransfer`: one per unmatched transfer (id `unmatched-<id>`), started in the transaction that
 * records it. It e-mails the merchant once (the claim makes a retried task send nothing more); the webhook is
 * its own delivery, started beside it. The Temporal UI lists it with the amount, the kind and the sender.
 */
import { log, proxyLocalActivities } from '@temporalio/workflow';
import { finalFailureOf } from '../finalFailure.ts';
import type { UnmatchedActivities } from './activities.ts';
import type { UnmatchedTransferInput } from './shared.ts';

const mail = proxyLocalActivities<UnmatchedActivities>({
  startToCloseTimeout: '1 minute',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** Announces one unmatched transfer to its merchant. */
export async function unmatchedTransfer(input: UnmatchedTransferInput): Promise<{ sent: number }> {
  try {
    return await mail.sendUnmatchedTransferEmail(input);
  } catch (error) {
    const final = finalFailureOf(error);
    if (!final) throw error;
    log.error('the unmatched transfer e-mail failed for good', { ...input, type: final.type });
    return { sent: 0 };
  }
}
