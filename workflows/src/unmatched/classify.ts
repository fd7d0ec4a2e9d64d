/**
 * What a transfer no session took is, by the sessions into the same receiving address around it (pure):
 * whether a session may still take it (so it must wait), why it fits no order, and which sessions it
 * arrived near. See docs/checkout.md, "Money that does not match".
 */
import { sameValue, type TokenAmount, withinTolerance } from '../checkout/matching.ts';

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

/** The transfer: its senders (lowercase), token and amount. */
export interface TransferFacts extends TokenAmount {
  from: string;
  txFrom: string;
  tokenAddress: string;
}

/** What the classification decided. */
export interface Classification {
  /**
   * `session`: an open session of its sender takes it by the matching rules (exactly its amount, or within the
   * tolerance of its one order): it is that session's, however long its look takes; `claim_delay`: its sender
   * has an open session whose element may still submit its hash (within the claim delay); `reserved`: it is
   * exactly an amount an open session holds (that session takes it at once); null: no session can take it.
   */
  wait: 'session' | 'claim_delay' | 'reserved' | null;
  kind: 'duplicate' | 'closed_attempt' | 'wrong_amount' | 'unexpected';
  /** The sessions it arrived near, nearest first. */
  near: SessionAround[];
  /** The order it duplicates. */
  resolvedPaymentId: string | null;
}

const openStatuses = new Set(['awaiting_payment', 'confirming', 'expired']);
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Classifies a transfer among the sessions around it (newest first), with the matching tolerance. */
export function classifyTransfer(
  transfer: TransferFacts,
  sessions: readonly SessionAround[],
  toleranceBps: bigint,
): Classification {
  const senders = [transfer.from, transfer.txFrom].map((a) => a.toLowerCase());
  const own = sessions.filter((s) => s.payer !== null && senders.includes(s.payer));
  const close = (s: SessionAround) => withinTolerance(s, transfer, toleranceBps);
  const reservedFor = sessions.filter(
    (s) =>
      s.reserved &&
      openStatuses.has(s.status) &&
      same(s.tokenAddress, transfer.tokenAddress) &&
      s.amount === transfer.amount,
  );
  const open = own.filter((s) => openStatuses.has(s.status));
  const takes = (s: SessionAround) =>
    sameValue(s, transfer) || (close(s) && open.filter((o) => o !== s && close(o)).length === 0);
  const wait = open.some(takes)
    ? 'session'
    : open.length > 0
      ? 'claim_delay'
      : reservedFor.length > 0
        ? 'reserved'
        : null;
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
      s.payer === null && s.reserved && openStatuses.has(s.status) && close(s) && !sameValue(s, transfer),
  );
  if (nearly.length > 0) return { wait, kind: 'wrong_amount', near: nearly, resolvedPaymentId: null };
  return { wait, kind: 'unexpected', near: sessions.slice(0, 3), resolvedPaymentId: null };
}
