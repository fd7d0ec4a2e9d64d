/**
 * Tokens at a quote's deposit address that no payout uses go back to their sender from the treasury (see
 * docs/area-b-decisions.md, "Tokens no payout uses"). `findQuoteRefunds` looks at what reached the address:
 * the chain watcher's record (chain_transfers, which covers the address from the quote's creation while it
 * is open or paying out and for a grace after) and the transactions reported through execute (a transfer
 * after the watch). Each transaction's receipt says how much came and who to return it to; only confirmed
 * ones count. `sendQuoteRefund` and `checkQuoteRefund` send each refund once.
 */
import { randomUUID } from 'node:crypto';
import { type DepositTransfer, readDeposit } from '@checkout/chain';
import { normalizeDecimal } from '@checkout/core';
import {
  type Database,
  findQuoteRefundById,
  finishQuoteRefund,
  inTransaction,
  listOfframpsOfQuote,
  listQuoteRefunds,
  listTransfersInto,
  type NewQuoteRefund,
  type QuoteRefundRow,
  type QuoteRow,
  quoteTotals,
  recordSignedTransfer,
} from '@checkout/db';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import type { Address, Hash } from 'viem';
import { loadQuote, type QuoteActivityContext } from './context.ts';
import { createQuoteUpdate, quoteRefundSubject, recordQuoteRefund } from './refunds.ts';
import type { QuoteActivities, QuoteRefundStep } from './shared.ts';

type Refund = Omit<NewQuoteRefund, 'id' | 'quoteId'>;

/**
 * The refunds a quote owes for `deposits` (confirmed transfers into its address, not yet returned), read
 * under the quote's lock: an expired quote's every deposit; an executed quote's excess and every other one.
 */
async function refundsOwed(
  trx: Kysely<Database>,
  quote: QuoteRow,
  deposits: DepositTransfer[],
): Promise<Refund[]> {
  const asRefund = (reason: Refund['reason'], d: DepositTransfer): Refund => ({
    reason,
    depositTxHash: d.txHash,
    amount: d.amount,
    address: d.returnAddress,
  });
  const funding = quote.crypto_transfer?.tx_id.toLowerCase() ?? null;
  if (funding === null) {
    return quote.status === 'expired' ? deposits.map((d) => asRefund('quote_expired', d)) : [];
  }
  const refunds: Refund[] = [];
  const received = BigInt(normalizeDecimal(quote.received_amount ?? '0'));
  const excess = received - quoteTotals(await listOfframpsOfQuote(trx, quote.id)).amount;
  if (excess > 0n && quote.sender_address) {
    refunds.push({ reason: 'excess', depositTxHash: funding, amount: excess, address: quote.sender_address });
  }
  for (const d of deposits) if (d.txHash !== funding) refunds.push(asRefund('extra_transfer', d));
  return refunds;
}

/** Builds the activities that find, send and check the quote's own refunds. */
export function createDepositRefundActivities(
  context: QuoteActivityContext,
): Pick<QuoteActivities, 'findQuoteRefunds' | 'sendQuoteRefund' | 'checkQuoteRefund'> {
  const { db, secrets, treasury } = context;

  /**
   * The confirmed transfers into the quote's address in its token not yet returned (one per transaction,
   * in chain order), and whether one too recent to count is there. Only receipts are read from the chain.
   */
  const depositsOf = async (quote: QuoteRow, reported: readonly string[]) => {
    const chain = context.chains.get(quote.chain_id);
    if (!chain) {
      // Retried until the chain is configured again: the tokens stay owed meanwhile.
      throw ApplicationFailure.retryable(
        `no RPC endpoint for chain ${quote.chain_id}`,
        'chain_not_configured',
      );
    }
    const recorded = await listTransfersInto(db, {
      chainId: quote.chain_id,
      to: quote.deposit_address,
      tokens: [quote.token_address],
      sinceBlock: 0n,
    });
    const known = new Set((await listQuoteRefunds(db, quote.id)).map((r) => r.deposit_tx_hash));
    known.add(quote.crypto_transfer?.tx_id.toLowerCase() ?? '');
    const hashes = new Set([...recorded.map((r) => r.tx_hash), ...reported.map((h) => h.toLowerCase())]);
    const deposits: DepositTransfer[] = [];
    let unconfirmed = false;
    for (const hash of hashes) {
      if (known.has(hash)) continue;
      const reading = await readDeposit({
        client: chain.client,
        token: quote.token_address as Address,
        to: quote.deposit_address as Address,
        txHash: hash as Hash,
        confirmations: chain.confirmations,
      });
      if (reading.status === 'pending') unconfirmed = true;
      if (reading.status === 'confirmed') deposits.push(reading.deposit);
    }
    deposits.sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : a.blockNumber > b.blockNumber ? 1 : 0));
    return { deposits, unconfirmed };
  };

  const loadRefund = async (id: string): Promise<QuoteRefundRow> => {
    const row = await findQuoteRefundById(db, id);
    if (!row)
      throw ApplicationFailure.nonRetryable(`quote refund ${id} does not exist`, 'quote_refund_not_found');
    return row;
  };
  const refundStep = (row: QuoteRefundRow, webhookDeliveryId: string | null = null): QuoteRefundStep => ({
    refundId: row.id,
    status: row.status,
    webhookDeliveryId,
  });
  /** A quote refund as a treasury payment, recorded on the refund row. */
  const paymentOf = (row: QuoteRefundRow, quote: QuoteRow) =>
    context.tokenPayment(quote, row.address, BigInt(normalizeDecimal(row.amount)), {
      load: async () => {
        const current = await loadRefund(row.id);
        return { hash: current.tx_hash, serialized: current.tx_serialized, nonce: current.tx_nonce };
      },
      record: (previousHash, tx) => recordSignedTransfer(db, 'quote_refunds', row.id, previousHash, tx),
    });

  return {
    async findQuoteRefunds({ quoteId, reported = [] }) {
      const quote = await loadQuote(db, quoteId);
      const pendingOf = async () =>
        (await listQuoteRefunds(db, quoteId)).filter((r) => r.status === 'pending').map((r) => r.id);
      // An open quote's deposits wait for its outcome: they may still fund its execute.
      if (quote.status === 'open')
        return { pending: await pendingOf(), webhookDeliveryIds: [], unconfirmed: false };
      const scan = await depositsOf(quote, reported);
      // The treasury's own transfers (a refund to a sender whose address is also a deposit address) stay.
      const deposits = scan.deposits.filter(
        (d) => d.returnAddress.toLowerCase() !== treasury.address.toLowerCase(),
      );
      const webhookDeliveryIds = await inTransaction(db, async (trx) => {
        // Under the quote's lock, so an execute cannot commit between this look and the refunds.
        const locked = await loadQuote(trx, quoteId, true);
        const ids: string[] = [];
        for (const refund of await refundsOwed(trx, locked, deposits)) {
          const recorded = await recordQuoteRefund(trx, secrets, { ...refund, id: randomUUID(), quoteId });
          if (recorded?.webhookDeliveryId) ids.push(recorded.webhookDeliveryId);
        }
        return ids;
      });
      return { pending: await pendingOf(), webhookDeliveryIds, unconfirmed: scan.unconfirmed };
    },

    async sendQuoteRefund({ refundId }) {
      const row = await loadRefund(refundId);
      if (row.status !== 'pending') return refundStep(row);
      const quote = await loadQuote(db, row.quote_id);
      await treasury.send(paymentOf(row, quote));
      return refundStep(await loadRefund(refundId));
    },

    async checkQuoteRefund({ refundId }) {
      const row = await loadRefund(refundId);
      if (row.status !== 'pending' || !row.tx_hash) return refundStep(row);
      const quote = await loadQuote(db, row.quote_id);
      const check = await treasury.check(paymentOf(row, quote));
      if (check.state === 'none' || check.state === 'pending') return refundStep(row);
      const status = check.state === 'confirmed' ? 'sent' : 'failed';
      const step = await inTransaction(db, async (trx) => {
        const finished = await finishQuoteRefund(trx, refundId, status);
        if (!finished) return undefined;
        return refundStep(
          finished,
          await createQuoteUpdate(trx, secrets, finished.quote_id, quoteRefundSubject(finished, status)),
        );
      });
      return step ?? refundStep(await loadRefund(refundId));
    },
  };
}
