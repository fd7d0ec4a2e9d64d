/**
 * What a transfer no session took is, by the sessions into the same receiving address around it (pure):
 * whether a session may still take it (so it must wait), why it fits no order, and which sessions it
 * arrived near. See docs/checkout.md, "Money that does not match".
 */
import { sameValue, type TokenAmount, takingStatuses, withinTolerance } from '../checkout/matching.ts';

/** The default tolerance within which a transfer no session took is named near an order, in percent. */
export const defaultMatchTolerancePercent = 5;

/** A session into the transfer's receiving address, as the classification needs it. */
export interface SessionAround extends TokenAmount {
  id: string;
  /** The session's payer (lowercase), or null. */
  payer: string | null;
  status: 'awaiting_payment' | 'confirming' | 'resolved' | 'failed' | 'expired' | 'closed';
  /** Whether it holds its amount as a reserved one (paid from another device). */
  reserved: boolean;
  tokenAddress: string;
  resolvedPaymentId: string | null;
}

/** The transfer: its senders (lowercase), token and amount, and the session it pays by the rules. */
export interface TransferFacts extends TokenAmount {
  from: string;
  txFrom: string;
  tokenAddress: string;
  /**
   * The session the transfer pays (`ownerOf`, ../checkout/matching.ts): by its deposit address, by its
   * reference in the transaction's input, or by exactly its reserved amount; null when none.
   */
  owner: { id: string; by: 'deposit_address' | 'reference' | 'amount' } | null;
  /** The sessions whose references its transaction carries. */
  named: readonly string[];
  /** The session whose deposit address it went to, whatever its token; absent for a receiving address. */
  depositOf?: string;
}

/** What the classification decided. */
export interface Classification {
  /**
   * `session`: it carries the reference of an open session, or went to its deposit address, and that
   * session takes it however long its look takes;
   * `reserved`: it is exactly an amount an open session holds (that session takes it at once); null: no
   * session can take it.
   */
  wait: 'session' | 'reserved' | null;
  kind: 'duplicate' | 'closed_attempt' | 'wrong_amount' | 'unexpected';
  /** The sessions it arrived near, nearest first. */
  near: SessionAround[];
  /** The order it duplicates. */
  resolvedPaymentId: string | null;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Classifies a transfer among the sessions around it (newest first), with the matching tolerance. */
export function classifyTransfer(
  transfer: TransferFacts,
  sessions: readonly SessionAround[],
  toleranceBps: bigint,
): Classification {
  const senders = [transfer.from, transfer.txFrom].map((a) => a.toLowerCase());
  const close = (s: SessionAround) => withinTolerance(s, transfer, toleranceBps);
  const owner = transfer.owner ? sessions.find((s) => s.id === transfer.owner?.id) : undefined;
  const wait =
    owner && takingStatuses.has(owner.status)
      ? transfer.owner?.by === 'reference' || transfer.owner?.by === 'deposit_address'
        ? 'session'
        : 'reserved'
      : null;
  // A closed attempt it names, or whose exact amount it is, is the order it really matches.
  const closedNamed = sessions.filter(
    (s) =>
      s.status === 'closed' &&
      (transfer.named.includes(s.id) ||
        (same(s.tokenAddress, transfer.tokenAddress) && sameValue(s, transfer))),
  );
  // A session's own deposit address was shown to that session's shopper alone.
  const own = sessions.filter(
    (s) =>
      transfer.named.includes(s.id) ||
      s.id === transfer.depositOf ||
      (s.payer !== null && senders.includes(s.payer)),
  );
  if (closedNamed.length > 0 && own.some((s) => closedNamed.includes(s))) {
    return {
      wait,
      kind: 'closed_attempt',
      near: closedNamed.filter((s) => own.includes(s)),
      resolvedPaymentId: null,
    };
  }
  const paid = own.filter((s) => (s.status === 'resolved' || s.status === 'failed') && close(s));
  if (paid.length > 0) {
    return { wait, kind: 'duplicate', near: paid, resolvedPaymentId: paid[0]?.resolvedPaymentId ?? null };
  }
  const closed = own.filter((s) => s.status === 'closed' && close(s));
  if (closed.length > 0) return { wait, kind: 'closed_attempt', near: closed, resolvedPaymentId: null };
  if (own.length > 0) return { wait, kind: 'wrong_amount', near: own, resolvedPaymentId: null };
  // From another device: near the sessions paid that way whose amount it nearly is (a rounded QR amount).
  const nearly = sessions.filter(
    (s) =>
      s.payer === null && s.reserved && takingStatuses.has(s.status) && close(s) && !sameValue(s, transfer),
  );
  if (nearly.length > 0) return { wait, kind: 'wrong_amount', near: nearly, resolvedPaymentId: null };
  return { wait, kind: 'unexpected', near: sessions.slice(0, 3), resolvedPaymentId: null };
}
