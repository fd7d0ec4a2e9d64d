/**
 * The checkout's transaction steps: one glance at a hash on arrival, the poll until it is final, the
 * session's progress, and the refusal of a transaction that does not pay the session. A hash pays only its
 * payer's session, from the session's opening on (`refuseHash`); a transfer the merchant attached is theirs.
 */
import { inTransaction, releaseTransaction, reopenUnmatchedClaim, updateSession } from '@checkout/db';
import { Context } from '@temporalio/activity';
import type { Hash } from 'viem';
import { withQueuedCalls } from '../handOver/fromActivity.ts';
import { queueUnmatchedChanged } from '../unmatched/follow.ts';
import { type CheckoutActivityDeps, checkoutLookups, type Session } from './activityDeps.ts';
import { inspectTransaction } from './inspectTransaction.ts';
import type { CheckoutWorkflowStatus, TransactionFacts } from './shared.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A transaction to look at for a session; `attached` when the merchant attached it (no payer rules). */
export interface TransactionTarget {
  sessionId: string;
  chainId: number;
  txHash: string;
  attached?: boolean;
}

/** Builds the transaction steps over their dependencies. */
export function createTransactionSteps(deps: CheckoutActivityDeps) {
  const { db, chainOf, sessionOf, acceptedTokens } = checkoutLookups(deps);
  const inspect = (
    session: Session,
    chain: ReturnType<typeof chainOf>,
    txHash: string,
    knownBlockHash?: Hash,
    attached = false,
  ) =>
    inspectTransaction({
      session,
      chain,
      tokens: acceptedTokens(session.chain_id),
      txHash,
      ...(knownBlockHash ? { knownBlockHash } : {}),
      attached,
    });

  return {
    /** Persists the workflow's view of the session (status, hash, error). */
    async setSessionStatus(input: {
      sessionId: string;
      status: CheckoutWorkflowStatus;
      txHash?: string | null;
      error?: string | null;
    }): Promise<void> {
      await updateSession(db, input.sessionId, {
        status: input.status,
        ...(input.txHash === undefined ? {} : { tx_hash: input.txHash }),
        ...(input.error === undefined ? {} : { error: input.error }),
      });
    },

    /**
     * Refuses a transaction the session checked: the session shows why and awaits payment again (or stays
     * expired), and its claim on the hash is given up in the same transaction, so the checkout the
     * transfer does pay can still take it.
     */
    async refuseTransaction(input: {
      sessionId: string;
      chainId: number;
      txHash: string;
      /** The status the session is back in; null when it stays as it is (an attachment it cannot take). */
      status: 'awaiting_payment' | 'expired' | null;
      error: string | null;
      /** The merchant attached it: it goes back to being an open unmatched transfer. */
      attached?: boolean;
    }): Promise<void> {
      // An attachment given back: its unmatched transfer's workflow is told at once.
      await withQueuedCalls(db, () =>
        inTransaction(db, async (trx) => {
          if (input.status !== null) {
            await updateSession(trx, input.sessionId, {
              status: input.status,
              tx_hash: null,
              error: input.error,
            });
          }
          if (input.attached) await queueUnmatchedChanged(trx, await reopenUnmatchedClaim(trx, input));
          else await releaseTransaction(trx, input);
        }),
      );
    },

    /**
     * One look at the transaction, for the moment its hash arrives: its facts when it is already final
     * (confirmed, reverted, or paying someone else), null while it is unknown or short of confirmations
     * (then {@link awaitTransaction} polls for it).
     */
    async checkTransaction(input: TransactionTarget): Promise<TransactionFacts | null> {
      const session = await sessionOf(input.sessionId);
      const look = await inspect(session, chainOf(input.chainId), input.txHash, undefined, input.attached);
      if (!look.facts || look.facts.status === 'not_found') {
        await updateSession(db, input.sessionId, {
          status: 'confirming',
          tx_hash: input.txHash,
          error: null,
          confirmations: look.confirmations,
        });
      } else if (look.confirmations > 0) {
        await updateSession(db, input.sessionId, { confirmations: look.confirmations });
      }
      return look.facts?.status === 'not_found' ? null : (look.facts ?? null);
    },

    /**
     * Polls the chain until the transaction is final (its confirmations reached) and reports what it
     * did. Heartbeats every poll; a reorganisation is noticed through the remembered block hash.
     */
    async awaitTransaction(input: TransactionTarget): Promise<TransactionFacts> {
      const session = await sessionOf(input.sessionId);
      const chain = chainOf(input.chainId);
      // The API marks submitted hashes itself; a hash the scan found is marked here.
      if (session.status !== 'confirming' || session.tx_hash !== input.txHash) {
        await updateSession(db, input.sessionId, {
          status: 'confirming',
          tx_hash: input.txHash,
          error: null,
        });
      }
      const ctx = Context.current();
      let knownBlockHash = (ctx.info.heartbeatDetails as { blockHash?: Hash } | undefined)?.blockHash;
      let notFoundSince = Date.now();
      let lastConfirmations = -1;
      // Bounded by the activity's start-to-close timeout; the loop itself also stops after a day.
      for (let polls = 0; polls < 1_000_000; polls++) {
        const look = await inspect(session, chain, input.txHash, knownBlockHash, input.attached);
        knownBlockHash = look.blockHash;
        if (look.facts?.status !== 'not_found') notFoundSince = Date.now();
        if (look.confirmations !== lastConfirmations) {
          lastConfirmations = look.confirmations;
          await updateSession(db, input.sessionId, { confirmations: look.confirmations });
        }
        ctx.heartbeat(knownBlockHash ? { blockHash: knownBlockHash } : {});
        if (look.facts && look.facts.status !== 'not_found') return look.facts;
        if (look.facts && Date.now() - notFoundSince > 30 * 60_000) return look.facts;
        await sleep(deps.checkout.pollIntervalMs);
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
      }
      throw new Error('gave up polling the transaction');
    },
  };
}
