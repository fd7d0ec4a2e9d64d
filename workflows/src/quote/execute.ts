/**
 * Executing a quote (research §7, §12): the checks in the order docs/area-b-decisions.md documents, the
 * funding transaction verified on chain, then the quote marked executed with an overpayment's excess
 * recorded for return, in one transaction under the quote's lock. A transfer reported for a quote that can
 * no longer use it is handed on to be returned, whichever refusal follows.
 */
import { randomUUID } from 'node:crypto';
import { type AcceptedToken, type ChainClients, readDeposit, verifyPayment } from '@checkout/chain';
import { ApiError, formatUnits, normalizeDecimal, type QuoteExecuteBody } from '@checkout/core';
import {
  type Database,
  findPaymentDetail,
  findQuoteFundedBy,
  findQuoteRefundOfDeposit,
  inTransaction,
  isUniqueViolation,
  listOfframpsOfQuote,
  markQuoteExecuted,
  type QuoteRow,
  quoteTotals,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { type Address, getAddress, type Hash } from 'viem';
import type { z } from 'zod';
import { queueWorkflowCallAfterwards } from '../handOver/queueWorkflowCall.ts';
import { queueDeliveryStart } from '../webhookDelivery/start.ts';
import { isExecuted, isExpired, lockOpenQuote, quoteAlreadyExecuted, quoteExpired } from './offramps.ts';
import { recordQuoteRefund } from './refunds.ts';
import { depositReportedCall, queueQuoteExecuted } from './start.ts';

/** What executing a quote needs beyond the database. */
export interface ExecuteQuoteDeps {
  chains: ChainClients;
  log: { warn(fields: object, message: string): void };
}

/** Executes the quote with its reported funding transaction, or refuses it with the documented error. */
export async function executeQuote(
  db: Kysely<Database>,
  deps: ExecuteQuoteDeps,
  input: { quote: QuoteRow; transfer: z.infer<typeof QuoteExecuteBody>['quote']['crypto_transfer'] },
): Promise<QuoteRow> {
  const { quote, transfer } = input;

  /**
   * A transfer reported for a quote that can no longer use it (expired, or executed by another
   * transaction): when it brought the quote's token to the deposit address, the quote's workflow is told
   * to look at the address again and returns the tokens to their sender. The request itself is still
   * refused; what follows is a sentence for its message. Chain or Temporal trouble only shortens it.
   */
  const reportLateTransfer = async (): Promise<string> => {
    const txHash = transfer.tx_id.toLowerCase();
    const chain = deps.chains.get(quote.chain_id);
    const sameChain =
      transfer.blockchain === quote.deposit_token_chain &&
      (transfer.network === 'mainnet') === (quote.network === 'mainnet');
    if (!chain || !sameChain || quote.crypto_transfer?.tx_id.toLowerCase() === txHash) return '';
    const recorded = await findQuoteRefundOfDeposit(db, quote.id, txHash);
    const token = quote.deposit_token.toUpperCase();
    if (recorded) {
      const amount = formatUnits(BigInt(normalizeDecimal(recorded.amount)), quote.token_decimals);
      return recorded.status === 'sent'
        ? `. The ${amount} ${token} this transaction sent were returned to ${recorded.address} in transaction ${recorded.tx_hash}.`
        : `. The ${amount} ${token} this transaction sent ${recorded.status === 'failed' ? 'could not be returned; contact support' : `are being returned to ${recorded.address}`}.`;
    }
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
    const what = `the ${formatUnits(amount, quote.token_decimals)} ${token} this transaction sent to the deposit address`;
    // The request is refused (and its writes rolled back): the report is queued once it is over.
    await queueWorkflowCallAfterwards(db, depositReportedCall(quote, txHash));
    return `. ${what.charAt(0).toUpperCase()}${what.slice(1)} will be returned to ${returnAddress} (see quote.refunds).`;
  };

  const scope = { merchantId: quote.merchant_id, userId: quote.user_id };

  // A quote that can no longer use the transfer (executed, or expired) returns what it brought to its
  // deposit address, whichever refusal follows.
  const late = () => (isExecuted(quote) || isExpired(quote) ? reportLateTransfer() : Promise.resolve(''));
  // 1. quote_already_executed
  if (isExecuted(quote)) throw quoteAlreadyExecuted(await late());
  // 2. no_offramps_present
  const offramps = await listOfframpsOfQuote(db, quote.id);
  if (offramps.length === 0) {
    throw new ApiError('no_offramps_present', `Add offramps to the quote before executing it${await late()}`);
  }
  // 3. payment_detail_not_approved
  for (const [i, o] of offramps.entries()) {
    const detail = await findPaymentDetail(db, scope, o.payment_detail_id);
    if (detail?.status !== 'approved') {
      throw new ApiError(
        'payment_detail_not_approved',
        `Payment detail ${o.payment_detail_id} of offramp ${o.id} is ${detail?.status ?? 'gone'}, not approved${await late()}`,
        { errors: [{ path: `offramps.${i}.payment_detail_id`, message: 'is not approved' }] },
      );
    }
  }
  // 4. currency_mismatch: the transfer must be of the quote's token chain and network.
  const wantsMainnet = quote.network === 'mainnet';
  if (
    transfer.blockchain !== quote.deposit_token_chain ||
    (transfer.network === 'mainnet') !== wantsMainnet
  ) {
    throw new ApiError(
      'currency_mismatch',
      `The quote is funded in ${quote.deposit_token} on ${quote.deposit_token_chain} (${quote.network}), not on ${transfer.blockchain} (${transfer.network})`,
      {
        errors: [
          { path: 'quote.crypto_transfer.blockchain', message: `must be ${quote.deposit_token_chain}` },
        ],
      },
    );
  }
  // 5. quote_expired
  if (isExpired(quote)) throw quoteExpired(await late());
  // 6. one transaction funds one quote.
  if (await findQuoteFundedBy(db, transfer.tx_id))
    throw new ApiError('tx_already_used', 'This transaction already funded another quote');

  // 7. on chain: the transfer of at least the quote's total into its deposit address.
  const chain = deps.chains.get(quote.chain_id);
  if (!chain)
    throw new ApiError(
      'service_unavailable',
      `Quotes on ${quote.deposit_token_chain} (${quote.network}) are unavailable: no RPC endpoint is configured`,
    );
  const total = quoteTotals(offramps).amount;
  const token: AcceptedToken = {
    address: quote.token_address as Hash,
    decimals: quote.token_decimals,
    symbol: quote.deposit_token,
  };
  const verification = await verifyPayment({
    client: chain.client,
    txHash: transfer.tx_id as Hash,
    receivingAddress: quote.deposit_address as Hash,
    tokens: [token],
    expectedToken: token.address,
    expectedAmount: total,
    confirmations: chain.confirmations,
  });
  if (verification.status !== 'confirmed') {
    const reason =
      verification.status === 'pending'
        ? `has ${verification.confirmations} of ${chain.confirmations} confirmations; execute again once confirmed`
        : verification.status === 'no_transfer'
          ? `sent no ${quote.deposit_token} to the deposit address`
          : verification.status === 'not_found'
            ? 'was not found on chain'
            : verification.status;
    throw new ApiError('tx_rejected', `The transaction ${reason}`, {
      errors: [{ path: 'quote.crypto_transfer.tx_id', message: reason }],
    });
  }
  const sumMismatch = (received: bigint, due: bigint) =>
    new ApiError(
      'sum_mismatch',
      `The transaction sent ${formatUnits(received, quote.token_decimals)} ${quote.deposit_token}; the offramps need ${formatUnits(due, quote.token_decimals)}`,
    );
  if (verification.receivedAmount < total) throw sumMismatch(verification.receivedAmount, total);

  try {
    const executed = await inTransaction(db, async (trx) => {
      await lockOpenQuote(trx, quote);
      // Offramps added while the chain was read must still be covered.
      const due = quoteTotals(await listOfframpsOfQuote(trx, quote.id)).amount;
      if (verification.receivedAmount < due) throw sumMismatch(verification.receivedAmount, due);
      // Refunds of failed payouts go to whoever sent the tokens (not a relayer that sent the transaction).
      const sender =
        verification.transfers.find((t) => t.token === verification.receivedToken)?.from ?? verification.from;
      const row = await markQuoteExecuted(
        trx,
        quote.id,
        { tx_id: transfer.tx_id.toLowerCase(), blockchain: transfer.blockchain, network: transfer.network },
        verification.receivedAmount.toString(),
        sender,
      );
      if (!row) throw quoteAlreadyExecuted();
      // Overpaid: the excess goes back to the sender, from the treasury, once the payouts start.
      const excess = verification.receivedAmount - due;
      if (excess > 0n && sender) {
        const refund = await recordQuoteRefund(trx, {
          id: randomUUID(),
          quoteId: quote.id,
          reason: 'excess',
          depositTxHash: transfer.tx_id.toLowerCase(),
          amount: excess,
          address: getAddress(sender),
        });
        if (refund?.webhookDeliveryId) await queueDeliveryStart(trx, refund.webhookDeliveryId);
      }
      // Its payouts start once the execute is committed.
      await queueQuoteExecuted(trx, row);
      return row;
    });
    return executed;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError('tx_already_used', 'This transaction already funded another quote');
    }
    throw error;
  }
}
