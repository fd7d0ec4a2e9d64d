/**
 * Which checkout session a transfer pays, when its sender is unknown: pure rules over what a scan found
 * and the amounts sessions hold, with no chain or database access.
 *
 * A session opened without a payer (paid from another device) holds an amount no other open session
 * paying the same address and token holds: its price plus a small tail. A transfer of exactly that amount
 * of that token into that address pays it, whoever sends it; any other amount pays no such session.
 */

/** A transfer into a receiving address, as a scan found it (amount in the token's base units).
 * @internal unit-tested on its own
 */
export interface TransferSeen {
  token: string;
  amount: bigint;
}

/** What a session paid from another device expects: its token and exact amount, and whether it holds it.
 * @internal unit-tested on its own
 */
export interface PayerlessTerms {
  /** The product's token the transfer must be in. */
  tokenAddress: string;
  /** The session's amount, price and tail included (base units). */
  amount: bigint;
  /** Whether the session holds a reserved amount: only then may a transfer from anyone pay it. */
  reserved: boolean;
}

/** An amount some session holds (see `checkout_payment_amounts`). */
export interface AmountHeld {
  tokenAddress: string;
  amount: bigint;
  sessionId: string;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * True when `transfer` pays the session whatever its sender: the session holds a reserved amount, and
 * the transfer is exactly that amount of its token. Nothing is scaled or rounded: another token, or
 * one base unit more or less, does not match.
 * @internal unit-tested on its own
 */
export function matchesPayerlessSession(session: PayerlessTerms, transfer: TransferSeen): boolean {
  return session.reserved && same(session.tokenAddress, transfer.token) && transfer.amount === session.amount;
}

/**
 * The one session a transfer belongs to by its amount, or null: amounts are reserved one session each
 * per (chain, receiving address, token), so at most one held amount is exactly the transfer's.
 * @internal unit-tested on its own
 */
export function sessionHoldingAmount(transfer: TransferSeen, held: readonly AmountHeld[]): string | null {
  return (
    held.find((h) => same(h.tokenAddress, transfer.token) && h.amount === transfer.amount)?.sessionId ?? null
  );
}

/**
 * Whether a session may take `transfer` as a fallback (an under- or overpayment of its payer): never when
 * the transfer is exactly the amount another session holds, since that transfer pays that session.
 * @internal unit-tested on its own
 */
export function mayTakeAsFallback(
  sessionId: string,
  transfer: TransferSeen,
  held: readonly AmountHeld[],
): boolean {
  const holder = sessionHoldingAmount(transfer, held);
  return holder === null || holder === sessionId;
}

/** A session's claim on a transaction its hash names: who may have sent it, and from which block on. */
export interface HashTerms extends PayerlessTerms {
  /** The session's payer (lowercase), or null for a session paid from another device. */
  payer: string | null;
  /** The first block the session counts from (after the chain's head as last seen when it opened). */
  startBlock: bigint;
  /** When the session opened (epoch milliseconds). */
  openedAt: number;
}

/** What a transaction named by a submitted hash is, as far as attribution goes. */
export interface HashedTransaction {
  /** The transaction's sender: the payer, also of a swap. */
  from: string;
  /** Null while it is not mined. */
  blockNumber: bigint | null;
  /** The including block's time (epoch milliseconds), when known. */
  blockTimestamp?: number | null;
  /** What it paid the receiving address, once mined and known. */
  paid?: TransferSeen | null;
}

/** Why a hash cannot pay a session. */
export type HashRefusal = 'other_payer' | 'before_opening';

/**
 * Whether a transaction may pay the session whose hash names it: it must be sent by the session's payer
 * (the transaction's sender, which covers swaps), or be exactly the session's reserved amount, and be
 * mined from the session's opening on (see {@link minedBeforeOpening}). A hash is evidence of who paid only when its sender is the payer:
 * anyone can submit any hash, since transfers are public. Null when it may; else why not. `paid` is absent
 * while the transaction's payment is not known yet (it is not mined): another sender's hash then waits
 * for it only where a reserved amount could make it this session's.
 */
export function refuseHash(session: HashTerms, tx: HashedTransaction): HashRefusal | null {
  if (tx.blockNumber !== null && minedBeforeOpening(session, tx.blockNumber, tx.blockTimestamp ?? null)) {
    return 'before_opening';
  }
  if (session.payer !== null && same(session.payer, tx.from)) return null;
  // Another sender can pay only a reserved amount, and only to a session that could have been handed
  // that hash by its own shopper: a session without a payer is paid by its amount alone.
  if (tx.paid === undefined) return session.reserved && session.payer !== null ? null : 'other_payer';
  return tx.paid !== null && matchesPayerlessSession(session, tx.paid) ? null : 'other_payer';
}

/**
 * Whether a block is older than the session: before its first block, or stamped before the second the
 * session opened in. The first block comes from the head the chain's watcher last saw, up to a tick old, so
 * the block's time settles what that tick leaves open (block times are whole seconds).
 * @internal unit-tested on its own
 */
export function minedBeforeOpening(
  session: Pick<HashTerms, 'startBlock' | 'openedAt'>,
  blockNumber: bigint,
  blockTimestamp: number | null,
): boolean {
  if (blockNumber < session.startBlock) return true;
  return blockTimestamp !== null && blockTimestamp < Math.floor(session.openedAt / 1000) * 1000;
}

/** The attribution terms of a session row: its payer, opening block and time, and reserved amount. */
export function hashTermsOf(session: {
  sender_address: string | null;
  start_block: string;
  created_at: Date;
  amount_tail: string | null;
  expected_token: { address: string };
  expected_token_amount: string;
}): HashTerms {
  return {
    payer: session.sender_address?.toLowerCase() ?? null,
    startBlock: BigInt(session.start_block),
    openedAt: session.created_at.getTime(),
    tokenAddress: session.expected_token.address,
    amount: BigInt(session.expected_token_amount),
    reserved: session.amount_tail !== null,
  };
}

/** An amount of a token, in its base units with its decimals. */
export interface TokenAmount {
  amount: bigint;
  decimals: number;
}

/** `a` and `b` scaled to the same decimals (all accepted tokens are USD stablecoins, at 1:1). */
function scaled(a: TokenAmount, b: TokenAmount): [bigint, bigint] {
  const d = Math.max(a.decimals, b.decimals);
  return [a.amount * 10n ** BigInt(d - a.decimals), b.amount * 10n ** BigInt(d - b.decimals)];
}

/** Whether `received` is exactly `expected`, across decimals, never rounded. */
export function sameValue(expected: TokenAmount, received: TokenAmount): boolean {
  const [e, r] = scaled(expected, received);
  return e === r;
}

/**
 * Whether `received` is within `toleranceBps` (hundredths of a percent) of `expected`, above or below:
 * a transfer that close to an order can be that order's short or rounded payment.
 */
export function withinTolerance(expected: TokenAmount, received: TokenAmount, toleranceBps: bigint): boolean {
  const [e, r] = scaled(expected, received);
  const difference = r > e ? r - e : e - r;
  return difference * 10_000n <= e * toleranceBps;
}

/** A recorded transfer a session might take. */
export interface Candidate extends TransferSeen, TokenAmount {
  txHash: string;
  /** Whether the session's payer sent it (the log's or the transaction's sender). */
  byPayer: boolean;
}

/** What a session expects: its amount (price and tail) in the product's token, and whether it holds it. */
export interface OrderTerms extends PayerlessTerms {
  decimals: number;
}

/**
 * The transfers a session may take, best first, by the rules of certain attribution (docs/checkout.md,
 * "Money that does not match"):
 * 1. exactly its amount: its payer's (across stablecoins, scaled, never rounded), or anyone's when the
 *    session holds that amount (paid from another device) — `exact`;
 * 2. otherwise its payer's transfer within the tolerance of its amount, when the amount leaves no doubt:
 *    no other open order of the same payer into the address is within the tolerance of it (or exactly it),
 *    and it is not exactly an amount another session holds.
 * Anything else is taken by no session: it becomes an unmatched transfer the merchant sees.
 */
export function candidatesFor<T extends Candidate>(
  order: OrderTerms & { sessionId: string; hasPayer: boolean },
  found: readonly T[],
  others: readonly TokenAmount[],
  held: readonly AmountHeld[],
  toleranceBps: bigint,
): { exact: T[]; near: T[] } {
  const own = { amount: order.amount, decimals: order.decimals };
  const exact = found.filter((t) =>
    t.byPayer ? sameValue(own, t) || matchesPayerlessSession(order, t) : matchesPayerlessSession(order, t),
  );
  if (exact.length > 0 || !order.hasPayer) return { exact, near: [] };
  const near = found.filter(
    (t) =>
      t.byPayer &&
      withinTolerance(own, t, toleranceBps) &&
      mayTakeAsFallback(order.sessionId, t, held) &&
      !others.some((o) => withinTolerance(o, t, toleranceBps)),
  );
  return { exact, near };
}
