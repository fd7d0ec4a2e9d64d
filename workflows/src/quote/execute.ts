/**
 * Executing a quote (research §7, §12): the checks in the order docs/area-b-decisions.md documents
 * (`checkExecutable`), the funding transaction verified on chain (`verifyFunding`), then the quote marked
 * executed with an overpayment's excess recorded for return, in one transaction under the quote's lock
 * (`recordExecution`). A transfer reported for a quote that can no longer use it is handed on to be
 * returned, whichever refusal follows (lateTransfers.ts).
 */
import { randomUUID } from 'node:crypto';
import { type AcceptedToken, verifyPayment } from '@checkout/chain';
import { ApiError, formatUnits, type QuoteExecuteBody } from '@checkout/core';
import {
  type Database,
  findPaymentDetail,
  findQuoteFundedBy,
  inTransaction,
  isUniqueViolation,
  listOfframpsOfQuote,
  markQuoteExecuted,
  type OfframpRow,
  type QuoteRow,
  quoteTotals,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { getAddress, type Hash } from 'viem';
import type { z } from 'zod';
import type { WorkerResources } from '../resources.ts';
import { queueDeliveryStart } from '../webhookDelivery/start.ts';
import { reportLateTransfer } from './lateTransfers.ts';
import { isExecuted, isExpired, lockOpenQuote, quoteAlreadyExecuted, quoteExpired } from './offramps.ts';
import { recordQuoteRefund } from './refunds.ts';
import { queueQuoteExecuted } from './start.ts';

/** What executing a quote needs beyond the database. */
export interface ExecuteQuoteDeps extends Pick<WorkerResources, 'chains' | 'secrets'> {
  log: { warn(fields: object, message: string): void };
}

type Transfer = z.infer<typeof QuoteExecuteBody>['quote']['crypto_transfer'];
type Funding = Extract<Awaited<ReturnType<typeof verifyPayment>>, { status: 'confirmed' }>;

/** Refuses the execute with the first documented error that applies (checks 1 to 6); the quote's offramps. */
async function checkExecutable(
  db: Kysely<Database>,
  deps: ExecuteQuoteDeps,
  quote: QuoteRow,
  transfer: Transfer,
): Promise<OfframpRow[]> {
  const scope = { merchantId: quote.merchant_id, userId: quote.user_id };

  // A quote that can no longer use the transfer (executed, or expired) returns what it brought to its
  // deposit address, whichever refusal follows.
  const late = () =>
    isExecuted(quote) || isExpired(quote)
      ? reportLateTransfer(db, deps, quote, transfer)
      : Promise.resolve('');
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

  return offramps;
}

/** The execute's transfer sent less than the offramps need. */
function sumMismatch(quote: QuoteRow, received: bigint, due: bigint): ApiError {
  return new ApiError(
    'sum_mismatch',
    `The transaction sent ${formatUnits(received, quote.token_decimals)} ${quote.deposit_token}; the offramps need ${formatUnits(due, quote.token_decimals)}`,
  );
}

/** Check 7, on chain: the transfer of at least the quote's total into its deposit address. */
async function verifyFunding(
  deps: ExecuteQuoteDeps,
  quote: QuoteRow,
  transfer: Transfer,
  total: bigint,
): Promise<Funding> {
  const chain = deps.chains.get(quote.chain_id);
  if (!chain)
    throw new ApiError(
      'service_unavailable',
      `Quotes on ${quote.deposit_token_chain} (${quote.network}) are unavailable: no RPC endpoint is configured`,
    );
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
  if (verification.receivedAmount < total) throw sumMismatch(quote, verification.receivedAmount, total);
  return verification;
}

/**
 * Marks the quote executed by the verified transfer under the quote's lock, records an overpayment's excess
 * for return, and queues the workflow's execute signal, in one transaction.
 */
async function recordExecution(
  db: Kysely<Database>,
  secrets: SecretBox,
  quote: QuoteRow,
  transfer: Transfer,
  verification: Funding,
): Promise<QuoteRow> {
  try {
    const executed = await inTransaction(db, async (trx) => {
      await lockOpenQuote(trx, quote);
      // Offramps added while the chain was read must still be covered.
      const due = quoteTotals(await listOfframpsOfQuote(trx, quote.id)).amount;
      if (verification.receivedAmount < due) throw sumMismatch(quote, verification.receivedAmount, due);
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
        const refund = await recordQuoteRefund(trx, secrets, {
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

/** Executes the quote with its reported funding transaction, or refuses it with the documented error. */
export async function executeQuote(
  db: Kysely<Database>,
  deps: ExecuteQuoteDeps,
  input: { quote: QuoteRow; transfer: Transfer },
): Promise<QuoteRow> {
  const { quote, transfer } = input;
  const offramps = await checkExecutable(db, deps, quote, transfer);
  const verification = await verifyFunding(deps, quote, transfer, quoteTotals(offramps).amount);
  return recordExecution(db, deps.secrets, quote, transfer, verification);
}
