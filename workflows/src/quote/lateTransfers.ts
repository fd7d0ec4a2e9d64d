/**
 * A transfer reported through execute for a quote that can no longer use it (expired, or executed by
 * another transaction): when it brought the quote's token to the deposit address, the quote's workflow is
 * told to look at that transaction and returns the tokens to their sender. The request itself is still
 * refused; what this gives is a sentence for its message. Chain or Temporal trouble only shortens it.
 */
import type { ChainClients } from '@checkout/chain';
import { readDeposit } from '@checkout/chain';
import { formatUnits, normalizeDecimal, type QuoteExecuteBody } from '@checkout/core';
import { type Database, findQuoteRefundOfDeposit, type QuoteRefundRow, type QuoteRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import type { Address, Hash } from 'viem';
import type { z } from 'zod';
import { queueWorkflowCallAfterwards } from '../handOver/queueWorkflowCall.ts';
import { depositReportedCall } from './start.ts';

type ReportedTransfer = z.infer<typeof QuoteExecuteBody>['quote']['crypto_transfer'];

/** Where the tokens of a transaction already recorded for return are. */
function recordedSentence(quote: QuoteRow, recorded: QuoteRefundRow): string {
  const sent = `${formatUnits(BigInt(normalizeDecimal(recorded.amount)), quote.token_decimals)} ${quote.deposit_token.toUpperCase()} this transaction sent`;
  if (recorded.status === 'sent') {
    return `. The ${sent} were returned to ${recorded.address} in transaction ${recorded.tx_hash}.`;
  }
  if (recorded.status === 'failed') return `. The ${sent} could not be returned; contact support.`;
  return `. The ${sent} are being returned to ${recorded.address}.`;
}

/** Reports the late transfer to the quote's workflow when it brought tokens; the sentence for the refusal. */
export async function reportLateTransfer(
  db: Kysely<Database>,
  deps: { chains: ChainClients; log: { warn(fields: object, message: string): void } },
  quote: QuoteRow,
  transfer: ReportedTransfer,
): Promise<string> {
  const txHash = transfer.tx_id.toLowerCase();
  const chain = deps.chains.get(quote.chain_id);
  const sameChain =
    transfer.blockchain === quote.deposit_token_chain &&
    (transfer.network === 'mainnet') === (quote.network === 'mainnet');
  if (!chain || !sameChain || quote.crypto_transfer?.tx_id.toLowerCase() === txHash) return '';
  const recorded = await findQuoteRefundOfDeposit(db, quote.id, txHash);
  if (recorded) return recordedSentence(quote, recorded);
  let reading: Awaited<ReturnType<typeof readDeposit>>;
  try {
    reading = await readDeposit({
      client: chain.client,
      token: quote.token_address as Address,
      to: quote.deposit_address as Address,
      txHash: txHash as Hash,
      confirmations: chain.confirmations,
    });
  } catch (error) {
    deps.log.warn({ err: error, quoteId: quote.id }, 'could not read a reported transfer');
    return '';
  }
  if (reading.status === 'pending') {
    return `. The transaction has ${reading.confirmations} of ${chain.confirmations} confirmations; report it again once confirmed to have its tokens returned.`;
  }
  if (reading.status !== 'confirmed') return '';
  const { amount, returnAddress } = reading.deposit;
  // The request is refused (and its writes rolled back): the report is queued once it is over.
  await queueWorkflowCallAfterwards(db, depositReportedCall(quote, txHash));
  return `. The ${formatUnits(amount, quote.token_decimals)} ${quote.deposit_token.toUpperCase()} this transaction sent to the deposit address will be returned to ${returnAddress} (see quote.refunds).`;
}
