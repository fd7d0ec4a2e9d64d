/**
 * Which checkout session a transfer pays, when its sender is unknown: pure rules over what a scan found
 * and the amounts sessions hold, with no chain or database access.
 *
 * A session opened without a payer (paid from another device) holds an amount no other open session
 * paying the same address and token holds: its price plus a small tail. A transfer of exactly that amount
 * of that token into that address pays it, whoever sends it; any other amount pays no such session.
 */

/** A transfer into a receiving address, as a scan found it (amount in the token's base units). */
export interface TransferSeen {
  token: string;
  amount: bigint;
}

/** What a session paid from another device expects: its token and exact amount, and whether it holds it. */
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
 */
export function matchesPayerlessSession(session: PayerlessTerms, transfer: TransferSeen): boolean {
  return session.reserved && same(session.tokenAddress, transfer.token) && transfer.amount === session.amount;
}

/**
 * The one session a transfer belongs to by its amount, or null: amounts are reserved one session each
 * per (chain, receiving address, token), so at most one held amount is exactly the transfer's.
 */
export function sessionHoldingAmount(transfer: TransferSeen, held: readonly AmountHeld[]): string | null {
  return (
    held.find((h) => same(h.tokenAddress, transfer.token) && h.amount === transfer.amount)?.sessionId ?? null
  );
}

/**
 * Whether a session may take `transfer` as a fallback (an under- or overpayment of its payer): never when
 * the transfer is exactly the amount another session holds, since that transfer pays that session.
 */
export function mayTakeAsFallback(
  sessionId: string,
  transfer: TransferSeen,
  held: readonly AmountHeld[],
): boolean {
  const holder = sessionHoldingAmount(transfer, held);
  return holder === null || holder === sessionId;
}
