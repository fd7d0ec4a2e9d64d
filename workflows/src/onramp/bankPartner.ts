/**
 * The bank partner behind onramps, as far as returns go: fiat that an onramp does not use goes back to
 * the account it came from (the partner knows it from the incoming transfer). The sandbox partner
 * accepts every return at once. See docs/area-b-decisions.md.
 */
import { createHash } from 'node:crypto';

/** One return of fiat to the account a deposit came from. */
interface BankReturn {
  /** The idempotency key: the partner returns the money once per key, however often it is asked. */
  key: string;
  onrampId: string;
  /** The deposit returned; null for a failed onramp's whole deposit. */
  depositId: string | null;
  /** Fiat, exact decimal string. */
  amount: string;
  currency: string;
  /** The onramp's deposit reference, quoted back on the return. */
  reference: string;
}

/** The partner's answer to a return. */
type BankReturnOutcome = { status: 'sent'; reference: string } | { status: 'failed'; message: string };

/** A bank partner that returns deposits. */
export interface BankPartner {
  returnFunds(request: BankReturn): Promise<BankReturnOutcome>;
}

/** The sandbox partner: every return is sent, with a reference derived from its key (so a retry gets the same). */
export function createSandboxBankPartner(): BankPartner {
  return {
    async returnFunds(request) {
      const digest = createHash('sha256').update(request.key).digest('hex').slice(0, 12).toUpperCase();
      return { status: 'sent', reference: `RT${digest}` };
    },
  };
}
