/**
 * The chaos run's count of refunds: each confirmed once, its `refund.updated` once per status it passed
 * through, its e-mails once each, its payment partially refunded, and its transfer neither unmatched nor a
 * checkout's payment.
 */
import type { Received } from './recorder.ts';
import { type ChaosRefund, refundMessageId } from './refunds.ts';

/** A refund's row as the database holds it. */
export interface RefundRow {
  id: string;
  resolved_payment_id: string | null;
  status: string;
  tx_hash: string | null;
}

/** The statuses a refund of the run passes through, in order. */
export function refundStatusesOf(refund: Pick<ChaosRefund, 'claimed'>): string[] {
  return [...(refund.claimed ? ['awaiting_address'] : []), 'ready_to_pay', 'sent', 'confirmed'];
}

/**
 * The Message-IDs a refund of the run must have sent, each once: the customer's of every status (the run
 * waits for the claim e-mail before claiming and for the merchant's ready-to-pay e-mail before paying, and
 * only the workflow confirms a sent refund, so it reads each), the merchant's of ready_to_pay and confirmed.
 */
export function refundMessageIdsOf(refund: Pick<ChaosRefund, 'claimed'>, refundId: string): string[] {
  return [
    ...refundStatusesOf(refund).map((s) => refundMessageId(refundId, s, 'customer')),
    refundMessageId(refundId, 'ready_to_pay', 'merchant'),
    refundMessageId(refundId, 'confirmed', 'merchant'),
  ];
}

/** Counts every refund's effects; `faults` sums the counts that must be 0. */
export function countRefunds(input: {
  refunds: readonly ChaosRefund[];
  rows: readonly RefundRow[];
  mails: ReadonlyArray<{ messageId: string }>;
  received: readonly Received[];
  unmatched: ReadonlyArray<{ tx_hash: string }>;
  resolved: ReadonlyArray<{ tx_id: string }>;
  /** Each refunded payment's `exception_status`, by resolved payment id. */
  exceptionStatus: ReadonlyMap<string, string | null>;
}) {
  const counts = {
    refunds: input.refunds.length,
    claimedRefunds: input.refunds.filter((r) => r.claimed).length,
    lostRefunds: 0,
    doubledRefunds: 0,
    wrongRefundTransfer: 0,
    lostRefundWebhooks: 0,
    duplicatedRefundWebhooks: 0,
    unexpectedRefundWebhooks: 0,
    refundWebhookRetries: 0,
    missingRefundEmails: 0,
    duplicatedRefundEmails: 0,
    unexpectedRefundEmails: 0,
    notPartiallyRefunded: 0,
    refundTransfersUnmatched: 0,
    refundTransfersPaidCheckout: 0,
    refundErrors: input.refunds.filter((r) => r.error).length,
  };
  const mailCount = new Map<string, number>();
  for (const m of input.mails) mailCount.set(m.messageId, (mailCount.get(m.messageId) ?? 0) + 1);
  const expectedMails = new Set<string>();
  const refunded = new Set(input.refunds.map((r) => r.resolvedPaymentId).filter(Boolean));
  // A refund of a payment the run did not refund is one too many.
  for (const row of input.rows) {
    if (!row.resolved_payment_id || !refunded.has(row.resolved_payment_id)) counts.doubledRefunds += 1;
  }
  const unmatched = new Set(input.unmatched.map((u) => u.tx_hash.toLowerCase()));
  const paid = new Set(input.resolved.map((r) => r.tx_id.toLowerCase()));

  for (const refund of input.refunds) {
    const rows = input.rows.filter((r) => r.resolved_payment_id === refund.resolvedPaymentId);
    counts.doubledRefunds += Math.max(0, rows.length - 1);
    const row = rows.find((r) => r.id === refund.refundId);
    if (row?.status !== 'confirmed') counts.lostRefunds += 1;
    if (!row || !refund.refundId) continue;
    if (refund.txHash && row.tx_hash?.toLowerCase() !== refund.txHash) counts.wrongRefundTransfer += 1;
    if (refund.txHash && unmatched.has(refund.txHash)) counts.refundTransfersUnmatched += 1;
    if (refund.txHash && paid.has(refund.txHash)) counts.refundTransfersPaidCheckout += 1;
    if (input.exceptionStatus.get(row.resolved_payment_id ?? '') !== 'partially_refunded') {
      counts.notPartiallyRefunded += 1;
    }

    const hooks = input.received.filter(
      (h) => h.event === 'refund.updated' && h.body.payload?.refund?.id === refund.refundId,
    );
    const statuses = refundStatusesOf(refund);
    const deliveries = new Map<string, Set<string>>();
    for (const h of hooks) {
      const status = String(h.body.payload.refund.status);
      deliveries.set(status, (deliveries.get(status) ?? new Set()).add(h.webhookId));
    }
    for (const status of statuses) {
      const n = deliveries.get(status)?.size ?? 0;
      if (n === 0) counts.lostRefundWebhooks += 1;
      counts.duplicatedRefundWebhooks += Math.max(0, n - 1);
    }
    for (const [status, ids] of deliveries)
      if (!statuses.includes(status)) counts.unexpectedRefundWebhooks += ids.size;
    counts.refundWebhookRetries += hooks.length - [...deliveries.values()].reduce((a, s) => a + s.size, 0);

    for (const messageId of refundMessageIdsOf(refund, refund.refundId)) {
      expectedMails.add(messageId);
      const n = mailCount.get(messageId) ?? 0;
      if (n === 0) counts.missingRefundEmails += 1;
      counts.duplicatedRefundEmails += Math.max(0, n - 1);
    }
  }
  // Any other refund e-mail (a reminder, a cancel) is one the run never caused.
  for (const [messageId, n] of mailCount) {
    if (messageId.endsWith('.refund@stable-checkout>') && !expectedMails.has(messageId)) {
      counts.unexpectedRefundEmails += n;
    }
  }

  const faults = [
    counts.lostRefunds,
    counts.doubledRefunds,
    counts.wrongRefundTransfer,
    counts.lostRefundWebhooks,
    counts.duplicatedRefundWebhooks,
    counts.unexpectedRefundWebhooks,
    counts.missingRefundEmails,
    counts.duplicatedRefundEmails,
    counts.unexpectedRefundEmails,
    counts.notPartiallyRefunded,
    counts.refundTransfersUnmatched,
    counts.refundTransfersPaidCheckout,
    counts.refundErrors,
  ].reduce((a, b) => a + b, 0);
  return { counts, faults };
}
