/** Names and types of the `refund` workflow (safe in the workflow sandbox). */
import { defineSignal } from '@temporalio/workflow';

/** Input of `refund`. */
export interface RefundInput {
  refundId: string;
}

/** The workflow id of a refund. */
export function refundWorkflowId(refundId: string): string {
  return `refund-${refundId}`;
}

/** A refund's row changed (address given, canceled, transfer seen): the workflow reads it again. */
export const refundChangedSignal = defineSignal('refundChanged');

/** The sandbox's "expire now" (test networks only): a refund awaiting its address expires as its timer would. */
export const refundExpireNowSignal = defineSignal('refundExpireNow');
