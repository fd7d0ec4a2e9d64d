/** The chaos run's count: every payment, e-mail, webhook and onramp delivery, lost or doubled. */
import type { Address } from 'viem';
import { parseUnits } from 'viem';
import type { Received } from './recorder.ts';

/** A payment the run made (a closed tab never submitted its hash). */
export interface ChaosPayment {
  expectedPaymentId: string;
  txHash: string;
  closedTab: boolean;
}

/** An onramp the run made, and where its crypto must arrive. */
export interface ChaosOnramp {
  id: string;
  destination: Address;
  amount: string;
}

/** An unmatched transfer as the run reads it, oldest first: its e-mail batch (null until one is reserved). */
export interface UnmatchedRow {
  id: string;
  tx_hash: string;
  kind: string;
  mail_batch: string | null;
}

/**
 * The Message-ID of the merchant e-mail that tells of `row`: transfers waiting for an e-mail to one recipient
 * go in one batch, named by its oldest (`emailUnmatchedTransfer`, workflows/src/unmatched/email.ts).
 */
export function unmatchedMessageIdOf(row: UnmatchedRow, rows: readonly UnmatchedRow[]): string | null {
  if (row.mail_batch === null) return null;
  const batch = rows.filter((r) => r.mail_batch === row.mail_batch);
  const first = batch[0] ?? row;
  return `<${first.id}.${batch.length > 1 ? `${batch.length}.` : ''}unmatched@stable-checkout>`;
}

/** Counts every effect against what the run did; `faults` sums the counts that must be 0. */
export async function countEffects(input: {
  resolved: ReadonlyArray<{ expected_payment_id: string; id: string; tx_id: string }>;
  mails: ReadonlyArray<{ messageId: string }>;
  received: readonly Received[];
  payments: readonly ChaosPayment[];
  /** Hashes of the second payments (each must become one unmatched transfer). */
  strays: readonly string[];
  unmatched: readonly UnmatchedRow[];
  onramps: readonly ChaosOnramp[];
  kills: number;
  requestErrors: number;
  // biome-ignore lint/suspicious/noExplicitAny: the onramp is read field by field
  onrampStatus: (o: ChaosOnramp) => Promise<any>;
  balanceOf: (o: ChaosOnramp) => Promise<bigint>;
  decimals: number;
}) {
  const byExpected = new Map<string, { id: string; tx_id: string }[]>();
  for (const r of input.resolved)
    byExpected.set(r.expected_payment_id, [...(byExpected.get(r.expected_payment_id) ?? []), r]);
  const mailCount = new Map<string, number>();
  for (const m of input.mails) mailCount.set(m.messageId, (mailCount.get(m.messageId) ?? 0) + 1);
  const paymentHooks = input.received.filter((r) => r.event === 'resolved_payment.created');
  const counts = {
    payments: input.payments.length,
    closedTabs: input.payments.filter((p) => p.closedTab).length,
    secondPayments: input.strays.length,
    onramps: input.onramps.length,
    kills: input.kills,
    lostUnmatched: 0,
    doubledUnmatched: 0,
    unexpectedUnmatched: 0,
    unmatchedNotDuplicate: 0,
    lostPayments: 0,
    duplicatedPayments: 0,
    wrongTransfer: 0,
    missingEmails: 0,
    duplicatedEmails: 0,
    lostWebhooks: 0,
    duplicatedWebhookDeliveries: 0,
    exactWebhookRetries: 0,
    lostOnramps: 0,
    doubledOnramps: 0,
    lostOnrampUpdates: 0,
    requestErrors: input.requestErrors,
  };
  for (const p of input.payments) {
    const rows = byExpected.get(p.expectedPaymentId) ?? [];
    if (rows.length === 0) counts.lostPayments += 1;
    if (rows.length > 1) counts.duplicatedPayments += rows.length - 1;
    const row = rows[0];
    if (row && row.tx_id !== p.txHash) counts.wrongTransfer += 1;
    if (row) {
      for (const kind of ['customer', 'merchant']) {
        const n = mailCount.get(`<${row.id}.${kind}@stable-checkout>`) ?? 0;
        if (n === 0) counts.missingEmails += 1;
        if (n > 1) counts.duplicatedEmails += n - 1;
      }
    }
    const hooks = paymentHooks.filter((h) => h.body.expected_payment_id === p.expectedPaymentId);
    const deliveries = new Set(hooks.map((h) => h.webhookId));
    if (hooks.length === 0) counts.lostWebhooks += 1;
    counts.duplicatedWebhookDeliveries += Math.max(0, deliveries.size - 1);
    counts.exactWebhookRetries += hooks.length - deliveries.size;
  }
  countUnmatched(input, counts, mailCount);
  for (const o of input.onramps) {
    const status = await input.onrampStatus(o);
    const balance = await input.balanceOf(o);
    const due = parseUnits(o.amount, input.decimals);
    if (status?.status !== 'crypto_sent' || balance < due) counts.lostOnramps += 1;
    if (balance > due) counts.doubledOnramps += 1;
    const versions = new Set(
      input.received
        .filter((r) => r.event === 'onramp_update' && r.body.payload?.onramp?.id === o.id)
        .map((r) => r.body.payload.onramp.status),
    );
    for (const s of ['funds_received', 'sending_crypto', 'crypto_sent']) {
      if (!versions.has(s)) counts.lostOnrampUpdates += 1;
    }
  }
  const faults = [
    counts.lostPayments,
    counts.duplicatedPayments,
    counts.wrongTransfer,
    counts.missingEmails,
    counts.duplicatedEmails,
    counts.lostWebhooks,
    counts.duplicatedWebhookDeliveries,
    counts.lostOnramps,
    counts.doubledOnramps,
    counts.lostOnrampUpdates,
    counts.lostUnmatched,
    counts.doubledUnmatched,
    counts.unexpectedUnmatched,
    counts.requestErrors,
  ].reduce((a, b) => a + b, 0);
  return { counts, faults };
}

/**
 * Each second payment is one unmatched transfer (a `duplicate` of its order), told in one merchant e-mail (its
 * batch's, once) and one webhook delivery; no other transfer is unmatched.
 */
function countUnmatched(
  input: {
    strays: readonly string[];
    unmatched: readonly UnmatchedRow[];
    received: readonly Received[];
  },
  counts: {
    lostUnmatched: number;
    doubledUnmatched: number;
    unexpectedUnmatched: number;
    unmatchedNotDuplicate: number;
    missingEmails: number;
    duplicatedEmails: number;
    lostWebhooks: number;
    duplicatedWebhookDeliveries: number;
  },
  mailCount: ReadonlyMap<string, number>,
): void {
  const strays = new Set(input.strays);
  for (const row of input.unmatched) if (!strays.has(row.tx_hash)) counts.unexpectedUnmatched += 1;
  for (const tx of input.strays) {
    const rows = input.unmatched.filter((r) => r.tx_hash === tx);
    if (rows.length === 0) counts.lostUnmatched += 1;
    if (rows.length > 1) counts.doubledUnmatched += rows.length - 1;
    const row = rows[0];
    if (!row) continue;
    if (row.kind !== 'duplicate') counts.unmatchedNotDuplicate += 1;
    const messageId = unmatchedMessageIdOf(row, input.unmatched);
    const n = messageId ? (mailCount.get(messageId) ?? 0) : 0;
    if (n === 0) counts.missingEmails += 1;
    if (n > 1) counts.duplicatedEmails += n - 1;
    const hooks = input.received.filter(
      (h) => h.event === 'unmatched_transfer.created' && h.body.payload?.unmatched_transfer?.id === row.id,
    );
    if (hooks.length === 0) counts.lostWebhooks += 1;
    counts.duplicatedWebhookDeliveries += Math.max(0, new Set(hooks.map((h) => h.webhookId)).size - 1);
  }
}
