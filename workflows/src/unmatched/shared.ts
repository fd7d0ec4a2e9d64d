/** Names and types of the `unmatchedTransfer` workflow (safe in the workflow sandbox). */
// By their own paths: the package's index holds every schema, which each workflow run would evaluate again.
import { formatUnits } from '@checkout/core/amount';
import { webhookEvents } from '@checkout/core/webhookEvents';
import { defineSignal } from '@temporalio/workflow';
import type { WorkflowSummary } from '../shared.ts';

/** The webhook event of a new unmatched transfer. */
export const unmatchedTransferEvent = webhookEvents.unmatchedTransferCreated;

/** Input of `unmatchedTransfer`. */
export interface UnmatchedTransferInput {
  unmatchedTransferId: string;
  /** Carried over a continue-as-new: until when the transfer is followed (epoch milliseconds). */
  followUntil?: number;
  /** Carried over a continue-as-new: the merchant was told already. */
  announced?: boolean;
}

/** The transfer's row or what hangs on it changed (attached, refunded, dismissed…): the workflow reads it again. */
export const unmatchedTransferChangedSignal = defineSignal('unmatchedTransferChanged');

/** What became of an unmatched transfer, as its workflow reads it (`readUnmatchedFate`). */
export interface UnmatchedFate {
  /** `Unmatched transfer 7 BUSD · wrong amount · from 0x7099…79C8`; empty when the row is missing. */
  title: string;
  status: 'open' | 'attached' | 'refunded' | 'dismissed' | 'reversed' | 'missing';
  /** Attached to an expected payment: it, and its status (`paid` once its checkout recorded the transfer). */
  expectedPayment: { id: string; status: string } | null;
  /** The resolved payment it paid (attached to an expected payment) or topped up (attached to one). */
  resolvedPaymentId: string | null;
  /** Refunded: its latest refund and where it stands. */
  refund: { id: string; status: string } | null;
}

/** The workflow id of an unmatched transfer's announcement. */
export function unmatchedWorkflowId(unmatchedTransferId: string): string {
  return `unmatched-${unmatchedTransferId}`;
}

/** `Unmatched transfer 7 BUSD · duplicate · from 0x7099…79C8`: what it is, never what became of it. */
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
