/**
 * The fiat payout partner behind offramps, and its sandbox: it settles every payout after a configured
 * delay, except destination amounts whose cents are `.13` (the bank bounces the first attempt; a resend
 * is paid) or `.66` (the partner fails it). See docs/area-b-decisions.md.
 */
import { fiatDecimals, normalizeDecimal, parseUnits } from '@checkout/core';
import type { OfframpRow } from '@checkout/db';

/** The partner's final word on one payout. */
export type PayoutOutcome = { status: 'fiat_sent' } | { status: 'bounced' | 'failed'; message: string };

/** A fiat payout partner. */
export interface PayoutPartner {
  /**
   * Hands the payout over; returns how long to wait before asking for its outcome. A retried activity
   * calls it again with the same `key` ({@link payoutKey}): the partner must pay each key once.
   */
  submit(offramp: OfframpRow, key: string): Promise<{ settleAfterMs: number }>;
  /** The payout's outcome. */
  outcome(offramp: OfframpRow): Promise<PayoutOutcome>;
}

/** The idempotency key of an offramp's current payout attempt: one payment per attempt, however often submitted. */
export function payoutKey(offramp: Pick<OfframpRow, 'id' | 'payout_attempts'>): string {
  return `${offramp.id}:payout:${offramp.payout_attempts}`;
}

/** Cents of a destination amount that make the sandbox partner bounce or fail a payout. */
export const sandboxPayoutMagicCents = { bounced: 13n, failed: 66n } as const;

/** The sandbox partner: deterministic outcomes from the destination amount's cents. */
export function createSandboxPayoutPartner(options: { delayMs: number }): PayoutPartner {
  return {
    async submit() {
      return { settleAfterMs: options.delayMs };
    },
    async outcome(offramp) {
      const cents = parseUnits(normalizeDecimal(offramp.destination_amount), fiatDecimals) % 100n;
      if (cents === sandboxPayoutMagicCents.bounced && offramp.payout_attempts <= 1) {
        return {
          status: 'bounced',
          message: 'The beneficiary bank returned the payout: the account is closed.',
        };
      }
      if (cents === sandboxPayoutMagicCents.failed) {
        return {
          status: 'failed',
          message: 'The payout partner rejected the payout.',
        };
      }
      return { status: 'fiat_sent' };
    },
  };
}
