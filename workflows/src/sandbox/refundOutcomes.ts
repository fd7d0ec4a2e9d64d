/**
 * A refund's outcome made to happen on its test network: the customer's claim (an address given, as on the
 * claim page), the merchant's transfer (sent from the receiving wallet on a dev chain, which needs no key
 * there, exactly as the refund's payment request asks, and recognised by the chain's watcher), or its claim
 * window ended now (its workflow expires it, as at the window's end). See docs/sandbox.md.
 */
import {
  ApiError,
  type SandboxRefundSimulateBody,
  type SandboxTransaction,
  temporalUnavailable,
} from '@checkout/core';
import { findRefundById, type RefundRow, refundPaymentRequest } from '@checkout/db';
import { type Address, getAddress, type Hex } from 'viem';
import { claimRefund } from '../refund/claim.ts';
import { refundExpireNowSignal, refundWorkflowId } from '../refund/shared.ts';
import { requireDevChain, sendAs } from './devChain.ts';
import { chainOf, refuseLiveNetwork, type SandboxDeps, sentTransaction, settled } from './shared.ts';

/** What a refund's simulation did, and the refund now. */
export interface RefundSimulation {
  transactions: SandboxTransaction[];
  refund: RefundRow;
}

/** Makes `body.outcome` happen for the refund; what it did and the refund as it then stands. */
export async function simulateRefundOutcome(
  deps: SandboxDeps,
  row: RefundRow,
  body: SandboxRefundSimulateBody,
): Promise<RefundSimulation> {
  refuseLiveNetwork('refund', row.token);
  const reread = () => findRefundById(deps.db, row.id);
  const now = async (status: string) =>
    settled(reread, (r) => r?.status === status, `The refund's move to ${status.replace(/_/g, ' ')}`);

  if (body.outcome === 'claimed') {
    const claimed = await claimRefund(deps.db, deps, { row, refundAddress: body.refund_address });
    return { transactions: [], refund: claimed };
  }
  if (body.outcome === 'paid') {
    const request = refundPaymentRequest(row);
    if (row.status !== 'ready_to_pay' || !request) throw standing(row, 'ready to pay');
    const client = await requireDevChain(chainOf(deps, row.chain_id), "paying from the merchant's wallet");
    const receipt = await sendAs(client, getAddress(row.from_address), {
      to: request.transaction.to as Address,
      data: request.transaction.data as Hex,
    });
    const seen = await settled(
      reread,
      (r) => r?.status !== 'ready_to_pay',
      'The recognition of the transfer',
    );
    return { transactions: [sentTransaction(receipt)], refund: seen! };
  }
  if (row.status !== 'awaiting_address') throw standing(row, 'awaiting its address');
  if (!deps.temporal) throw temporalUnavailable('the refund cannot be expired');
  await deps.temporal.workflow.getHandle(refundWorkflowId(row.id)).signal(refundExpireNowSignal);
  return { transactions: [], refund: (await now('expired'))! };
}

/** A 409: the outcome needs a refund standing `needed`. */
function standing(row: RefundRow, needed: string): ApiError {
  return new ApiError(
    'conflict',
    `This refund is ${row.status.replace(/_/g, ' ')}: the outcome needs a refund ${needed}`,
  );
}
