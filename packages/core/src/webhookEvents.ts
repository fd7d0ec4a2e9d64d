/**
 * Every webhook event the service sends, in one union: a delivery's `event_type` and its body's `event`.
 * `resolved_payment.created` goes to a product's `webhook_url` (Area A); the others to the account's endpoint
 * (Area B, `PUT /webhook_endpoint`).
 */
export const webhookEvents = {
  /** A checkout payment was resolved (spec: the resolved payment). */
  resolvedPaymentCreated: 'resolved_payment.created',
  /**
   * A resolved payment changed: a top-up attached, or a reorganisation moved its transaction to another block
   * (an extension; the same body as `created`).
   */
  resolvedPaymentUpdated: 'resolved_payment.updated',
  /** A reorganisation took a resolved payment's transaction off the chain (an extension; the same body). */
  resolvedPaymentReversed: 'resolved_payment.reversed',
  /** A user's KYC status changed. */
  kycUpdate: 'kyc_update',
  /** A payment detail's status changed. */
  paymentDetailUpdate: 'payment_detail_update',
  /** An onramp changed (status, message or refunds). */
  onrampUpdate: 'onramp_update',
  /** An offramp changed (status, message or refund). */
  offrampUpdate: 'offramp_update',
  /** A quote's own refund was recorded, sent or failed (an extension). */
  quoteUpdate: 'quote_update',
  /** A transfer into a receiving address fits no order (an extension, to the nearest product's `webhook_url`). */
  unmatchedTransferCreated: 'unmatched_transfer.created',
  /** A reorganisation took an unmatched transfer off the chain, or moved it to another block (an extension). */
  unmatchedTransferUpdated: 'unmatched_transfer.updated',
  /** A refund changed status (an extension, to its product's `webhook_url`; body `{ refund }`). */
  refundUpdated: 'refund.updated',
} as const;

/** The name of a webhook event: one of `webhookEvents`. */
export type WebhookEvent = (typeof webhookEvents)[keyof typeof webhookEvents];

/** The events a product's `webhook_url` receives, which a test event may imitate. */
export const productTestEvents = [
  'resolved_payment.created',
  'resolved_payment.updated',
  'resolved_payment.reversed',
  'refund.updated',
  'unmatched_transfer.created',
  'unmatched_transfer.updated',
] as const;

/** The events the account's endpoint receives, which a test event may imitate. */
export const accountTestEvents = [
  'kyc_update',
  'payment_detail_update',
  'onramp_update',
  'offramp_update',
  'quote_update',
] as const;
