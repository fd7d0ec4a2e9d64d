/**
 * Refunds as the merchant API, the hosted pages and webhooks show them (wire shapes). The merchant's wallet
 * pays a refund; the service asks the customer for an address, hands the merchant an exact payment request
 * and recognises the transfer on the chain.
 */
import { z } from 'zod';
import { CheckedAddress, namedObject, Timestamp, timeWindow, Uuid } from './common.ts';
import { PaymentToken } from './product.ts';

/**
 * Where a refund stands: waiting for the customer's address, waiting for the merchant's transfer, sent (its
 * transaction seen), confirmed; or canceled by the merchant, or expired unclaimed.
 */
export const refundStatuses = [
  'awaiting_address',
  'ready_to_pay',
  'sent',
  'confirmed',
  'canceled',
  'expired',
] as const;
type RefundStatus = (typeof refundStatuses)[number];

/** Statuses whose amount counts against what the payment received (a refund still on its way, or paid). */
export const standingRefundStatuses = [
  'awaiting_address',
  'ready_to_pay',
  'sent',
  'confirmed',
] as const satisfies readonly RefundStatus[];

/** Who gave the refund's address. */
const refundAddressSources = ['merchant', 'customer'] as const;

/** A token amount in token units: a positive decimal string. */
const TokenAmount = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal number, e.g. 12.5');

/** The transaction that pays a refund: an ERC-20 `transfer` from the receiving wallet. */
const RefundTransaction = namedObject('RefundTransaction', {
  chain_id: z.number().int(),
  /** The receiving wallet that pays it. */
  from: z.string(),
  /** The token contract. */
  to: z.string(),
  /** `transfer(refund_address, amount_base_units)`, ABI-encoded. */
  data: z.string(),
  value: z.literal('0'),
});

/** The exact payment a refund asks the merchant's wallet for. */
export const RefundPaymentRequest = namedObject('RefundPaymentRequest', {
  /** EIP-681: `ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<base units>`. */
  uri: z.string(),
  transaction: RefundTransaction,
});
export type RefundPaymentRequest = z.infer<typeof RefundPaymentRequest>;

/** What the transfers recorded against a refund add up to, what is still due and what went above it. */
const refundPaid = {
  /**
   * What the transfers from the receiving wallet to the refund address add up to so far, in token units: a
   * transfer of another amount is recorded against the refund too ("0" before any).
   */
  paid_amount: z.string(),
  /** What is still to send, in token units ("0" once paid in full): a part payment leaves the rest due. */
  amount_due: z.string(),
  /** What was sent above the amount, in token units, when more was sent; null otherwise. */
  overpaid_amount: z.string().nullable(),
};

/** A refund of a resolved payment or of an unmatched transfer. */
export const Refund = namedObject('Refund', {
  id: Uuid,
  status: z.enum(refundStatuses),
  /** The resolved payment it refunds, or null for an unmatched transfer's refund. */
  resolved_payment_id: Uuid.nullable(),
  /** The unmatched transfer it refunds, or null. */
  unmatched_transfer_id: Uuid.nullable(),
  product_id: Uuid.nullable(),
  chain_id: z.number().int(),
  token: PaymentToken,
  /** True on a test network: no real money moves (as a Resolved Payment's `is_test`). */
  is_test: z.boolean(),
  /** In token units (a decimal string). */
  amount: z.string(),
  /** The same amount in the token's base units (an integer string). */
  amount_base_units: z.string(),
  reason: z.string(),
  /** Where it goes (checksummed); null until the customer claims it. */
  refund_address: z.string().nullable(),
  address_source: z.enum(refundAddressSources).nullable(),
  /** The receiving wallet that pays it (checksummed). */
  from_address: z.string(),
  /** The hosted page where the customer gives an address, while the refund waits for one. */
  claim_url: z.string().nullable(),
  /** Until when the customer may claim it. */
  claim_expires_at: Timestamp,
  /** The hosted page where the merchant pays it, once its address is known. */
  pay_url: z.string().nullable(),
  ...refundPaid,
  /** The exact transfer to make (what is still due), once its address is known. */
  payment_request: RefundPaymentRequest.nullable(),
  /** The transaction that paid it, once seen on the chain. */
  tx_hash: z.string().nullable(),
  /** Why the merchant canceled it, when they said (`POST /api/v1/refunds/:id/cancel {"reason": …}`). */
  cancel_reason: z.string().nullable(),
  sent_at: Timestamp.nullable(),
  confirmed_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Refund = z.infer<typeof Refund>;

export const RefundResponse = namedObject('RefundResponse', { refund: Refund });
export const RefundListResponse = namedObject('RefundListResponse', { refunds: z.array(Refund) });

/**
 * Body of POST /api/v1/resolved_payments/:id/refunds and /api/v1/unmatched_transfers/:id/refunds. Without
 * `amount` the whole received amount is refunded; `overpaid` refunds what a resolved payment received above
 * its price. Without `refund_address` the customer is e-mailed a claim link (to `email`, else the payment's
 * customer).
 */
export const RefundRequestBody = namedObject('RefundRequestBody', {
  amount: z.union([TokenAmount, z.literal('overpaid')]).optional(),
  reason: z.string().trim().min(1).max(500),
  refund_address: CheckedAddress.optional(),
  /**
   * True to send the refund to a contract (`refund_address` has code on the chain): refused otherwise, since
   * a contract that is not a wallet may never pass the tokens on.
   */
  allow_contract: z.boolean().optional(),
  email: z.email().max(254).optional(),
});
export type RefundRequestBody = z.infer<typeof RefundRequestBody>;

/** Body of POST /api/v1/refunds/:id/cancel, which may be sent empty: why, for the customer to read. */
export const RefundCancelBody = namedObject('RefundCancelBody', {
  reason: z.string().trim().min(1).max(500).optional(),
});

/**
 * The order a refund gives money back for, as the refund pages name it: the product (the shop's business
 * name), the resolved payment's dollar amount and what the customer sent, in which token and when.
 */
const RefundedOrder = namedObject('RefundedOrder', {
  /** The product's name (its business name), or the merchant's name without a product; null when neither. */
  shop_name: z.string().nullable(),
  /** The resolved payment refunded, or null for an unmatched transfer. */
  resolved_payment_id: Uuid.nullable(),
  /** The order's price in USD (a decimal string), or null for an unmatched transfer. */
  dollar_amount: z.string().nullable(),
  /** What the customer sent (token units) and in which token: a swap may have paid in another token. */
  paid_amount: z.string(),
  paid_token_symbol: z.string(),
  paid_at: Timestamp,
});

/** Query of GET /api/v1/refunds. */
export const RefundQuery = namedObject('RefundQuery', {
  status: z.enum(refundStatuses).optional(),
  ...timeWindow,
});

/** A transfer from the receiving wallet to the refund address, as the refund pages list it. */
const RefundPartPayment = namedObject('RefundPartPayment', {
  tx_hash: z.string(),
  /** In token units (a decimal string). */
  amount: z.string(),
  /** When the service saw it on the chain. */
  seen_at: Timestamp,
});

/** The transfers that paid a refund so far, as both refund pages show them, and what they add up to. */
const refundPaidSoFar = {
  ...refundPaid,
  /**
   * Each transfer from the receiving wallet to the refund address recorded against the refund, in chain
   * order: part payments of another amount, and the transfer that completed it (also its `tx_hash`).
   */
  part_payments: z.array(RefundPartPayment),
};

/** What the customer's claim page shows (GET /api/v1/refund_claims/:token). */
export const RefundClaim = namedObject('RefundClaim', {
  status: z.enum(refundStatuses),
  merchant_name: z.string().nullable(),
  product_name: z.string().nullable(),
  chain_id: z.number().int(),
  token: PaymentToken,
  amount: z.string(),
  reason: z.string(),
  /** The receipt language of the customer: `en`, `es` or `pt`. */
  locale: z.string(),
  refund_address: z.string().nullable(),
  claim_expires_at: Timestamp,
  tx_hash: z.string().nullable(),
  /** The order refunded; null when the payment or transfer can no longer be read. */
  order: RefundedOrder.nullable(),
  /** Why the merchant canceled it, when they said. */
  cancel_reason: z.string().nullable(),
  /** Where the customer reaches the merchant (the product's e-mail), when known. */
  merchant_contact: z.string().nullable(),
  ...refundPaidSoFar,
});
export type RefundClaim = z.infer<typeof RefundClaim>;
export const RefundClaimResponse = namedObject('RefundClaimResponse', { refund_claim: RefundClaim });

/** Body of POST /api/v1/refund_claims/:token: the address the customer gives. */
export const RefundClaimBody = namedObject('RefundClaimBody', { refund_address: CheckedAddress });

/** What the merchant's pay page shows (GET /api/v1/refund_payments/:token). */
export const RefundPayment = namedObject('RefundPayment', {
  status: z.enum(refundStatuses),
  chain_id: z.number().int(),
  token: PaymentToken,
  amount: z.string(),
  amount_base_units: z.string(),
  reason: z.string(),
  from_address: z.string(),
  refund_address: z.string().nullable(),
  ...refundPaid,
  payment_request: RefundPaymentRequest.nullable(),
  tx_hash: z.string().nullable(),
  /** Why the merchant canceled it, when they said. */
  cancel_reason: z.string().nullable(),
});
export type RefundPayment = z.infer<typeof RefundPayment>;

/** What the merchant's pay page shows: the payment, and the order it refunds (GET /api/v1/refund_payments/:token). */
export const RefundPaymentView = namedObject('RefundPaymentView', {
  ...RefundPayment.shape,
  /** The order refunded; null when the payment or transfer can no longer be read. */
  order: RefundedOrder.nullable(),
  part_payments: refundPaidSoFar.part_payments,
});
export type RefundPaymentView = z.infer<typeof RefundPaymentView>;
export const RefundPaymentResponse = namedObject('RefundPaymentResponse', {
  refund_payment: RefundPaymentView,
});
