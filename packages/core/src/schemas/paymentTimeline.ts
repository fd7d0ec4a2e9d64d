/**
 * A resolved payment's timeline: everything that happened to it, oldest first — its session opened, its
 * transfer seen and confirmed, other transfers about it (a second payment, a top-up), its resolution, each webhook delivery and attempt, each e-mail, each refund's
 * steps, a reversal. Read from the records the service keeps; e-mails name their kind and recipient, never
 * their content.
 */
import { z } from 'zod';
import { paymentExceptionStatuses } from '../paymentException.ts';
import { namedObject, Timestamp, Uuid } from './common.ts';

const TxHash = z
  .string()
  .meta({ example: '0x9f1b6c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b' });
/** A block number as a decimal string. */
const BlockNumber = z.string().meta({ example: '21000000' });
/** A token amount as an exact decimal string in whole tokens. */
const TokenAmount = z.string().meta({ example: '25.5' });

const entry = <T extends string, S extends z.ZodRawShape>(id: string, type: T, shape: S) =>
  namedObject(id, { type: z.literal(type), at: Timestamp, ...shape });

/** One thing that happened to a payment, at `at`. */
export const PaymentTimelineEntry = z
  .discriminatedUnion('type', [
    entry('TimelineSessionOpened', 'session_opened', { session_id: Uuid }),
    entry('TimelineTransferSeen', 'transfer_seen', {
      chain_id: z.number().int(),
      tx_hash: TxHash,
      /** Null for a transaction submitted by its hash before the chain's watcher read its block. */
      block_number: BlockNumber.nullable(),
    }),
    entry('TimelineUnmatchedTransfer', 'unmatched_transfer', {
      /** Another transfer about the payment that no checkout took: a second payment of it, or a top-up attached. */
      unmatched_transfer_id: Uuid,
      kind: z.enum(['duplicate', 'closed_attempt', 'wrong_amount', 'unexpected']),
      /** What became of it (as it stands now). */
      status: z.enum(['open', 'attached', 'refunded', 'dismissed', 'reversed']),
      chain_id: z.number().int(),
      tx_hash: TxHash,
      amount: TokenAmount,
      symbol: z.string(),
    }),
    entry('TimelineConfirmed', 'confirmed', {
      confirmations: z.number().int().min(0),
      required_confirmations: z.number().int().min(0),
    }),
    entry('TimelineResolved', 'resolved', {
      amount: TokenAmount,
      symbol: z.string(),
      exception_status: z.enum(paymentExceptionStatuses).nullable(),
      tx_failure: z.boolean(),
    }),
    entry('TimelineWebhookQueued', 'webhook_queued', {
      delivery_id: Uuid,
      event_type: z.string().meta({ example: 'resolved_payment.created' }),
      url: z.string(),
      redelivery_of: Uuid.nullable(),
    }),
    entry('TimelineWebhookAttempt', 'webhook_attempt', {
      delivery_id: Uuid,
      event_type: z.string(),
      attempt: z.number().int().min(1),
      status_code: z.number().int().nullable(),
      error: z.string().nullable(),
      duration_ms: z.number().int().min(0),
      /** The first 1 KB of what the receiver answered, or null when it did not answer. */
      response_excerpt: z.string().nullable(),
    }),
    entry('TimelineEmail', 'email', {
      /** e.g. `customer_receipt`, `merchant_notice`, `reorg`, `refund_confirmed`. */
      kind: z.string().meta({ example: 'customer_receipt' }),
      recipient: z.enum(['customer', 'merchant']),
      /** `sending` while its claim is held; `outcome_unknown` when given up (listed as undelivered). */
      status: z.enum(['sent', 'sending', 'outcome_unknown']),
      refund_id: Uuid.nullable(),
    }),
    entry('TimelineRefundRequested', 'refund_requested', {
      refund_id: Uuid,
      amount: TokenAmount,
      symbol: z.string(),
      reason: z.string(),
    }),
    entry('TimelineRefundPaid', 'refund_paid', {
      refund_id: Uuid,
      chain_id: z.number().int(),
      tx_hash: TxHash,
      block_number: BlockNumber,
      amount: TokenAmount,
      symbol: z.string(),
    }),
    entry('TimelineRefundConfirmed', 'refund_confirmed', { refund_id: Uuid, tx_hash: TxHash.nullable() }),
    entry('TimelineRefundCanceled', 'refund_canceled', { refund_id: Uuid, reason: z.string().nullable() }),
    entry('TimelineRefundExpired', 'refund_expired', { refund_id: Uuid }),
    entry('TimelineDepositSwept', 'deposit_swept', {
      /** The `deployAndSweep` transaction that moved the deposit address's funds to the receiving address. */
      chain_id: z.number().int(),
      tx_hash: TxHash,
      /** `reverted` when the sweep's transaction failed (its gas was spent all the same). */
      status: z.enum(['mined', 'reverted']),
      /** The transaction's gas used and effective gas price (wei), integer strings. */
      gas_used: z.string().meta({ example: '233688' }),
      gas_price_wei: z.string().meta({ example: '1000000000' }),
      /** This payment's share of gas used × price (wei): the sweep's fee split among the addresses it swept. */
      gas_spent_wei: z.string().meta({ example: '233688000000000' }),
    }),
    entry('TimelineReversed', 'reversed', { block_number: BlockNumber.nullable() }),
  ])
  .meta({ id: 'PaymentTimelineEntry' });
export type PaymentTimelineEntry = z.infer<typeof PaymentTimelineEntry>;

/** The most entries a timeline lists; `truncated` says when more were left out (the newest). */
export const paymentTimelineLimit = 500;

export const PaymentTimelineResponse = namedObject('PaymentTimelineResponse', {
  timeline: z.array(PaymentTimelineEntry),
  truncated: z.boolean(),
});
export type PaymentTimelineResponse = z.infer<typeof PaymentTimelineResponse>;
