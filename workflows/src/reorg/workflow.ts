/**
 * `paymentReorg`: one per resolved payment and block a reorganisation took away (started in the transaction
 * that records it). It e-mails the merchant once; the webhook is its own delivery, started beside it.
 */
import { log, proxyLocalActivities } from '@temporalio/workflow';
import { localMailOptions, unlessFinal } from '../finalFailure.ts';
import type { ReorgActivities } from './activities.ts';
import type { PaymentReorgInput } from './shared.ts';

const mail = proxyLocalActivities<ReorgActivities>(localMailOptions);

/** Tells the merchant what a reorganisation did to one of their payments. */
export async function paymentReorg(input: PaymentReorgInput): Promise<{ sent: number }> {
  return unlessFinal(
    () => mail.sendReorgEmail(input),
    (final) => {
      log.error('the reorganisation e-mail failed for good', { ...input, type: final.type });
      return { sent: 0 };
    },
  );
}
