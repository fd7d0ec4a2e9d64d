/** Messages and payload types of the `checkoutSession` workflow (amounts are decimal strings). */
import { ApplicationFailure, defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { WebhookMemo } from '../webhookDelivery/shared.ts';
import type { HashRefusal } from './matching.ts';

/** Input of `checkoutSession`; times are epoch milliseconds. */
export interface CheckoutSessionInput {
  sessionId: string;
  expectedPaymentId: string;
  productId: string;
  merchantId: string;
  chainId: number;
  /** When the shopper can no longer submit a transaction; null for products without a timer. */
  expiresAt: number | null;
  /** Until when the chain is scanned for a payment whose hash never arrived. */
  scanUntil: number;
  /** Set only by earlier versions: when their look started. New runs look at once. */
  scanStartAt?: number;
  /**
   * When the look first reads what was recorded before the run started, unless a sighting comes first (epoch
   * ms): a session with a payer's wallet, whose element sends the hash. Unset: at once.
   */
  firstReadAt?: number;
}

/** Where the session is, as the workflow sees it. */
export type CheckoutWorkflowStatus =
  | 'awaiting_payment'
  | 'confirming'
  | 'resolved'
  | 'failed'
  | 'expired'
  | 'closed';

/** What the status query returns. */
export interface CheckoutState {
  status: CheckoutWorkflowStatus;
  txHash: string | null;
  expired: boolean;
  resolvedPaymentId: string | null;
}

/** Result of `checkoutSession`. */
export interface CheckoutResult {
  status: CheckoutWorkflowStatus;
  resolvedPaymentId: string | null;
  webhookDeliveryId: string | null;
  late: boolean;
}

/** Facts of a mined transaction, as the chain reported them (amounts are base units, as strings). */
export type TransactionFacts =
  | { status: 'not_found' }
  | { status: 'no_transfer'; from: string }
  /** Mined, but not this session's to take: another payer's, or from before the session opened. */
  | { status: 'refused'; from: string; reason: HashRefusal }
  | {
      status: 'confirmed' | 'reverted';
      from: string;
      blockNumber: string;
      /** The including block's hash: a reorganisation that drops it is noticed by it. */
      blockHash: string;
      /** Epoch milliseconds of the including block. */
      blockTimestamp: number;
      receivedToken: string | null;
      receivedAmount: string;
      logIndex: number;
      swapped: boolean;
      amountDifference: string;
    };

/** Outcome of recording a resolution. */
export interface RecordedResolution {
  resolvedPaymentId: string;
  webhookDeliveryId: string | null;
  /** The delivery workflow's memo, set when the checkout starts it. */
  webhookMemo?: WebhookMemo;
}

/** Submits the shopper's transaction hash; rejected when expired, malformed or a different hash was sent. */
export const submitTransactionUpdate = defineUpdate<CheckoutState, [string]>('submitTransaction');

/** Tells a checkout that the chain's watcher recorded a transfer it may take (it reads what is recorded). */
export const transferSeenSignal = defineSignal<[]>('transferSeen');

/** Tells a checkout its attempt was closed (given up or superseded): it ends, having taken nothing. */
export const checkoutClosedSignal = defineSignal<[]>('checkoutClosed');

/**
 * The merchant attached a transfer recorded as unmatched to this checkout: it is checked and recorded as the
 * checkout's payment, without the payer's rules (the merchant knows whose it is).
 */
export const attachTransferSignal = defineSignal<[string]>('attachTransfer');

/**
 * The sandbox's "expire now" (test networks only): the checkout expires at the given moment (epoch ms, now)
 * as its timer would expire it, and a payment mined after it is late. Answered once the session is expired.
 */
export const expireNowUpdate = defineUpdate<CheckoutState, [number]>('expireNow');

/** The session's status. */
export const checkoutStateQuery = defineQuery<CheckoutState>('checkoutState');

/** Workflow id of an expected payment's checkout: a business key, so a retry never starts a second one. */
export function checkoutWorkflowId(expectedPaymentId: string): string {
  return `checkout-${expectedPaymentId}`;
}

/** Update rejections: the type of the failure the Update's validator throws, matched by the API layer. */
export const checkoutRejections = {
  expired: 'checkout_expired',
  malformed: 'tx_hash_malformed',
  otherHash: 'tx_already_submitted',
  rejectedHash: 'tx_rejected',
  closed: 'checkout_closed',
  paid: 'checkout_already_paid',
} as const;

/** The failure that rejects a hash submission, of type `code`. */
export function checkoutRejection(code: (typeof checkoutRejections)[keyof typeof checkoutRejections]) {
  return ApplicationFailure.create({
    type: code,
    message: `the transaction was refused: ${code}`,
    nonRetryable: true,
  });
}
