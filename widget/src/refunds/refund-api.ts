/** The public refund API as the hosted refund pages call it. */
import type { RefundClaim, RefundPaymentView as RefundPayment } from '@checkout/core';
import { callApi } from '../api.ts';

export type { RefundClaim, RefundPayment };

/** What the API answers, by the refund it names. */
type Answers = { refund_claim: RefundClaim; refund_payment: RefundPayment };

/** Calls of the public refund API relative to one base URL (the page's origin when empty). */
export class RefundApi {
  readonly base: string;
  constructor(base: string) {
    this.base = base.replace(/\/+$/, '');
  }

  /** What the customer's claim page shows. */
  claim(token: string): Promise<RefundClaim> {
    return this.call('refund_claim', token);
  }

  /** Gives the customer's address; the refund is then ready for the merchant to pay. */
  submitClaim(token: string, refundAddress: string): Promise<RefundClaim> {
    return this.call('refund_claim', token, { refund_address: refundAddress });
  }

  /** What the merchant's pay page shows, with the exact payment request once the address is known. */
  payment(token: string): Promise<RefundPayment> {
    return this.call('refund_payment', token);
  }

  /** Reads (or, with a body, posts to) the refund claim or payment of a page token. */
  private async call<K extends keyof Answers>(key: K, token: string, body?: object): Promise<Answers[K]> {
    const path = `/${key}s/${encodeURIComponent(token)}`;
    return (await callApi<Pick<Answers, K>>(this.base, path, body))[key];
  }
}
