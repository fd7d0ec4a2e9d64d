/**
 * The console's home: a wallet's payments over a time window — volume per chain and token as exact decimal
 * strings, payments per day — and how far each chain's watcher is behind the chain's head.
 */
import { z } from 'zod';
import { namedObject, Timestamp, timeWindow } from './common.ts';

export const PaymentSummaryQuery = namedObject('PaymentSummaryQuery', {
  /** From (at or after; by default 30 days before `until`) and until (before; by default now). */
  ...timeWindow,
  mode: z.enum(['test', 'live']).optional(),
});

/** What the window's standing payments (not failed, not reversed) received in one token on one chain. */
const PaymentVolume = namedObject('PaymentVolume', {
  chain_id: z.number().int(),
  blockchain: z.string(),
  network: z.string(),
  token_address: z.string(),
  symbol: z.string(),
  /** The sum in whole tokens, exact (a decimal string, never a float). */
  amount: z.string().meta({ example: '1520.25' }),
  payments: z.number().int().min(0),
});

/** Standing payments made on one day (UTC). */
const PaymentDay = namedObject('PaymentDay', {
  day: z.iso.date().meta({ example: '2026-11-22' }),
  payments: z.number().int().min(1),
});

/** A chain's watcher as /health shows it, in short. */
const ChainWatcherLag = namedObject('ChainWatcherLag', {
  chain_id: z.number().int(),
  name: z.string(),
  /** `ok`, `failing` (its reads fail), `behind` (more blocks behind than allowed), `stalled`, `starting`. */
  status: z.enum(['ok', 'failing', 'behind', 'stalled', 'starting']),
  /** Blocks between the chain's head and the newest block read; null before it knows both. */
  lag_blocks: z.number().int().min(0).nullable(),
  /** True when the head was not seen lately and the blocks since are counted at the chain's block time. */
  lag_estimated: z.boolean(),
  last_tick_at: Timestamp.nullable(),
});

export const PaymentSummary = namedObject('PaymentSummary', {
  since: Timestamp,
  until: Timestamp,
  /** Standing payments in the window. */
  payments: z.number().int().min(0),
  volumes: z.array(PaymentVolume),
  /** The days with payments, oldest first. */
  days: z.array(PaymentDay),
  chain_watchers: z.array(ChainWatcherLag),
});
export type PaymentSummary = z.infer<typeof PaymentSummary>;

export const PaymentSummaryResponse = namedObject('PaymentSummaryResponse', {
  payment_summary: PaymentSummary,
});
