/**
 * `unmatchedTransfer`: one per unmatched transfer (id `unmatched-<id>`), started in the transaction that
 * records it. It e-mails the merchant once (the claim makes a retried task send nothing more); the webhook is
 * its own delivery, started beside it. The Temporal UI lists it with the amount, the kind and the sender.
 */
import { log, proxyLocalActivities } from '@temporalio/workflow';
import { localMailOptions, unlessFinal } from '../finalFailure.ts';
import type { UnmatchedActivities } from './activities.ts';
import type { UnmatchedTransferInput } from './shared.ts';

const mail = proxyLocalActivities<UnmatchedActivities>(localMailOptions);

/** Announces one unmatched transfer to its merchant. */
export async function unmatchedTransfer(input: UnmatchedTransferInput): Promise<{ sent: number }> {
  return unlessFinal(
    () => mail.sendUnmatchedTransferEmail(input),
    (final) => {
      log.error('the unmatched transfer e-mail failed for good', { ...input, type: final.type });
      return { sent: 0 };
    },
  );
}
