/**
 * The look's step: among the transfers the chain's watcher recorded into the session's receiving address
 * (or its deposit address, when it has one) since it opened, those the session owns (`ownerOf`,
 * ./matching.ts: every one of its token into its deposit address, its reference in their transaction's
 * input, or exactly its reserved amount), added up (`settlementOf`) and claimed for it. Reads the database
 * only.
 */
import {
  claimTransaction,
  listSessionsByReferences,
  listTransfersFor,
  listTransfersInto,
} from '@checkout/db';
import { getAddress } from 'viem';
import { type CheckoutActivityDeps, checkoutLookups } from './activityDeps.ts';
import { keysOf, type OwnedTransfer, ownerOf, referenceWindows, settlementOf } from './matching.ts';

/** What the look found: the transaction to check with the parts that add to it, or when to look again. */
export interface PaymentMatch {
  txHash: string | null;
  /** Earlier transfers of the same payment (claimed for the session): their amounts add to `txHash`'s. */
  parts: string[];
  /** True when the sum is short of the price and the wait for the rest is over: it resolves underpaid. */
  short: boolean;
  /** When to look again although nothing new was recorded (the end of a short payment's wait). */
  retryAt: number | null;
}

const nothing: PaymentMatch = { txHash: null, parts: [], short: false, retryAt: null };

/** Builds the matching step over its dependencies. */
export function createMatchingSteps(deps: CheckoutActivityDeps) {
  const { db, acceptedTokens, sessionOf } = checkoutLookups(deps);

  return {
    /**
     * Claims for the session the transfers it owns once they add up to its price (or, short, once the wait
     * for the rest is over) and returns the one to check; `retryAt` while a short sum waits.
     */
    async matchPayment(input: {
      sessionId: string;
      chainId: number;
      /** Hashes the session checked and refused. */
      exclude?: string[];
    }): Promise<PaymentMatch> {
      const session = await sessionOf(input.sessionId);
      if (session.status === 'closed') return nothing;
      const keys = keysOf(session);
      const exclude = new Set(input.exclude ?? []);
      const decimalsOf = new Map(
        acceptedTokens(session.chain_id).map((t) => [t.address.toLowerCase(), t.decimals] as const),
      );
      const rows = session.deposit_address
        ? await listTransfersInto(db, {
            chainId: session.chain_id,
            to: session.deposit_address,
            tokens: [session.expected_token.address],
            sinceBlock: BigInt(session.start_block),
          })
        : await listTransfersFor(db, {
            chainId: session.chain_id,
            to: session.receiving_address,
            tokens: [...new Set([session.expected_token.address, session.payment_token_address])],
            sinceBlock: BigInt(session.start_block),
            reference: session.reference,
            exact: keys.reserved ? { token: keys.tokenAddress, amount: keys.amount.toString() } : null,
          });
      const candidates = rows
        .filter((row) => !exclude.has(row.tx_hash) && decimalsOf.has(row.token_address))
        .map((row) => ({ row, windows: new Set(referenceWindows(row.tx_input)) }));
      // Every session the candidates' transactions name, in one read.
      const sessions = (
        await listSessionsByReferences(db, {
          chainId: session.chain_id,
          receivingAddress: session.receiving_address,
          references: [...new Set(candidates.flatMap((c) => [...c.windows]))],
        })
      ).map(keysOf);
      const owned: OwnedTransfer[] = [];
      for (const { row, windows } of candidates) {
        const decimals = decimalsOf.get(row.token_address) as number;
        const named = sessions.filter((s) => windows.has(s.reference));
        const transfer = {
          token: getAddress(row.token_address),
          amount: BigInt(row.amount),
          to: row.to_address,
        };
        if (ownerOf(transfer, named, keys) !== session.id) continue;
        owned.push({ ...transfer, decimals, txHash: row.tx_hash, seenAt: row.seen_at.getTime() });
      }
      const settlement = settlementOf(
        owned,
        { amount: keys.amount, decimals: session.expected_token.decimal_count },
        Date.now(),
        deps.checkout.shortPaymentWaitMs,
        session.expires_at?.getTime() ?? null,
      );
      if (settlement.kind === 'none') return nothing;
      if (settlement.kind === 'wait') return { ...nothing, retryAt: settlement.at };
      const claim = (txHash: string) =>
        claimTransaction(db, { chainId: input.chainId, txHash, sessionId: input.sessionId });
      const main = await claim(settlement.main);
      if (main !== 'claimed' && main !== 'already_this_session') return nothing;
      const parts: string[] = [];
      for (const part of settlement.parts) {
        const claimed = await claim(part);
        if (claimed === 'claimed' || claimed === 'already_this_session') parts.push(part);
      }
      return { txHash: settlement.main, parts, short: settlement.short, retryAt: null };
    },
  };
}
