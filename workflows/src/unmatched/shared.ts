/** Names and types of the `unmatchedTransfer` workflow (safe in the workflow sandbox). */
import { formatUnits, webhookEvents } from '@checkout/core';
import type { WorkflowSummary } from '../shared.ts';

/** The webhook event of a new unmatched transfer. */
export const unmatchedTransferEvent = webhookEvents.unmatchedTransferCreated;

/** Input of `unmatchedTransfer`. */
export interface UnmatchedTransferInput {
  unmatchedTransferId: string;
}

/** The workflow id of an unmatched transfer's announcement. */
export function unmatchedWorkflowId(unmatchedTransferId: string): string {
  return `unmatched-${unmatchedTransferId}`;
}

/** `Unmatched transfer 7 BUSD · duplicate · from 0x7099…79C8`. */
export function unmatchedTransferSummary(row: {
  id: string;
  amount: string;
  token: { symbol: string; decimal_count: number };
  kind: string;
  sender_address: string;
  tx_hash: string;
  chain_id: number;
}): WorkflowSummary {
  const amount = formatUnits(BigInt(row.amount), row.token.decimal_count);
  const sender = `${row.sender_address.slice(0, 6)}…${row.sender_address.slice(-4)}`;
  return {
    staticSummary: `Unmatched transfer ${amount} ${row.token.symbol} · ${row.kind.replace(/_/g, ' ')} · from ${sender}`,
    staticDetails: [`unmatched transfer: ${row.id}`, `tx: ${row.tx_hash} on chain ${row.chain_id}`].join(
      '\n',
    ),
  };
}
