/**
 * Activities of `quoteLifecycle`: move an executed quote's offramps through the payout partner. Every
 * offramp status change is written with its `offramp_update` webhook in one transaction.
 */
import {
  createWebhookDelivery,
  type Database,
  type Db,
  findAccountWebhookEndpoint,
  findQuoteById,
  listOfframpsOfQuote,
  type OfframpRow,
  type OfframpStatusValue,
  presentOfframp,
  setQuoteStatus,
  transitionOfframp,
} from '@checkout/db';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import { createSandboxPayoutPartner, type PayoutPartner } from './payoutPartner.ts';
import {
  type OfframpStep,
  offrampUpdateEvent,
  type QuoteActivities,
  quoteNotFound,
  terminalOfframpStatuses,
} from './shared.ts';

/** What the quote activities need. */
export interface QuoteActivityDeps {
  db: Db;
  ramps: { payoutSandboxDelayMs: number };
  /** The payout partner; the sandbox partner when absent. */
  payoutPartner?: PayoutPartner;
}

/** Applies an offramp status change and queues its webhook in the same transaction; null when it lost a race. */
async function changeOfframp(
  trx: Kysely<Database>,
  id: string,
  from: readonly OfframpStatusValue[],
  to: OfframpStatusValue,
  message: string | null,
): Promise<OfframpStep | null> {
  const row = await transitionOfframp(trx, id, from, to, message);
  if (!row) return null;
  const endpoint = await findAccountWebhookEndpoint(trx, row.merchant_id);
  if (!endpoint) return { offrampId: row.id, status: row.status, webhookDeliveryId: null };
  const delivery = await createWebhookDelivery(trx, {
    merchantId: row.merchant_id,
    eventType: offrampUpdateEvent,
    subjectId: `${row.id}:status:${row.status_version}`,
    url: endpoint.url,
    payload: JSON.stringify({ event: offrampUpdateEvent, payload: { offramp: presentOfframp(row) } }),
  });
  return { offrampId: row.id, status: row.status, webhookDeliveryId: delivery.id };
}

/** Builds the quote activities. */
export function createQuoteActivities(deps: QuoteActivityDeps): QuoteActivities {
  const db = deps.db.kysely;
  const partner =
    deps.payoutPartner ?? createSandboxPayoutPartner({ delayMs: deps.ramps.payoutSandboxDelayMs });
  const unchanged = (row: OfframpRow): OfframpStep => ({
    offrampId: row.id,
    status: row.status,
    webhookDeliveryId: null,
  });
  const loadOfframp = async (trx: Kysely<Database>, id: string): Promise<OfframpRow> => {
    const row = await trx.selectFrom('offramps').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw ApplicationFailure.nonRetryable(`offramp ${id} does not exist`, 'OfframpNotFound');
    return row;
  };

  return {
    async beginQuotePayouts({ quoteId }) {
      return db.transaction().execute(async (trx) => {
        const quote = await findQuoteById(trx, quoteId, true);
        if (!quote) throw ApplicationFailure.retryable(`quote ${quoteId} does not exist`, quoteNotFound);
        const offramps: OfframpStep[] = [];
        for (const row of await listOfframpsOfQuote(trx, quoteId)) {
          const moved =
            quote.status === 'executed' && row.status === 'initiated'
              ? await changeOfframp(trx, row.id, ['initiated'], 'pending_internal_assessment', null)
              : null;
          offramps.push(moved ?? unchanged(row));
        }
        return { quoteStatus: quote.status, offramps };
      });
    },

    async submitOfframpPayout({ offrampId }) {
      const step = await db
        .transaction()
        .execute((trx) =>
          changeOfframp(trx, offrampId, ['pending_internal_assessment'], 'sending_fiat', null),
        );
      const row = await loadOfframp(db, offrampId);
      if (row.status !== 'sending_fiat') return { ...unchanged(row), settleAfterMs: 0 };
      const { settleAfterMs } = await partner.submit(row);
      return { ...(step ?? unchanged(row)), settleAfterMs };
    },

    async settleOfframpPayout({ offrampId }) {
      const row = await loadOfframp(db, offrampId);
      if (row.status !== 'sending_fiat') return unchanged(row);
      const outcome = await partner.outcome(row);
      const step = await db
        .transaction()
        .execute((trx) =>
          changeOfframp(
            trx,
            offrampId,
            ['sending_fiat'],
            outcome.status,
            outcome.status === 'fiat_sent' ? null : outcome.message,
          ),
        );
      return step ?? unchanged(await loadOfframp(db, offrampId));
    },

    async completeQuote({ quoteId }) {
      const offramps = await listOfframpsOfQuote(db, quoteId);
      const done = offramps.every((o) => terminalOfframpStatuses.includes(o.status));
      if (done) await setQuoteStatus(db, quoteId, 'executed', 'completed');
      const quote = await findQuoteById(db, quoteId);
      if (!quote) throw ApplicationFailure.retryable(`quote ${quoteId} does not exist`, quoteNotFound);
      return { quoteStatus: quote.status };
    },
  };
}
