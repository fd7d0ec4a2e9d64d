/** A payment's timeline as its route shows it: every record about it as one entry, oldest first. */
import {
  formatUnits,
  type PaymentExceptionStatus,
  type PaymentTimelineEntry,
  type PaymentTimelineResponse,
  paymentTimelineLimit,
} from '@checkout/core';
import type { PaymentTimelineRecords } from '../repositories/paymentTimeline.ts';
import type { ResolvedPaymentRow } from '../schema.ts';

/**
 * The entries of a payment's own steps: its session, transfer, confirmations, resolution, the other transfers
 * about it and its reversal.
 */
function paymentEntries(
  payment: ResolvedPaymentRow,
  exception: PaymentExceptionStatus | null,
  { session, seen, unmatched, sweeps }: PaymentTimelineRecords,
): PaymentTimelineEntry[] {
  const token = payment.received_token;
  const entries: PaymentTimelineEntry[] = [];
  if (session)
    entries.push({ type: 'session_opened', at: session.created_at.toISOString(), session_id: session.id });
  if (seen)
    entries.push({
      type: 'transfer_seen',
      at: seen.at.toISOString(),
      chain_id: payment.chain_id,
      tx_hash: payment.tx_id,
      block_number: seen.blockNumber,
    });
  const resolvedAt = payment.created_at.toISOString();
  if (session)
    entries.push({
      type: 'confirmed',
      at: resolvedAt,
      confirmations: session.confirmations,
      required_confirmations: session.required_confirmations,
    });
  entries.push({
    type: 'resolved',
    at: resolvedAt,
    amount: formatUnits(BigInt(payment.received_token_amount), token.decimal_count),
    symbol: token.symbol,
    exception_status: exception,
    tx_failure: payment.tx_failure,
  });
  for (const u of unmatched)
    entries.push({
      type: 'unmatched_transfer',
      at: u.created_at.toISOString(),
      unmatched_transfer_id: u.id,
      kind: u.kind,
      status: u.status,
      chain_id: u.chain_id,
      tx_hash: u.tx_hash,
      amount: formatUnits(BigInt(u.amount), u.token.decimal_count),
      symbol: u.token.symbol,
    });
  for (const w of sweeps)
    entries.push({
      type: 'deposit_swept',
      at: w.updated_at.toISOString(),
      chain_id: w.chain_id,
      tx_hash: w.tx_hash,
      status: w.status === 'reverted' ? 'reverted' : 'mined',
      gas_used: w.gas_used ?? '0',
      gas_price_wei: w.gas_price ?? '0',
      gas_spent_wei: w.gas_spent ?? '0',
    });
  if (payment.reversed_at)
    entries.push({
      type: 'reversed',
      at: payment.reversed_at.toISOString(),
      block_number: payment.block_number,
    });
  return entries;
}

/** The entries of the payment's refunds: each requested, paid (per transfer), confirmed, canceled or expired. */
function refundEntries({ refunds, refundTransfers }: PaymentTimelineRecords): PaymentTimelineEntry[] {
  const entries: PaymentTimelineEntry[] = [];
  for (const r of refunds) {
    const amount = (units: string) => formatUnits(BigInt(units), r.token.decimal_count);
    const refund_id = r.id;
    entries.push({
      type: 'refund_requested',
      at: r.created_at.toISOString(),
      refund_id,
      amount: amount(r.amount),
      symbol: r.token.symbol,
      reason: r.reason,
    });
    for (const t of refundTransfers.filter((t) => t.refund_id === r.id))
      entries.push({
        type: 'refund_paid',
        at: t.created_at.toISOString(),
        refund_id,
        chain_id: r.chain_id,
        tx_hash: t.tx_hash,
        block_number: t.block_number,
        amount: amount(t.amount),
        symbol: r.token.symbol,
      });
    if (r.confirmed_at)
      entries.push({
        type: 'refund_confirmed',
        at: r.confirmed_at.toISOString(),
        refund_id,
        tx_hash: r.tx_hash,
      });
    const endedAt = r.updated_at.toISOString();
    if (r.status === 'canceled')
      entries.push({ type: 'refund_canceled', at: endedAt, refund_id, reason: r.cancel_reason });
    if (r.status === 'expired') entries.push({ type: 'refund_expired', at: endedAt, refund_id });
  }
  return entries;
}

/** The entries of webhooks (each delivery queued, each attempt) and e-mails (when sent, or claimed). */
function messageEntries({ deliveries, emails }: PaymentTimelineRecords): PaymentTimelineEntry[] {
  const entries: PaymentTimelineEntry[] = [];
  for (const d of deliveries) {
    const delivery_id = d.id;
    entries.push({
      type: 'webhook_queued',
      at: d.created_at.toISOString(),
      delivery_id,
      event_type: d.event_type,
      url: d.url,
      redelivery_of: d.redelivery_of,
    });
    for (const a of d.attempts)
      entries.push({
        type: 'webhook_attempt',
        at: a.started_at.toISOString(),
        delivery_id,
        event_type: d.event_type,
        attempt: a.attempt,
        status_code: a.status_code,
        error: a.error,
        duration_ms: a.duration_ms,
        response_excerpt: a.response_snippet,
      });
  }
  for (const e of emails)
    entries.push({
      type: 'email',
      at: (e.doneAt ?? e.createdAt).toISOString(),
      kind: e.kind,
      recipient: e.recipient,
      status: e.givenUp ? 'outcome_unknown' : e.status === 'done' ? 'sent' : 'sending',
      refund_id: e.refundId,
    });
  return entries;
}

/**
 * The timeline of `payment` (whose exception is `exception`) from its records, oldest first (entries of one
 * instant in the order things happen), at most {@link paymentTimelineLimit} entries.
 */
export function presentPaymentTimeline(
  payment: ResolvedPaymentRow,
  exception: PaymentExceptionStatus | null,
  records: PaymentTimelineRecords,
): PaymentTimelineResponse {
  const entries = [
    ...paymentEntries(payment, exception, records),
    ...messageEntries(records),
    ...refundEntries(records),
  ];
  // A stable sort: entries of one instant keep the order above.
  entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return {
    timeline: entries.slice(0, paymentTimelineLimit),
    truncated: entries.length > paymentTimelineLimit,
  };
}
