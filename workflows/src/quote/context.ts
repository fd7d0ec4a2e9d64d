/**
 * What every quote activity stands on: the database, the payout partner and the treasury, the loaders of a
 * quote and an offramp, and the one way an offramp changes (with its `offramp_update` webhook in the same
 * transaction). The activities themselves are in payouts.ts, offrampRefunds.ts and depositRefunds.ts.
 */
import type { ChainClients } from '@checkout/chain';
import { type TokenRegistry, webhookEvents } from '@checkout/core';
import {
  type Database,
  findOfframpById,
  findQuoteById,
  findUnattemptedDelivery,
  inTransaction,
  type OfframpChangeExtras,
  type OfframpRow,
  type OfframpStatusValue,
  presentOfframp,
  type QuoteRow,
  queueAccountEvent,
  type SecretBox,
  transitionOfframp,
} from '@checkout/db';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import type { Address, Hex } from 'viem';
import { createTreasury, type Treasury, type TreasuryPayment } from '../onramp/treasury.ts';
import type { WorkerResources } from '../resources.ts';
import { createSandboxPayoutPartner, type PayoutPartner } from './payoutPartner.ts';
import { type OfframpStep, quoteNotFound } from './shared.ts';

/** What the quote activities need. */
export interface QuoteActivityDeps extends Pick<WorkerResources, 'db' | 'secrets' | 'chains'> {
  ramps: { payoutSandboxDelayMs: number; treasuryPrivateKey: Hex };
  /** The token registry, to know USDT-style tokens; refunds encode the standard transfer without it. */
  tokens?: TokenRegistry;
  /** The payout partner; the sandbox partner when absent. */
  payoutPartner?: PayoutPartner;
}

/** The quote activities' shared resources. */
export interface QuoteActivityContext {
  db: Kysely<Database>;
  secrets: SecretBox;
  chains: ChainClients;
  partner: PayoutPartner;
  treasury: Treasury;
  /** A treasury payment of the quote's token (the caller says where its transfer is recorded). */
  tokenPayment(
    quote: QuoteRow,
    to: string,
    amount: bigint,
    recorded: Pick<TreasuryPayment, 'load' | 'record'>,
  ): TreasuryPayment;
}

/** Builds the context the quote activity factories share. */
export function quoteActivityContext(deps: QuoteActivityDeps): QuoteActivityContext {
  return {
    db: deps.db.kysely,
    secrets: deps.secrets,
    chains: deps.chains,
    partner: deps.payoutPartner ?? createSandboxPayoutPartner({ delayMs: deps.ramps.payoutSandboxDelayMs }),
    treasury: createTreasury({ chains: deps.chains, privateKey: deps.ramps.treasuryPrivateKey }),
    tokenPayment: (quote, to, amount, recorded) => ({
      chainId: quote.chain_id,
      token: quote.token_address as Address,
      to: to as Address,
      amount,
      noReturnTransfer:
        deps.tokens?.findPaymentToken(quote.chain_id, quote.token_address)?.noReturnTransfer === true,
      ...recorded,
    }),
  };
}

/** The quote, or a retryable failure while it is not visible yet (its transaction may not have committed). */
export async function loadQuote(trx: Kysely<Database>, id: string, forUpdate = false): Promise<QuoteRow> {
  const quote = await findQuoteById(trx, id, forUpdate);
  if (!quote) throw ApplicationFailure.retryable(`quote ${id} does not exist`, quoteNotFound);
  return quote;
}

/** The offramp; one that does not exist fails for good. */
export async function loadOfframp(trx: Kysely<Database>, id: string, forUpdate = false): Promise<OfframpRow> {
  const row = await findOfframpById(trx, id, forUpdate);
  if (!row) throw ApplicationFailure.nonRetryable(`offramp ${id} does not exist`, 'offramp_not_found');
  return row;
}

/**
 * Applies an offramp change and queues its webhook in one transaction (the caller's, when it has one); null
 * when it lost a race.
 */
export function changeOfframp(
  db: Kysely<Database>,
  secrets: SecretBox,
  id: string,
  change: { from: OfframpStatusValue; to: OfframpStatusValue; message: string | null },
  extras: OfframpChangeExtras = {},
): Promise<OfframpStep | null> {
  return inTransaction(db, async (trx) => {
    const row = await transitionOfframp(trx, id, change.from, change.to, change.message, extras);
    if (!row) return null;
    const webhookDeliveryId = await queueAccountEvent(trx, secrets, {
      merchantId: row.merchant_id,
      event: webhookEvents.offrampUpdate,
      subjectId: `${row.id}:status:${row.status_version}`,
      payload: { offramp: presentOfframp(row) },
    });
    return { offrampId: row.id, status: row.status, refund: row.refund_status, webhookDeliveryId };
  });
}

/**
 * The offramp as it is, for a step that changed nothing (a retry, or a race lost): with the webhook of its
 * current version when nobody attempted it yet, so a retried step hands on what its first attempt queued.
 */
export async function unchanged(exec: Kysely<Database>, row: OfframpRow): Promise<OfframpStep> {
  return {
    offrampId: row.id,
    status: row.status,
    refund: row.refund_status,
    webhookDeliveryId: await findUnattemptedDelivery(
      exec,
      webhookEvents.offrampUpdate,
      `${row.id}:status:${row.status_version}`,
    ),
  };
}
