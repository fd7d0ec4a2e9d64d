/** The public refund API as the hosted refund pages call it. */
import type { RefundClaim, RefundPayment } from '@checkout/core';
import { callApi } from '../api.ts';

export type { RefundClaim, RefundPayment };

/** Calls of the public refund API relative to one base URL (the page's origin when empty). */
export class RefundApi {
  readonly base: string;
  constructor(base: string) {
    this.base = base.replace(/\/+$/, '');
  }

  /** What the customer's claim page shows. */
  async claim(token: string): Promise<RefundClaim> {
    return (
      await callApi<{ refund_claim: RefundClaim }>(
        this.base,
        'GET',
        `/refund_claims/${encodeURIComponent(token)}`,
      )
    ).refund_claim;
  }

  /** Gives the customer's address; the refund is then ready for the merchant to pay. */
  async submitClaim(token: string, refundAddress: string): Promise<RefundClaim> {
    return (
      await callApi<{ refund_claim: RefundClaim }>(
        this.base,
        'POST',
        `/refund_claims/${encodeURIComponent(token)}`,
        { refund_address: refundAddress },
      )
    ).refund_claim;
  }

  /** What the merchant's pay page shows, with the exact payment request once the address is known. */
  async payment(token: string): Promise<RefundPayment> {
    return (
      await callApi<{ refund_payment: RefundPayment }>(
        this.base,
        'GET',
        `/refund_payments/${encodeURIComponent(token)}`,
      )
    ).refund_payment;
  }
}
