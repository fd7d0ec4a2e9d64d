/**
 * The records a payment's timeline is read from: its session, the transfer that paid it, the webhook
 * deliveries about it and its refunds (with their attempts), the claims of its e-mails, its refunds and the
 * transfers that paid them. Each read is by index and bounded by the payment's own records.
 */
import { refundStatuses } from '@checkout/core';
import { type Kysely, sql } from 'kysely';
import type { CheckoutSessionRow } from '../checkoutSchema.ts';
import type { RefundRow } from '../refundSchema.ts';
import type { Database, EffectClaimsTable, ResolvedPaymentRow } from '../schema.ts';
import type { UnmatchedTransferRow } from '../unmatchedSchema.ts';
import { listDeliveriesAbout, type WebhookDeliveryWithAttempts } from './webhookDeliveryLog.ts';

/** An e-mail's claim with what its key says of it, and whether it was given up. */
export interface TimelineEmailClaim {
  kind: string;
  recipient: 'customer' | 'merchant';
  refundId: string | null;
  status: EffectClaimsTable['status'];
  createdAt: Date;
  doneAt: Date | null;
  givenUp: boolean;
}

/** Everything a payment's timeline is read from. */
export interface PaymentTimelineRecords {
  session: CheckoutSessionRow | undefined;
  /** When the chain's watcher first read the paying transfer, or the hash was submitted; and its block. */
  seen: { at: Date; blockNumber: string | null } | undefined;
  deliveries: WebhookDeliveryWithAttempts[];
  /** Transfers no checkout took that are about the payment: its duplicates and the top-ups attached to it. */
  unmatched: UnmatchedTransferRow[];
  emails: TimelineEmailClaim[];
  refunds: RefundRow[];
  /** The mined (or reverted) sweeps of the session's deposit address, with the payment's share of each one's gas. */
  sweeps: Array<{
    chain_id: number;
    tx_hash: string;
    status: string;
    gas_used: string | null;
    gas_price: string | null;
    gas_spent: string | null;
    updated_at: Date;
  }>;
  refundTransfers: Array<{
    refund_id: string;
    tx_hash: string;
    block_number: string;
    amount: string;
    created_at: Date;
  }>;
}

/** An e-mail claim key with what it says: kind, recipient and the refund it is about. */
interface EmailKey {
  key: string;
  kind: string;
  recipient: 'customer' | 'merchant';
  refundId: string | null;
}

/** The claim keys a refund's e-mails may have (workflows/src/refund/emails.ts), one per kind and recipient. */
function refundEmailKeys(refund: RefundRow, paidSums: string[]): EmailKey[] {
  const keys: EmailKey[] = [];
  for (const kind of [...refundStatuses, 'reminder'])
    for (const recipient of ['customer', 'merchant'] as const)
      keys.push({
        key: `email:refund:${refund.id}:${kind}:${recipient}`,
        kind: `refund_${kind}`,
        recipient,
        refundId: refund.id,
      });
  // The merchant's notice of another amount paid is claimed once per sum paid.
  for (const sum of paidSums)
    for (const kind of ['part_paid', 'overpaid'])
      keys.push({
        key: `email:refund:${refund.id}:${kind}:merchant:${sum}`,
        kind: `refund_${kind}`,
        recipient: 'merchant',
        refundId: refund.id,
      });
  return keys;
}

/** Reads the records of `payment`'s timeline. */
export async function readPaymentTimelineRecords(
  db: Kysely<Database>,
  payment: ResolvedPaymentRow,
  merchantId: string,
): Promise<PaymentTimelineRecords> {
  const [session, transfer, submitted, refunds, unmatched] = await Promise.all([
    db
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('expected_payment_id', '=', payment.expected_payment_id)
      .executeTakeFirst(),
    db
      .selectFrom('chain_transfers')
      .select(['seen_at', 'block_number'])
      .where('chain_id', '=', payment.chain_id)
      .where('tx_hash', '=', payment.tx_id)
      .where('log_index', '=', payment.log_index)
      .executeTakeFirst(),
    db
      .selectFrom('checkout_transactions')
      .select('created_at')
      .where('chain_id', '=', payment.chain_id)
      .where('tx_hash', '=', payment.tx_id)
      .executeTakeFirst(),
    db
      .selectFrom('refunds')
      .selectAll()
      .where('resolved_payment_id', '=', payment.id)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('unmatched_transfers')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('resolved_payment_id', '=', payment.id)
      .orderBy('created_at')
      .execute(),
  ]);
  const refundIds = refunds.map((r) => r.id);
  const [deliveries, refundTransfers, sweeps] = await Promise.all([
    listDeliveriesAbout(db, merchantId, [payment.id, ...refundIds]),
    refundIds.length === 0
      ? []
      : db
          .selectFrom('refund_transfers')
          .select(['refund_id', 'tx_hash', 'block_number', 'amount', 'created_at'])
          .where('refund_id', 'in', refundIds)
          .orderBy('created_at')
          .orderBy(sql`block_number::numeric`)
          .orderBy('log_index')
          .execute(),
    session?.deposit_address
      ? db
          .selectFrom('deposit_sweep_sessions as ss')
          .innerJoin('deposit_sweeps as w', 'w.id', 'ss.sweep_id')
          .select([
            'w.chain_id',
            'w.tx_hash',
            'w.status',
            'w.gas_used',
            'w.gas_price',
            'ss.gas_spent',
            'w.updated_at',
          ])
          .where('ss.session_id', '=', session.id)
          .where('w.status', 'in', ['mined', 'reverted'])
          .orderBy('w.updated_at')
          .execute()
      : [],
  ]);
  const seenTimes = [transfer?.seen_at, submitted?.created_at].filter((t): t is Date => t !== undefined);
  const seenAt = seenTimes.sort((a, b) => a.getTime() - b.getTime())[0];
  return {
    session,
    seen: seenAt && { at: seenAt, blockNumber: transfer?.block_number ?? payment.block_number },
    deliveries,
    unmatched,
    emails: await readEmailClaims(db, payment, refunds, refundTransfers, deliveries),
    refunds,
    sweeps,
    refundTransfers,
  };
}

/** The claims of the payment's e-mails and its refunds', by their exact keys. */
async function readEmailClaims(
  db: Kysely<Database>,
  payment: ResolvedPaymentRow,
  refunds: RefundRow[],
  refundTransfers: PaymentTimelineRecords['refundTransfers'],
  deliveries: WebhookDeliveryWithAttempts[],
): Promise<TimelineEmailClaim[]> {
  const keys: EmailKey[] = [
    {
      key: `email:customer_receipt:${payment.id}`,
      kind: 'customer_receipt',
      recipient: 'customer',
      refundId: null,
    },
    {
      key: `email:merchant_notice:${payment.id}`,
      kind: 'merchant_notice',
      recipient: 'merchant',
      refundId: null,
    },
  ];
  // A reorganisation's e-mail is claimed per block the payment left: its webhook's subject names that block.
  const leftBlocks = new Set(payment.block_hash ? [payment.block_hash] : []);
  for (const d of deliveries) {
    const [subject, what, hash] = d.subject_id.split(':');
    if (subject === payment.id && what === 'reorg' && hash) leftBlocks.add(hash);
  }
  for (const hash of leftBlocks)
    keys.push({
      key: `email:reorg:${payment.id}:${hash}`,
      kind: 'reorg',
      recipient: 'merchant',
      refundId: null,
    });
  for (const refund of refunds) {
    let sum = 0n;
    const sums: string[] = [];
    for (const t of refundTransfers.filter((t) => t.refund_id === refund.id)) {
      sum += BigInt(t.amount);
      sums.push(sum.toString());
    }
    keys.push(...refundEmailKeys(refund, sums));
  }
  const byKey = new Map(keys.map((k) => [k.key, k]));
  const [claims, givenUp] = await Promise.all([
    db
      .selectFrom('effect_claims')
      .select(['key', 'status', 'created_at', 'done_at'])
      .where('key', 'in', [...byKey.keys()])
      .execute(),
    db
      .selectFrom('undelivered_emails')
      .select('effect_key')
      .where('effect_key', 'in', [...byKey.keys()])
      .execute(),
  ]);
  const abandoned = new Set(givenUp.map((g) => g.effect_key));
  return claims.map((c) => {
    const key = byKey.get(c.key)!;
    return {
      kind: key.kind,
      recipient: key.recipient,
      refundId: key.refundId,
      status: c.status,
      createdAt: c.created_at,
      doneAt: c.done_at,
      givenUp: abandoned.has(c.key),
    };
  });
}
