/**
 * Which checkout session a transfer pays: pure rules over what the chain shows (a transaction's input, the
 * token transfers it made) and the keys sessions hold, with no chain or database access. Nothing a session
 * declares (its payer's wallet) takes part. See docs/checkout.md, "Attribution".
 *
 * A transfer pays a session when it goes to the session's own deposit address in the session's token
 * (whatever its amount and input: only that session was ever shown the address), when its transaction's
 * input carries that session's reference (32 random bytes, anywhere in the input: a plain transfer, a swap,
 * a smart account's bundle or a relayer's call), or when it is exactly the amount that session holds of its
 * token (reserved for it alone). Transfers that pay one session add up; a sum short of the price waits for
 * the rest.
 */

/** A transfer into a receiving or deposit address (amount in the token's base units). */
export interface TransferSeen {
  token: string;
  amount: bigint;
  /** Where it went, when the rule needs it (a deposit address). */
  to?: string;
}

/** An amount of a token, in its base units with its decimals. */
export interface TokenAmount {
  amount: bigint;
  decimals: number;
}

/** What identifies a session's payments: its reference and the exact amount it holds, when it holds one. */
export interface SessionKeys {
  sessionId: string;
  /** 64 lowercase hex digits, without `0x`. */
  reference: string;
  /** The product's token. */
  tokenAddress: string;
  /** The session's amount (base units): its reserved amount when `reserved`. */
  amount: bigint;
  /** Whether the session holds `amount` as its own: a transfer of exactly it pays it, whatever its input. */
  reserved: boolean;
  /** The session's own deposit address (lowercase), when it has one: a transfer of its token there pays it. */
  depositAddress: string | null;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A transaction input as the watcher keeps it: lowercase hex without `0x`. */
function normalizedInput(input: string): string {
  return (input.startsWith('0x') || input.startsWith('0X') ? input.slice(2) : input).toLowerCase();
}

/** Whether a transaction's input carries a session's reference, anywhere in it (on a byte boundary). */
export function carriesReference(input: string, reference: string): boolean {
  const hex = normalizedInput(input);
  const ref = normalizedInput(reference);
  for (let at = hex.indexOf(ref); at !== -1; at = hex.indexOf(ref, at + 1)) {
    if (at % 2 === 0) return true;
  }
  return false;
}

/** Longest input whose windows are looked up as references (64 KiB); a longer one is looked at in its first part. */
const maxInputBytes = 65_536;

/**
 * Every 32-byte window of a transaction's input (64 hex digits, at each byte offset): the references it may
 * carry, to look up among the sessions' references.
 */
export function referenceWindows(input: string): string[] {
  const hex = normalizedInput(input).slice(0, maxInputBytes * 2);
  const windows = new Set<string>();
  for (let at = 0; at + 64 <= hex.length; at += 2) windows.add(hex.slice(at, at + 64));
  return [...windows];
}

/**
 * The session a transfer pays among the sessions whose references its transaction carries (`named`) and
 * the one holding exactly its amount or owning its deposit address (`holder`), or null:
 * - into the holder's deposit address: the holder when it is the holder's token, whatever the amount and
 *   whatever the transaction names; else none (another token there is an unmatched transfer);
 * - one session named: that one;
 * - several named (a bundle paying several checkouts): the one of them whose exact amount of the token the
 *   transfer is, when exactly one is; else none (the merchant sees an unmatched transfer);
 * - none named: the session holding exactly its amount of its token, if any.
 */
export function ownerOf(
  transfer: TransferSeen,
  named: readonly SessionKeys[],
  holder: SessionKeys | undefined,
): string | null {
  if (holder?.depositAddress && transfer.to !== undefined && same(transfer.to, holder.depositAddress)) {
    return same(holder.tokenAddress, transfer.token) ? holder.sessionId : null;
  }
  if (named.length === 1) return named[0]!.sessionId;
  if (named.length > 1) {
    const exact = named.filter((s) => same(s.tokenAddress, transfer.token) && s.amount === transfer.amount);
    return exact.length === 1 ? exact[0]!.sessionId : null;
  }
  if (holder?.reserved && same(holder.tokenAddress, transfer.token) && holder.amount === transfer.amount) {
    return holder.sessionId;
  }
  return null;
}

/**
 * Who owns a transfer, and by what (`ownerOf`): `deposit_address` when it went to the owner's deposit
 * address, `reference` when its transaction names sessions, else `amount` (exactly the amount the owner
 * holds); null when no session does.
 */
export function ownershipOf(
  transfer: TransferSeen,
  named: readonly SessionKeys[],
  holder: SessionKeys | undefined,
): { id: string; by: 'deposit_address' | 'reference' | 'amount' } | null {
  const id = ownerOf(transfer, named, holder);
  if (id === null) return null;
  const deposit =
    holder?.depositAddress && transfer.to !== undefined && same(transfer.to, holder.depositAddress);
  return { id, by: deposit ? 'deposit_address' : named.length > 0 ? 'reference' : 'amount' };
}

/** The statuses in which a session may still take a transfer it owns (expired: within its scan window). */
export const takingStatuses: ReadonlySet<string> = new Set(['awaiting_payment', 'confirming', 'expired']);

/**
 * Among session rows into one address, the one whose deposit address `transfer` went to, else the one
 * holding exactly its amount of its token, if any.
 */
export function holderOf<S extends Parameters<typeof keysOf>[0]>(
  sessions: readonly S[],
  transfer: TransferSeen,
): S | undefined {
  const to = transfer.to;
  const depositOwner =
    to === undefined ? undefined : sessions.find((s) => s.deposit_address && same(s.deposit_address, to));
  if (depositOwner) return depositOwner;
  return sessions.find(
    (s) =>
      s.amount_tail !== null &&
      same(s.expected_token.address, transfer.token) &&
      BigInt(s.expected_token_amount) === transfer.amount,
  );
}

/** A transfer a session owns, in chain order, with when the watcher recorded it (epoch milliseconds). */
export interface OwnedTransfer extends TransferSeen, TokenAmount {
  txHash: string;
  seenAt: number;
}

/** What a session's owned transfers settle. */
export type Settlement =
  /** Nothing for it yet. */
  | { kind: 'none' }
  /** Short of the price: wait until `at` for the rest. */
  | { kind: 'wait'; at: number }
  /** Paid (or short, once the wait is over): `main` is checked and recorded, `parts` add to it. */
  | { kind: 'pay'; main: string; parts: string[]; short: boolean };

/** `a` scaled to `decimals` (all accepted tokens are USD stablecoins, at 1:1). */
function scaledTo(a: TokenAmount, decimals: number): bigint {
  return decimals >= a.decimals
    ? a.amount * 10n ** BigInt(decimals - a.decimals)
    : a.amount / 10n ** BigInt(a.decimals - decimals);
}

/**
 * How a session's owned transfers (in chain order) settle it: the transfers of one token add up, and the
 * first transfer whose token's running sum reaches the price is the main one, the earlier ones of that
 * token its parts. Short of the price, the session waits `shortWaitMs` from the first transfer (until
 * `latest` at most, its expiry), then takes the token with the largest sum short. A stranger's dust carrying
 * a copied reference therefore never settles a session before its shopper's payment arrives.
 */
export function settlementOf(
  owned: readonly OwnedTransfer[],
  price: TokenAmount,
  now: number,
  shortWaitMs: number,
  latest: number | null,
): Settlement {
  if (owned.length === 0) return { kind: 'none' };
  const byToken = new Map<string, OwnedTransfer[]>();
  for (const transfer of owned) {
    const token = transfer.token.toLowerCase();
    byToken.set(token, [...(byToken.get(token) ?? []), transfer]);
  }
  const decimals = Math.max(price.decimals, ...owned.map((t) => t.decimals));
  const target = scaledTo(price, decimals);
  let best: { sum: bigint; transfers: OwnedTransfer[] } | undefined;
  for (const transfers of byToken.values()) {
    let sum = 0n;
    for (const [i, transfer] of transfers.entries()) {
      sum += scaledTo(transfer, decimals);
      if (sum >= target) {
        const reached = transfers.slice(0, i + 1);
        const main = reached.at(-1)!;
        return { kind: 'pay', main: main.txHash, parts: partsOf(reached), short: false };
      }
    }
    if (!best || sum > best.sum) best = { sum, transfers };
  }
  const firstSeen = Math.min(...owned.map((t) => t.seenAt));
  const at = Math.min(firstSeen + shortWaitMs, latest ?? Number.POSITIVE_INFINITY);
  if (now < at) return { kind: 'wait', at };
  const transfers = best!.transfers;
  return { kind: 'pay', main: transfers.at(-1)!.txHash, parts: partsOf(transfers), short: true };
}

/** The distinct hashes of all but the last transfer, other than the last one's. */
function partsOf(transfers: readonly OwnedTransfer[]): string[] {
  const main = transfers.at(-1)!.txHash;
  return [...new Set(transfers.slice(0, -1).map((t) => t.txHash))].filter((h) => h !== main);
}

/** A session's claim on a transaction its hash names: its keys, and from which block on it counts. */
export interface HashTerms extends Omit<SessionKeys, 'sessionId'> {
  /** The first block the session counts from (after the chain's head as last seen when it opened). */
  startBlock: bigint;
  /** When the session opened (epoch milliseconds). */
  openedAt: number;
}

/** What a transaction named by a submitted hash is, as far as attribution goes. */
export interface HashedTransaction {
  /** The transaction's input. */
  input: string;
  /** Null while it is not mined. */
  blockNumber: bigint | null;
  /** The including block's time (epoch milliseconds), when known. */
  blockTimestamp?: number | null;
  /**
   * What it pays the receiving address: once mined, the transfer found (null: none); while pending, the
   * direct `transfer` its input calls, when it is one. Undefined: not known while pending, or not read because
   * the input carries the reference, which decides alone (`refuseKnownHash`, submit.ts).
   */
  paid?: TransferSeen | null;
}

/** Why a hash cannot pay a session. */
export type HashRefusal = 'not_for_session' | 'before_opening';

/**
 * Whether a transaction may pay the session whose hash names it: it must carry the session's reference, or
 * pay exactly the amount the session holds, and be mined from the session's opening on (see
 * {@link minedBeforeOpening}). Anyone can submit any hash, so a hash proves nothing by itself. Null when it
 * may; else why not.
 */
export function refuseHash(session: HashTerms, tx: HashedTransaction): HashRefusal | null {
  if (tx.blockNumber !== null && minedBeforeOpening(session, tx.blockNumber, tx.blockTimestamp ?? null)) {
    return 'before_opening';
  }
  if (carriesReference(tx.input, session.reference)) return null;
  const paid = tx.paid;
  // Read against a deposit address (see `paymentAddressOf`), what it paid there is the session's.
  if (session.depositAddress !== null && paid && same(paid.token, session.tokenAddress)) return null;
  return session.reserved && paid && same(paid.token, session.tokenAddress) && paid.amount === session.amount
    ? null
    : 'not_for_session';
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

/** A session row's keys. */
export function keysOf(session: {
  id: string;
  reference: string;
  amount_tail: string | null;
  deposit_address: string | null;
  expected_token: { address: string };
  expected_token_amount: string;
}): SessionKeys {
  return {
    sessionId: session.id,
    reference: session.reference,
    tokenAddress: session.expected_token.address,
    amount: BigInt(session.expected_token_amount),
    reserved: session.amount_tail !== null,
    depositAddress: session.deposit_address?.toLowerCase() ?? null,
  };
}

/**
 * Where a session's payments arrive, and where its look reads: its deposit address when it has one (the
 * forwarder then moves them to the receiving address), else its receiving address.
 */
export function paymentAddressOf(session: {
  deposit_address: string | null;
  receiving_address: string;
}): string {
  return session.deposit_address ?? session.receiving_address;
}

/** The attribution terms of a session row: its keys, and its opening block and time. */
export function hashTermsOf(
  session: Parameters<typeof keysOf>[0] & { start_block: string; created_at: Date },
): HashTerms {
  const { sessionId: _, ...keys } = keysOf(session);
  return { ...keys, startBlock: BigInt(session.start_block), openedAt: session.created_at.getTime() };
}

/** `a` and `b` scaled to the same decimals. */
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
 * Whether `received` is within `toleranceBps` (hundredths of a percent) of `expected`, above or below: a
 * transfer no session took that close to an order is named near it for the merchant.
 */
export function withinTolerance(expected: TokenAmount, received: TokenAmount, toleranceBps: bigint): boolean {
  const [e, r] = scaled(expected, received);
  const difference = r > e ? r - e : e - r;
  return difference * 10_000n <= e * toleranceBps;
}
