/** The checkout's windows and rhythms, the deposit sweeper's wallet, webhooks and the public API's limits. */
import { devAccounts } from '@checkout/chain';
import type { Hex } from 'viem';
import { z } from 'zod';
import { optional } from './shared.ts';

export const checkoutEnv = {
  CHECKOUT_SESSION_TTL_MINUTES: z.coerce.number().int().min(5).max(525_600).default(1440),
  CHECKOUT_GRACE_MINUTES: z.coerce.number().int().min(0).max(43_200).default(60),
  CHAIN_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(10_000).default(2000),
  CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  // Below the scan's heartbeat timeout (20 s).
  CHECKOUT_SCAN_INTERVAL_MS: z.coerce.number().int().min(50).max(15_000).default(10_000),
  CHECKOUT_MATCH_TOLERANCE_PERCENT: z.coerce.number().min(0).max(50).default(5),
  UNMATCHED_NOTIFY_MIN_AMOUNT: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,18})?$/, 'must be a decimal amount of tokens, such as 1 or 0.50')
    .default('1'),
  UNMATCHED_EMAIL_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  REORG_DEPTH_BLOCKS: z.coerce.number().int().min(1).max(100_000).default(256),
  REFUND_CLAIM_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  SWEEPER_PRIVATE_KEY: optional(z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits')),
  SWEEP_REPLACE_AFTER_SECONDS: z.coerce.number().int().min(1).max(86_400).default(180),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: optional(z.enum(['true', 'false'])),
  // At most 60 s: each attempt's activity allows 2 minutes (workflows/src/webhookDelivery/workflow.ts).
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(30),
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  TRUST_PROXY: optional(
    z.string().regex(/^(true|false|[0-9])$/, 'must be true, false or the number of proxies (0-9)'),
  ),
};
type CheckoutEnv = z.infer<z.ZodObject<typeof checkoutEnv>> & { NODE_ENV: string };

/** How long sessions wait and how often their chain is looked at. */
export interface CheckoutConfig {
  sessionTtlMinutes: number;
  graceMinutes: number;
  pollIntervalMs: number;
  /**
   * How long a session paid short of its price waits, from the first transfer for it, for the rest before it
   * resolves underpaid (at most until it expires).
   */
  shortPaymentWaitMs: number;
  /** Between two looks of a session's chain scan (a fallback for closed tabs, so slower than the hash watch). */
  scanIntervalMs: number;
  /** How far (percent of the price) a transfer no session took may be from an order to be named near it. */
  matchTolerancePercent: number;
  /**
   * The smallest unmatched transfer (in each token's own units, e.g. `"1"`: one USDC, one DAI) announced one by
   * one by webhook and e-mail; smaller ones are recorded and listed only.
   */
  unmatchedNotifyMinAmount: string;
  /** The least time between two e-mails about unmatched transfers to one recipient (the others wait, grouped). */
  unmatchedEmailIntervalMs: number;
  /** How deep behind the watcher's position resolved payments are re-checked after a reorganisation. */
  reorgDepthBlocks: number;
  /** How long a customer may take to give a refund's address (the refund expires unclaimed after it). */
  refundClaimDays: number;
  /**
   * The gas wallet that sends the sweeps of deposit addresses (it pays gas only: a sweep moves funds to
   * the merchant alone). Outside production, a dev chain account by default; unset, nothing is swept.
   */
  sweeperPrivateKey?: Hex | undefined;
  /** How long a sent sweep may stay unmined before it is signed again with the same nonce at a higher price. */
  sweepReplaceAfterMs: number;
}

export function checkoutConfig(c: CheckoutEnv): {
  checkout: CheckoutConfig;
  webhooks: { allowPrivateAddresses: boolean; timeoutMs: number };
  publicRateLimitPerMinute: number;
  trustProxyHops: number;
} {
  return {
    checkout: {
      sessionTtlMinutes: c.CHECKOUT_SESSION_TTL_MINUTES,
      graceMinutes: c.CHECKOUT_GRACE_MINUTES,
      pollIntervalMs: c.CHAIN_POLL_INTERVAL_MS,
      shortPaymentWaitMs: c.CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS * 1000,
      scanIntervalMs: c.CHECKOUT_SCAN_INTERVAL_MS,
      matchTolerancePercent: c.CHECKOUT_MATCH_TOLERANCE_PERCENT,
      unmatchedNotifyMinAmount: c.UNMATCHED_NOTIFY_MIN_AMOUNT,
      unmatchedEmailIntervalMs: c.UNMATCHED_EMAIL_INTERVAL_SECONDS * 1000,
      reorgDepthBlocks: c.REORG_DEPTH_BLOCKS,
      refundClaimDays: c.REFUND_CLAIM_DAYS,
      // Account #6 of the dev mnemonic: funded on the dev chains, and neither a shopper nor the treasury.
      sweeperPrivateKey: (c.SWEEPER_PRIVATE_KEY ??
        (c.NODE_ENV === 'production' ? undefined : devAccounts[6]!.privateKey)) as Hex | undefined,
      sweepReplaceAfterMs: c.SWEEP_REPLACE_AFTER_SECONDS * 1000,
    },
    webhooks: {
      allowPrivateAddresses:
        (c.WEBHOOK_ALLOW_PRIVATE_ADDRESSES ?? String(c.NODE_ENV !== 'production')) === 'true',
      timeoutMs: c.WEBHOOK_TIMEOUT_SECONDS * 1000,
    },
    publicRateLimitPerMinute: c.PUBLIC_RATE_LIMIT_PER_MINUTE,
    trustProxyHops:
      c.TRUST_PROXY === 'true' ? 1 : Number(c.TRUST_PROXY === 'false' ? 0 : (c.TRUST_PROXY ?? 0)),
  };
}
