/**
 * Quote refunds as the database holds them: recording one with its `quote_update` webhook in the caller's
 * transaction (the quote's workflow and the execute endpoint both record them). Not for the workflow
 * sandbox.
 */
import { webhookEvents } from '@checkout/core';
import {
  type Database,
  findQuoteById,
  insertQuoteRefund,
  listOfframpsOfQuote,
  listQuoteRefunds,
  type NewQuoteRefund,
  presentQuote,
  type QuoteRefundRow,
  queueAccountEvent,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';

/** Queues a `quote_update` (the quote as GET shows it) under `subject`; null without a webhook endpoint. */
export async function createQuoteUpdate(
  trx: Kysely<Database>,
  secrets: SecretBox,
  quoteId: string,
  subject: string,
): Promise<string | null> {
  const quote = await findQuoteById(trx, quoteId);
  if (!quote) return null;
  return queueAccountEvent(trx, secrets, {
    merchantId: quote.merchant_id,
    event: webhookEvents.quoteUpdate,
    subjectId: subject,
    payload: presentQuote(
      quote,
      await listOfframpsOfQuote(trx, quoteId),
      await listQuoteRefunds(trx, quoteId),
    ),
  });
}

/** The subject of a refund's `quote_update` for one of its statuses (each is reached once). */
export function quoteRefundSubject(refund: Pick<QuoteRefundRow, 'id' | 'quote_id'>, status: string): string {
  return `${refund.quote_id}:refund:${refund.id}:${status}`;
}

/**
 * Records a refund and its `quote_update` in the caller's transaction; undefined when the quote already
 * has a refund of that incoming transaction.
 */
export async function recordQuoteRefund(
  trx: Kysely<Database>,
  secrets: SecretBox,
  refund: NewQuoteRefund,
): Promise<{ row: QuoteRefundRow; webhookDeliveryId: string | null } | undefined> {
  const row = await insertQuoteRefund(trx, refund);
  if (!row) return undefined;
  const webhookDeliveryId = await createQuoteUpdate(
    trx,
    secrets,
    row.quote_id,
    quoteRefundSubject(row, 'pending'),
  );
  return { row, webhookDeliveryId };
}
