/** The workflow calls of a quote's `quoteLifecycle`, queued by the quote family's steps (client side). */
import { type ChainTransferRow, type Database, listQuotesPaidInto, type QuoteRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueWorkflowCall, shown, type WorkflowCall } from '../handOver/queueWorkflowCall.ts';
import { rampLifecycleOwner } from '../shared.ts';
import { quoteMemo, quoteWorkflowSummary } from '../summaries.ts';
import {
  depositReportedSignal,
  offrampActionSignal,
  type QuoteLifecycleInput,
  quoteExecutedSignal,
  quoteWorkflowId,
  quoteWorkflowType,
} from './shared.ts';

/** The quote's workflow input. */
export function quoteLifecycleInput(
  row: Pick<QuoteRow, 'id' | 'merchant_id' | 'user_id' | 'expires_at'>,
): QuoteLifecycleInput {
  return { quoteId: row.id, ...rampLifecycleOwner(row) };
}

/** A call to the quote's lifecycle: a start, or a signal that starts it when it is not running. */
function quoteCall(
  quote: QuoteRow,
  input: QuoteLifecycleInput,
  signal?: { name: string; args: unknown[] },
): WorkflowCall {
  return {
    kind: signal ? 'signal_with_start' : 'start',
    workflowType: quoteWorkflowType,
    workflowId: quoteWorkflowId(quote.id),
    call: {
      args: [input],
      ...(signal ? { signal } : {}),
      memo: quoteMemo(quote),
      ...shown(quoteWorkflowSummary(quote)),
    },
  };
}

/** Queues the start of an open quote's lifecycle (its expiry timer). */
export function queueQuoteStart(db: Kysely<Database>, quote: QuoteRow): Promise<string> {
  return queueWorkflowCall(db, quoteCall(quote, quoteLifecycleInput(quote)));
}

/** Queues the news that the quote was executed, starting the lifecycle when it is not running. */
export function queueQuoteExecuted(db: Kysely<Database>, quote: QuoteRow): Promise<string> {
  const input = { ...quoteLifecycleInput(quote), executed: true };
  return queueWorkflowCall(db, quoteCall(quote, input, { name: quoteExecutedSignal.name, args: [] }));
}

/** Queues a bounced offramp's resend or refund request for the quote's lifecycle. */
export function queueOfframpAction(
  db: Kysely<Database>,
  quote: QuoteRow,
  offrampId: string,
): Promise<string> {
  const input = { ...quoteLifecycleInput(quote), executed: true, actions: [offrampId] };
  return queueWorkflowCall(
    db,
    quoteCall(quote, input, { name: offrampActionSignal.name, args: [{ offrampId }] }),
  );
}

/**
 * The report of a transfer into the deposit address that came after the quote could use it (starting a run
 * for a quote whose lifecycle ended): that run looks at the address and returns the tokens.
 */
export function depositReportedCall(quote: QuoteRow, txHash: string): WorkflowCall {
  const input = { ...quoteLifecycleInput(quote), executed: quote.crypto_transfer !== null };
  return quoteCall(quote, input, { name: depositReportedSignal.name, args: [{ txHash }] });
}

/**
 * The quote's reaction to a transfer the chain watcher recorded: the quote whose deposit address it reached
 * (in the quote's token) is told, started again when its run has ended (a transfer after the quote's end
 * is returned all the same). The ids of the calls queued in `trx`.
 */
export async function reportDepositOfTransfer(
  trx: Kysely<Database>,
  transfer: ChainTransferRow,
): Promise<string[]> {
  const ids: string[] = [];
  for (const quote of await listQuotesPaidInto(trx, {
    chainId: transfer.chain_id,
    to: transfer.to_address,
  })) {
    if (quote.token_address.toLowerCase() !== transfer.token_address) continue;
    ids.push(await queueWorkflowCall(trx, depositReportedCall(quote, transfer.tx_hash)));
  }
  return ids;
}
