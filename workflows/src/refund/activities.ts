/**
 * Activities of the `refund` workflow: reading the refund, its e-mails (emails.ts, claimed before they are
 * sent), its expiry at the end of the claim window, the look at a sent refund's transaction until it
 * is confirmed (confirm.ts), and at its part payments until they are deep enough (partPayments.ts). The chain's watcher recognises the transfer (recognise.ts).
 */
import { formatUnits } from '@checkout/core';
import { findRefundById, type RefundRowStatus } from '@checkout/db';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { withQueuedCalls } from '../handOver/fromActivity.ts';
import type { WorkerResources } from '../resources.ts';
import { changeRefund } from './change.ts';
import { checkSentRefund, type RefundConfirmation } from './confirm.ts';
import { createRefundEmailSteps } from './emails.ts';
import { checkPartPayments, type PartPaymentsCheck } from './partPayments.ts';

/** What the refund activities need. */
export interface RefundActivityDeps extends WorkerResources {
  checkout: { pollIntervalMs: number };
}

/** A refund as its workflow sees it (strings only across the workflow's boundary). */
export interface RefundView {
  status: RefundRowStatus;
  /** In token units. */
  amount: string;
  tokenSymbol: string;
  chainId: number;
  resolvedPaymentId: string | null;
  unmatchedTransferId: string | null;
  txHash: string | null;
  /** Base units the transfers recorded against it add up to ("0" before any). */
  paidAmount: string;
  /** ISO 8601. */
  createdAt: string;
  claimExpiresAt: string;
}

/** Builds the refund activities over their dependencies. */
export function createRefundActivities(deps: RefundActivityDeps) {
  const db = deps.db.kysely;
  const steps = { secrets: deps.secrets, publicBaseUrl: deps.publicBaseUrl };
  const rowOf = async (refundId: string) => {
    const row = await findRefundById(db, refundId);
    if (!row) throw ApplicationFailure.nonRetryable('refund not found', 'refund_not_found');
    return row;
  };

  return {
    ...createRefundEmailSteps(deps),

    /** The refund as it stands. */
    async readRefund(input: { refundId: string }): Promise<RefundView> {
      const row = await rowOf(input.refundId);
      return {
        status: row.status,
        amount: formatUnits(BigInt(row.amount), row.token.decimal_count),
        tokenSymbol: row.token.symbol,
        chainId: row.chain_id,
        resolvedPaymentId: row.resolved_payment_id,
        unmatchedTransferId: row.unmatched_transfer_id,
        txHash: row.tx_hash,
        paidAmount: row.paid_amount,
        createdAt: row.created_at.toISOString(),
        claimExpiresAt: row.claim_expires_at.toISOString(),
      };
    },

    /**
     * Ends the claim window of a refund still waiting for an address (the workflow's timer decides when):
     * `expired`, with its webhook. Its status after the call.
     */
    async expireRefund(input: { refundId: string }): Promise<{ status: RefundRowStatus }> {
      return withQueuedCalls(db, async () => {
        const expired = await changeRefund(db, steps, {
          refundId: input.refundId,
          to: 'expired',
        });
        return { status: expired?.status ?? (await rowOf(input.refundId)).status };
      });
    },

    /**
     * Looks once at a sent refund's transaction: confirmed once the chain's confirmations are there (with
     * what it gives back to a resolved payment), else how many it has and when to look again.
     */
    async checkRefundConfirmation(input: { refundId: string }): Promise<RefundConfirmation> {
      const row = await rowOf(input.refundId);
      if (row.status !== 'sent') return { status: 'moved_on' };
      const chain = deps.chains.get(row.chain_id);
      if (!chain) {
        Context.current().log.warn('the chain of a sent refund is not configured', { ...input });
        return { status: 'sent', confirmations: 0, required: 0, waitMs: 5 * 60_000 };
      }
      const look = { db, ...steps, pollIntervalMs: deps.checkout.pollIntervalMs };
      return withQueuedCalls(db, async () => {
        // Its part payments first: one that left the chain makes it ready to pay again; none unsettled confirms.
        const parts = await checkPartPayments(look, chain, row);
        if (parts.forgotten) return { status: 'ready_to_pay' };
        return checkSentRefund(look, chain, row, { holdConfirmation: parts.unsettled > 0 });
      });
    },

    /**
     * Looks once at the part payments of a refund still ready to pay: one a reorganisation took away is
     * forgotten (its amount due again); how many are not yet deep enough, and when to look again.
     */
    async checkRefundPartPayments(input: { refundId: string }): Promise<PartPaymentsCheck> {
      const row = await rowOf(input.refundId);
      const chain = deps.chains.get(row.chain_id);
      if (row.status !== 'ready_to_pay' || !chain) return { unsettled: 0, forgotten: false, waitMs: 0 };
      const look = { db, ...steps, pollIntervalMs: deps.checkout.pollIntervalMs };
      return withQueuedCalls(db, () => checkPartPayments(look, chain, row));
    },
  };
}

/** The refund activities' type, for `proxyActivities`. */
export type RefundActivities = ReturnType<typeof createRefundActivities>;
