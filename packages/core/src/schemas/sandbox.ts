/**
 * The sandbox's outcome moves (wire shapes): on a test network, one call makes a checkout session's or a
 * refund's outcome happen with real transactions, or mines blocks. See docs/sandbox.md.
 */
import { z } from 'zod';
import { CheckoutSession } from './checkout.ts';
import { CheckedAddress, namedObject } from './common.ts';
import { Refund } from './refund.ts';

/** Outcomes that take no amount. */
const plainSessionOutcomes = [
  'paid',
  'paid_late',
  'paid_twice',
  'unmatched',
  'expired',
  'failed',
  'reversed',
] as const;

/** Outcomes paid short of or above the price, by an amount or a percentage of it. */
const offSessionOutcomes = ['underpaid', 'overpaid'] as const;

const sandboxSessionOutcomes = [...plainSessionOutcomes, ...offSessionOutcomes] as const;

/** A token amount in whole tokens (a decimal string, at most 18 places), above zero. */
const TokenAmount = z
  .string()
  .regex(/^(?:0|[1-9]\d{0,29})(?:\.\d{1,18})?$/)
  .refine((v) => /[1-9]/.test(v), { message: 'must be above zero' })
  .meta({ example: '0.5' });

/**
 * Body of POST /sandbox/checkout/sessions/:id/simulate. `underpaid` and `overpaid` take `amount` (whole
 * tokens short of or above the price) or `percent` (of the price); without either, 1 percent.
 */
export const SandboxSessionSimulateBody = z
  .union([
    z.strictObject({ outcome: z.enum(plainSessionOutcomes) }),
    z.strictObject({ outcome: z.enum(offSessionOutcomes), amount: TokenAmount.optional() }),
    z.strictObject({ outcome: z.enum(offSessionOutcomes), percent: z.int().min(1).max(99) }),
  ])
  .meta({ id: 'SandboxSessionSimulateBody' });
export type SandboxSessionSimulateBody = z.infer<typeof SandboxSessionSimulateBody>;

/** Body of POST /sandbox/refunds/:id/simulate: claimed (to an address), paid, or expired now. */
export const SandboxRefundSimulateBody = z
  .discriminatedUnion('outcome', [
    z.strictObject({ outcome: z.literal('claimed'), refund_address: CheckedAddress }),
    z.strictObject({ outcome: z.literal('paid') }),
    z.strictObject({ outcome: z.literal('expired') }),
  ])
  .meta({ id: 'SandboxRefundSimulateBody' });
export type SandboxRefundSimulateBody = z.infer<typeof SandboxRefundSimulateBody>;

/** Body of POST /sandbox/chains/:chain_id/mine. */
export const SandboxMineBody = namedObject('SandboxMineBody', { blocks: z.int().min(1).max(1000) });

/** A transaction the sandbox sent, as mined. */
const SandboxTransaction = namedObject('SandboxTransaction', {
  tx_hash: z.string(),
  block_number: z.string(),
  block_hash: z.string(),
  status: z.enum(['success', 'reverted']),
});
export type SandboxTransaction = z.infer<typeof SandboxTransaction>;

/** What a session's simulation did: its transactions, the blocks a reorganisation took away, the session now. */
export const SandboxSessionSimulation = namedObject('SandboxSessionSimulation', {
  outcome: z.enum(sandboxSessionOutcomes),
  transactions: z.array(SandboxTransaction),
  /** Hashes of the blocks a `reversed` outcome reorganised away (empty otherwise). */
  removed_blocks: z.array(z.string()),
  session: CheckoutSession,
});
export type SandboxSessionSimulation = z.infer<typeof SandboxSessionSimulation>;

/** What a refund's simulation did, and the refund now. */
export const SandboxRefundSimulation = namedObject('SandboxRefundSimulation', {
  outcome: z.enum(['claimed', 'paid', 'expired']),
  transactions: z.array(SandboxTransaction),
  refund: Refund,
});

/** The blocks mined: the first and the last (decimal strings). */
export const SandboxMined = namedObject('SandboxMined', {
  chain_id: z.number().int(),
  from_block: z.string(),
  to_block: z.string(),
});
