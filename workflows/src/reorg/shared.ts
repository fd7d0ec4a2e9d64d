/** Names and types of the `paymentReorg` workflow (safe in the workflow sandbox). */

/** What a reorganisation did to a resolved payment. */
type ReorgOutcome = 'reversed' | 'moved';

/** Input of `paymentReorg`: the payment and what happened to it. */
export interface PaymentReorgInput {
  resolvedPaymentId: string;
  outcome: ReorgOutcome;
  /** The block that holds it now (moved), or the block it was in (reversed). */
  blockNumber: string;
  blockHash: string;
}

/** One workflow per payment and block it left: `reorg-<payment>-<block hash>`. */
export function paymentReorgWorkflowId(
  input: Pick<PaymentReorgInput, 'resolvedPaymentId' | 'blockHash'>,
): string {
  return `reorg-${input.resolvedPaymentId}-${input.blockHash}`;
}
