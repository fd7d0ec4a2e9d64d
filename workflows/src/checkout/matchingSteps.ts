/**
 * The closed-tab look's step: among the transfers the chain's watcher recorded into the session's receiving
 * address since it opened, the one the session takes (`candidatesFor`, ./matching.ts), claimed for it. A
 * transfer the payer's element may still submit waits out the claim delay, counted from when the watcher
 * recorded it; a session's own reserved amount is taken at once. Reads the database only.
 */
import {
  claimTransaction,
  listOtherOpenSessionsOfPayer,
  listPaymentAmountReservations,
  listTransfersInto,
} from '@checkout/db';
import { getAddress } from 'viem';
import { type CheckoutActivityDeps, checkoutLookups, type Session } from './activityDeps.ts';
import { type Candidate, candidatesFor } from './matching.ts';

/** The default tolerance of a payer's transfer to its one order, in percent. */
export const defaultMatchTolerancePercent = 5;

/** Builds the matching step over its dependencies. */
export function createMatchingSteps(deps: CheckoutActivityDeps) {
  const { db, acceptedTokens } = checkoutLookups(deps);
  const toleranceBps = BigInt(
    Math.round((deps.checkout.matchTolerancePercent ?? defaultMatchTolerancePercent) * 100),
  );

  /** The session's candidates, in chain order, and the reference amounts of its payer's other orders. */
  const recorded = async (session: Session, exclude: ReadonlySet<string>) => {
    const payer = session.sender_address?.toLowerCase() ?? null;
    const decimalsOf = new Map(
      acceptedTokens(session.chain_id).map((t) => [t.address.toLowerCase(), t.decimals] as const),
    );
    const rows = await listTransfersInto(db, {
      chainId: session.chain_id,
      to: session.receiving_address,
      tokens: [...new Set([session.expected_token.address, session.payment_token_address])],
      sinceBlock: BigInt(session.start_block),
    });
    const found: (Candidate & { seenAt: Date })[] = rows
      .filter((r) => !exclude.has(r.tx_hash) && decimalsOf.has(r.token_address))
      .map((r) => ({
        txHash: r.tx_hash,
        token: getAddress(r.token_address),
        amount: BigInt(r.amount),
        decimals: decimalsOf.get(r.token_address) as number,
        byPayer: payer !== null && (r.from_address === payer || r.tx_from === payer),
        seenAt: r.seen_at,
      }));
    const others = payer
      ? await listOtherOpenSessionsOfPayer(db, {
          chainId: session.chain_id,
          receivingAddress: session.receiving_address,
          senderAddress: payer,
          exceptSessionId: session.id,
        })
      : [];
    return {
      found,
      others: others.map((o) => ({
        amount: BigInt(o.expected_token_amount),
        decimals: o.expected_token.decimal_count,
      })),
    };
  };

  return {
    /**
     * Claims for the session the transfer it takes and returns its hash; `retryAt` when the best one still
     * waits out its claim delay; neither when none is the session's.
     */
    async matchPayment(input: {
      sessionId: string;
      chainId: number;
      /** Hashes the session checked and refused. */
      exclude?: string[];
    }): Promise<{ txHash: string | null; retryAt: number | null }> {
      const { sessionOf } = checkoutLookups(deps);
      const session = await sessionOf(input.sessionId);
      if (session.status === 'closed') return { txHash: null, retryAt: null };
      const { found, others } = await recorded(session, new Set(input.exclude ?? []));
      const held = await listPaymentAmountReservations(db, {
        chainId: input.chainId,
        receivingAddress: session.receiving_address,
      });
      const reserved = session.amount_tail !== null;
      const { exact, near } = candidatesFor(
        {
          sessionId: session.id,
          hasPayer: session.sender_address !== null,
          tokenAddress: session.expected_token.address,
          amount: BigInt(session.expected_token_amount),
          decimals: session.expected_token.decimal_count,
          reserved,
        },
        found,
        others,
        held,
        toleranceBps,
      );
      for (const transfer of [...exact, ...near]) {
        // A reserved amount is this session's alone: no element hash to wait for, so no claim delay.
        const delay = reserved && exact.includes(transfer) ? 0 : deps.checkout.scanClaimDelayMs;
        const claimableAt = transfer.seenAt.getTime() + delay;
        if (Date.now() < claimableAt) return { txHash: null, retryAt: claimableAt };
        const claim = await claimTransaction(db, {
          chainId: input.chainId,
          txHash: transfer.txHash,
          sessionId: input.sessionId,
        });
        if (claim === 'claimed' || claim === 'already_this_session')
          return { txHash: transfer.txHash, retryAt: null };
        if (claim === 'session_closed') break;
      }
      return { txHash: null, retryAt: null };
    },
  };
}
