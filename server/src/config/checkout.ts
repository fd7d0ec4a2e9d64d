/** The checkout's windows and rhythms, webhooks and the public API's limits. */
import { z } from 'zod';
import { optional } from './shared.ts';

export const checkoutEnv = {
  CHECKOUT_SESSION_TTL_MINUTES: z.coerce.number().int().min(5).max(525_600).default(1440),
  CHECKOUT_GRACE_MINUTES: z.coerce.number().int().min(0).max(43_200).default(60),
  CHAIN_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(10_000).default(2000),
  CHECKOUT_SCAN_CLAIM_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  // Below the scan's heartbeat timeout (20 s).
  CHECKOUT_SCAN_INTERVAL_MS: z.coerce.number().int().min(50).max(15_000).default(10_000),
  CHECKOUT_MATCH_TOLERANCE_PERCENT: z.coerce.number().min(0).max(50).default(5),
  REORG_DEPTH_BLOCKS: z.coerce.number().int().min(1).max(100_000).default(256),
  REFUND_CLAIM_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: optional(z.enum(['true', 'false'])),
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
  scanClaimDelayMs: number;
  /** Between two looks of a session's chain scan (a fallback for closed tabs, so slower than the hash watch). */
  scanIntervalMs: number;
  /** How far (percent of the price) a payer's transfer may be from its one order and still pay it. */
  matchTolerancePercent: number;
  /** How deep behind the watcher's position resolved payments are re-checked after a reorganisation. */
  reorgDepthBlocks: number;
  /** How long a customer may take to give a refund's address (the refund expires unclaimed after it). */
  refundClaimDays: number;
}

export function checkoutConfig(c: CheckoutEnv): {
  checkout: CheckoutConfig;
  webhooks: { allowPrivateAddresses: boolean };
  publicRateLimitPerMinute: number;
  trustProxyHops: number;
} {
  return {
    checkout: {
      sessionTtlMinutes: c.CHECKOUT_SESSION_TTL_MINUTES,
      graceMinutes: c.CHECKOUT_GRACE_MINUTES,
      pollIntervalMs: c.CHAIN_POLL_INTERVAL_MS,
      scanClaimDelayMs: c.CHECKOUT_SCAN_CLAIM_DELAY_SECONDS * 1000,
      scanIntervalMs: c.CHECKOUT_SCAN_INTERVAL_MS,
      matchTolerancePercent: c.CHECKOUT_MATCH_TOLERANCE_PERCENT,
      reorgDepthBlocks: c.REORG_DEPTH_BLOCKS,
      refundClaimDays: c.REFUND_CLAIM_DAYS,
    },
    webhooks: {
      allowPrivateAddresses:
        (c.WEBHOOK_ALLOW_PRIVATE_ADDRESSES ?? String(c.NODE_ENV !== 'production')) === 'true',
    },
    publicRateLimitPerMinute: c.PUBLIC_RATE_LIMIT_PER_MINUTE,
    trustProxyHops:
      c.TRUST_PROXY === 'true' ? 1 : Number(c.TRUST_PROXY === 'false' ? 0 : (c.TRUST_PROXY ?? 0)),
  };
}
