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

/** Counts every effect against what the run did; `faults` sums the counts that must be 0. */
export async function countEffects(input: {
  resolved: ReadonlyArray<{ expected_payment_id: string; id: string; tx_id: string }>;
  mails: ReadonlyArray<{ messageId: string }>;
  received: readonly Received[];
  payments: readonly ChaosPayment[];
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
    onramps: input.onramps.length,
    kills: input.kills,
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
    counts.requestErrors,
  ].reduce((a, b) => a + b, 0);
  return { counts, faults };
}
