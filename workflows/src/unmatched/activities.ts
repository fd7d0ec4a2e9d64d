/**
 * Activities of unmatched transfers: settling the transfers the chain's watcher recorded that no session
 * took (run after each watcher tick), and the merchant's e-mails of them, in batches, each claimed before it
 * is sent.
 */
import { parseUnits, wireTokenOf } from '@checkout/core';
import {
  findSessionByDepositAddress,
  handOverOf,
  listSessionsAtAddress,
  listSessionsByReferences,
  listUnsettledTransfers,
  type StoredToken,
} from '@checkout/db';
import { holderOf, keysOf, ownershipOf, referenceWindows } from '../checkout/matching.ts';
import { checkoutWorkflowId } from '../checkout/shared.ts';
import { withQueuedCalls } from '../handOver/fromActivity.ts';
import type { WorkerResources } from '../resources.ts';
import { classifyTransfer, defaultMatchTolerancePercent, type SessionAround } from './classify.ts';
import { emailUnmatchedTransfer } from './email.ts';
import { readUnmatchedFate } from './fate.ts';
import { recordUnmatchedTransfer } from './record.ts';

/** What the unmatched-transfer activities need. */
export interface UnmatchedActivityDeps extends Pick<WorkerResources, 'db' | 'secrets' | 'tokens' | 'mailer'> {
  checkout: {
    scanIntervalMs?: number;
    matchTolerancePercent?: number;
    /** The smallest transfer announced one by one, in each token's units (default `"1"`). */
    unmatchedNotifyMinAmount?: string;
    /** The least time between two e-mails about unmatched transfers to one recipient of a merchant. */
    unmatchedEmailIntervalMs?: number;
    sessionTtlMinutes?: number;
    graceMinutes?: number;
  };
}

/** How far back transfers are settled: older ones were settled, or their sessions are long gone. */
const settleHorizonMs = 24 * 3_600_000;

/** Builds the unmatched-transfer activities over their dependencies. */
export function createUnmatchedActivities(deps: UnmatchedActivityDeps) {
  const db = deps.db.kysely;
  const toleranceBps = BigInt(
    Math.round((deps.checkout.matchTolerancePercent ?? defaultMatchTolerancePercent) * 100),
  );
  const windows = {
    sessionTtlMinutes: deps.checkout.sessionTtlMinutes ?? 1440,
    graceMinutes: deps.checkout.graceMinutes ?? 60,
  };
  // A session holding a transfer's exact amount takes it at its next look; a little more is left to it.
  const margin = Math.max(5_000, 3 * (deps.checkout.scanIntervalMs ?? 1_000));
  const tokenOf = (chainId: number, address: string): StoredToken | undefined => {
    const t = deps.tokens.findPaymentToken(chainId, address);
    return t ? wireTokenOf(t) : undefined;
  };

  return {
    /**
     * Records as unmatched each transfer into a receiving address that no session took and no session can
     * take any more (it names no open session, and is not exactly an amount an open session holds); queues
     * its announcements and makes them. How many were recorded.
     */
    async settleTransfers(input: { chainId: number }): Promise<{ recorded: number }> {
      return withQueuedCalls(db, () => settle(input.chainId));
    },

    /**
     * E-mails the merchant of an unmatched transfer, in a batch with the others waiting for an e-mail to that
     * address (`emailUnmatchedTransfer`, ./email.ts).
     */
    sendUnmatchedTransferEmail: (input: { unmatchedTransferId: string }) =>
      emailUnmatchedTransfer(deps, input),

    /** What became of the transfer: its status, and the expected payment or refund it now hangs on. */
    readUnmatchedFate: (input: { unmatchedTransferId: string }) => readUnmatchedFate(db, input),
  };

  /**
   * Whether the session holding a transfer's exact amount has had its look at it: a margin after the transfer
   * was seen and after Temporal last took a call of its checkout, none of which still waits (a checkout opened
   * while Temporal was away starts only when the hand-over brings it there).
   */
  async function reservedLookDone(
    seenAt: Date,
    ownerId: string,
    rows: readonly { id: string; expected_payment_id: string }[],
  ): Promise<boolean> {
    const session = rows.find((r) => r.id === ownerId);
    if (!session) return Date.now() >= seenAt.getTime() + margin;
    const handOver = await handOverOf(db, checkoutWorkflowId(session.expected_payment_id));
    if (handOver.waiting) return false;
    const from = Math.max(seenAt.getTime(), handOver.lastTakenAt?.getTime() ?? 0);
    return Date.now() >= from + margin;
  }

  /** Settles what the watcher recorded on the chain; how many transfers were recorded as unmatched. */
  async function settle(chainId: number): Promise<{ recorded: number }> {
    const now = Date.now();
    let recorded = 0;
    for (const transfer of await listUnsettledTransfers(db, {
      chainId,
      since: new Date(now - settleHorizonMs),
    })) {
      const token = tokenOf(chainId, transfer.token_address);
      if (!token) continue;
      const rows = await listSessionsAtAddress(db, {
        chainId: chainId,
        receivingAddress: transfer.to_address,
        ...windows,
      });
      const named = await listSessionsByReferences(db, {
        chainId,
        receivingAddress: transfer.to_address,
        references: referenceWindows(transfer.tx_input),
      });
      const seen = {
        token: transfer.token_address,
        amount: BigInt(transfer.amount),
        to: transfer.to_address,
      };
      const holder = holderOf(rows, seen);
      // Into a deposit address: its session, whatever its window (past it, the session takes nothing but
      // the transfer is still its own, and the address still sweeps to the merchant).
      const depositSession =
        rows.find((s) => s.deposit_address === transfer.to_address) ??
        (await findSessionByDepositAddress(db, { chainId, address: transfer.to_address }));
      const depositOf = depositSession?.id;
      const owner = ownershipOf(seen, named.map(keysOf), holder ? keysOf(holder) : undefined);
      const sessions = depositSession && !rows.includes(depositSession) ? [...rows, depositSession] : rows;
      const around: SessionAround[] = sessions.map((s) => ({
        id: s.id,
        payer: s.sender_address?.toLowerCase() ?? null,
        status: s.status,
        reserved: s.amount_tail !== null,
        tokenAddress: s.expected_token.address,
        resolvedPaymentId: s.resolved_payment_id,
        amount: BigInt(s.expected_token_amount),
        decimals: s.expected_token.decimal_count,
      }));
      const classification = classifyTransfer(
        {
          from: transfer.from_address,
          txFrom: transfer.tx_from,
          owner,
          named: named.map((s) => s.id),
          ...(depositOf ? { depositOf } : {}),
          tokenAddress: transfer.token_address,
          amount: BigInt(transfer.amount),
          decimals: token.decimal_count,
        },
        around,
        toleranceBps,
      );
      // A session that takes it by the rules takes it, however long its look takes (a worker may be away).
      if (classification.wait === 'session') continue;
      if (classification.wait === 'reserved' && !(await reservedLookDone(transfer.seen_at, owner!.id, rows)))
        continue;
      const near = classification.near.flatMap((s) => sessions.filter((r) => r.id === s.id));
      const notify =
        BigInt(transfer.amount) >=
        parseUnits(deps.checkout.unmatchedNotifyMinAmount ?? '1', token.decimal_count);
      const id = await recordUnmatchedTransfer(db, deps.secrets, {
        notify,
        transfer,
        ...(depositSession
          ? { depositSession: { id: depositSession.id, receivingAddress: depositSession.receiving_address } }
          : {}),
        token,
        merchantId: transfer.merchant_id,
        classification,
        near,
      });
      if (id) recorded += 1;
    }
    return { recorded };
  }
}

/** The unmatched-transfer activities' type, for `proxyActivities`. */
export type UnmatchedActivities = ReturnType<typeof createUnmatchedActivities>;
