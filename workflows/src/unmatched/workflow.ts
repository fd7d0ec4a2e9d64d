/**
 * `unmatchedTransfer`: one per unmatched transfer (id `unmatched-<id>`), started in the transaction that
 * records it. It e-mails the merchant once, in a batch with the other transfers waiting for an e-mail to that
 * recipient (the claim makes a retried task send nothing more); the webhook is its own delivery, started
 * beside it. The Temporal UI lists it with the amount, the kind and the sender.
 */
import { log, proxyLocalActivities, sleep } from '@temporalio/workflow';
import { localMailOptions, unlessFinal } from '../finalFailure.ts';
import type { UnmatchedActivities } from './activities.ts';
import type { UnmatchedTransferInput } from './shared.ts';

const mail = proxyLocalActivities<UnmatchedActivities>(localMailOptions);

/**
 * Announces one unmatched transfer to its merchant: in the next batch of e-mails to its recipient, waiting
 * while the last batch is too recent (at most one a recipient per interval).
 */
export async function unmatchedTransfer(input: UnmatchedTransferInput): Promise<{ sent: number }> {
  return unlessFinal(
    async () => {
      for (;;) {
        const result = await mail.sendUnmatchedTransferEmail(input);
        if (!result.waitMs) return { sent: result.sent };
        await sleep(result.waitMs);
      }
    },
    (final) => {
      log.error('the unmatched transfer e-mail failed for good', { ...input, type: final.type });
      return { sent: 0 };
    },
  );
}
