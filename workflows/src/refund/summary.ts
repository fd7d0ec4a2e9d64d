/** How the Temporal UI shows a refund's workflow (safe in the workflow sandbox). */
import { formatUnits } from '@checkout/core';
import type { WorkflowSummary } from '../shared.ts';

/**
 * `Refund 7 BUSD · payment <id>` (or `· unmatched transfer <id>`): what the refund is, never its status (the
 * workflow's `Summary` line says where it stands: `refundStatus`, workflows/src/summaries.ts).
 */
export function refundSummary(row: {
  id: string;
  amount: string;
  token: { symbol: string; decimal_count: number };
  resolved_payment_id: string | null;
  unmatched_transfer_id: string | null;
  chain_id: number;
}): WorkflowSummary {
  const amount = formatUnits(BigInt(row.amount), row.token.decimal_count);
  const subject = row.resolved_payment_id
    ? `payment ${row.resolved_payment_id}`
    : `unmatched transfer ${row.unmatched_transfer_id}`;
  return {
    staticSummary: `Refund ${amount} ${row.token.symbol} · ${subject}`,
    staticDetails: [`refund: ${row.id}`, `chain: ${row.chain_id}`].join('\n'),
  };
}
