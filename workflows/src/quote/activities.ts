/**
 * Activities of `quoteLifecycle`: expire an unexecuted quote, move an executed quote's offramps through
 * the payout partner, apply the user's resend or refund request for a bounced payout, refund a failed
 * payout's tokens from the treasury exactly once, and find and return tokens at the deposit address that
 * no payout uses. Every offramp change is written with its `offramp_update` webhook, and every quote
 * refund change with its `quote_update` webhook, in one transaction.
 */
import { randomUUID } from 'node:crypto';
import {
  type ChainClients,
  type DepositTransfer,
  depositOfReceipt,
  firstBlockAtOrAfter,
  readTransfers,
} from '@checkout/chain';
import { formatUnits, normalizeDecimal, parseUnits, printableText, type TokenRegistry } from '@checkout/core';
import {
  type Database,
  type Db,
  findOfframpById,
  findQuoteById,
  findQuoteRefundById,
  findUnattemptedDelivery,
  findWatchCoverage,
  finishQuoteRefund,
  listOfframpsOfQuote,
  listQuoteRefunds,
  listTransfersInto,
  type NewQuoteRefund,
  type OfframpChangeExtras,
  type OfframpRow,
  type OfframpStatusValue,
  presentOfframp,
  type QuoteRefundRow,
  type QuoteRow,
  queueAccountEvent,
  quoteTotals,
  recordOfframpRefundTransfer,
  recordQuoteRefundTransfer,
  setQuoteDepositScanBlock,
  setQuoteStatus,
  transitionOfframp,
} from '@checkout/db';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import type { Address, Hash, Hex } from 'viem';
import { getBlockNumber, getTransactionReceipt } from 'viem/actions';
import { createTreasury, type TreasuryPayment } from '../onramp/treasury.ts';
import { createSandboxPayoutPartner, type PayoutPartner, payoutKey } from './payoutPartner.ts';
import { createQuoteUpdate, quoteRefundSubject, recordQuoteRefund } from './refunds.ts';
import {
  type OfframpStep,
  offrampUpdateEvent,
  type QuoteActivities,
  type QuoteRefundStep,
  quoteExpiredMessage,
  quoteNotFound,
  terminalOfframpStatuses,
} from './shared.ts';

/** How far before a quote's creation a deposit address not yet watched is read from (clock differences). */
const scanMarginMs = 15 * 60_000;
/** Time one direct read of the chain may take, inside the activity's 30 seconds. */
const scanTimeLimitMs = 20_000;
/** Blocks per window of a direct read. */
const scanWindow = 2_000n;

/** What the quote activities need. */
export interface QuoteActivityDeps {
  db: Db;
  /** Chains with an RPC endpoint, for refunds. */
  chains: ChainClients;
  ramps: { payoutSandboxDelayMs: number; treasuryPrivateKey: Hex };
  /** The token registry, to know USDT-style tokens; refunds encode the standard transfer without it. */
  tokens?: TokenRegistry;
  /** The payout partner; the sandbox partner when absent. */
  payoutPartner?: PayoutPartner;
}

/** Applies an offramp change and queues its webhook in the same transaction; null when it lost a race. */
async function changeOfframp(
  trx: Kysely<Database>,
  id: string,
  from: OfframpStatusValue,
  to: OfframpStatusValue,
  message: string | null,
  extras: OfframpChangeExtras = {},
): Promise<OfframpStep | null> {
  const row = await transitionOfframp(trx, id, from, to, message, extras);
  if (!row) return null;
  const step = { offrampId: row.id, status: row.status, refund: row.refund_status };
  const webhookDeliveryId = await queueAccountEvent(trx, {
    merchantId: row.merchant_id,
    event: offrampUpdateEvent,
    subjectId: `${row.id}:status:${row.status_version}`,
    payload: { offramp: presentOfframp(row) },
  });
  return { ...step, webhookDeliveryId };
}

/**
 * The offramp as it is, for a step that changed nothing (a retry, or a race lost): with the webhook of its
 * current version when nobody attempted it yet, so a retried step hands on what its first attempt queued.
 */
const unchanged = async (exec: Kysely<Database>, row: OfframpRow): Promise<OfframpStep> => ({
  offrampId: row.id,
  status: row.status,
  refund: row.refund_status,
  webhookDeliveryId: await findUnattemptedDelivery(
    exec,
    offrampUpdateEvent,
    `${row.id}:status:${row.status_version}`,
  ),
});

/** The offramp's tokens (fee included) as a decimal of the quote's token: what a refund returns. */
function refundAmountOf(row: OfframpRow, quote: QuoteRow): string {
  return formatUnits(BigInt(normalizeDecimal(row.token_amount)), quote.token_decimals);
}

/** The sentence of a refund under way, or (with its transaction) done. */
function refundSentence(amount: string, quote: QuoteRow, address: string, hash?: string): string {
  const what = `${normalizeDecimal(amount)} ${quote.deposit_token.toUpperCase()} to ${address}`;
  return hash ? `Refunded ${what} in transaction ${hash}.` : `Refunding ${what}.`;
}

/** The message of a refunded (or unrefundable) offramp: the reason it failed, then the refund's outcome. */
function refundedMessage(row: OfframpRow, quote: QuoteRow, outcome: string): string {
  const pending = refundSentence(row.refund_amount ?? '0', quote, row.refund_address ?? '');
  const message = row.status_message ?? '';
  const reason = message.endsWith(pending) ? message.slice(0, -pending.length).trim() : '';
  return `${reason || 'The payout was not made.'} ${outcome}`;
}

/** Builds the quote activities. */
export function createQuoteActivities(deps: QuoteActivityDeps): QuoteActivities {
  const db = deps.db.kysely;
  const partner =
    deps.payoutPartner ?? createSandboxPayoutPartner({ delayMs: deps.ramps.payoutSandboxDelayMs });
  const treasury = createTreasury({ chains: deps.chains, privateKey: deps.ramps.treasuryPrivateKey });

  const loadOfframp = async (trx: Kysely<Database>, id: string, forUpdate = false): Promise<OfframpRow> => {
    const row = await findOfframpById(trx, id, forUpdate);
    if (!row) throw ApplicationFailure.nonRetryable(`offramp ${id} does not exist`, 'OfframpNotFound');
    return row;
  };
  /**
   * What reached the quote's deposit address in its token, one entry per transaction, and whether a
   * transfer too recent to count is there. The chain's watcher reads the address once for every quote and
   * checkout (see ../chainWatcher/activities.ts): where it covers the address, its recorded transfers are
   * read from the database, and the chain is asked only for each transaction's receipt (who to return the
   * tokens to). Where it does not (no watcher ran yet, or a quote past its watch), the address's Transfer
   * logs are read directly, from where the last such read stopped and for at most `scanTimeLimitMs`.
   */
  const depositsOf = async (
    quote: QuoteRow,
    chain: NonNullable<ReturnType<ChainClients['get']>>,
  ): Promise<{
    deposits: DepositTransfer[];
    unconfirmed: boolean;
    complete: boolean;
    /** Where the next direct read starts; undefined when the watcher covers the address. */
    nextBlock?: bigint;
  }> => {
    let since: bigint;
    if (quote.deposit_scan_block === null) {
      since = await firstBlockAtOrAfter(chain.client, new Date(quote.created_at.getTime() - scanMarginMs));
      await setQuoteDepositScanBlock(db, quote.id, since);
    } else {
      since = BigInt(normalizeDecimal(quote.deposit_scan_block));
    }
    const needed = Math.max(1, chain.confirmations);
    const seen = new Map<string, bigint>();
    let confirmedTo: bigint;
    let complete = true;
    let nextBlock: bigint | undefined;
    const coverage = await findWatchCoverage(db, {
      chainId: quote.chain_id,
      address: quote.deposit_address,
      sinceBlock: since,
    });
    if (coverage) {
      // Every transfer the watcher recorded into the address: a deposit address is the quote's alone.
      const rows = await listTransfersInto(db, {
        chainId: quote.chain_id,
        to: quote.deposit_address,
        tokens: [quote.token_address],
        sinceBlock: 0n,
      });
      for (const r of rows) if (!seen.has(r.tx_hash)) seen.set(r.tx_hash, BigInt(r.block_number));
      confirmedTo = coverage.headBlock - BigInt(needed) + 1n;
    } else {
      const head = await getBlockNumber(chain.client, { cacheTime: 0 });
      confirmedTo = head - BigInt(needed) + 1n;
      const deadline = Date.now() + scanTimeLimitMs;
      let readTo = since - 1n;
      for (let start = since; start <= head; start += scanWindow) {
        if (Date.now() > deadline) {
          complete = false;
          break;
        }
        const end = start + scanWindow - 1n < head ? start + scanWindow - 1n : head;
        const logs = await readTransfers({
          client: chain.client,
          tokens: [quote.token_address as Address],
          to: [quote.deposit_address as Address],
          fromBlock: start,
          toBlock: end,
        });
        for (const log of logs) {
          const hash = log.txHash.toLowerCase();
          if (!seen.has(hash)) seen.set(hash, log.blockNumber);
        }
        readTo = end;
      }
      // The next direct read starts past the last confirmed block read.
      const done = readTo < confirmedTo ? readTo : confirmedTo;
      nextBlock = done + 1n > since ? done + 1n : since;
    }
    const unconfirmed = [...seen.values()].some((block) => block > confirmedTo);
    const known = new Set((await listQuoteRefunds(db, quote.id)).map((r) => r.deposit_tx_hash));
    const funding = quote.crypto_transfer?.tx_id.toLowerCase();
    const deposits: DepositTransfer[] = [];
    for (const [hash, block] of [...seen].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))) {
      // Confirmed, and not yet returned (a refund is recorded once per transaction anyway).
      if (block > confirmedTo || known.has(hash) || hash === funding) continue;
      const receipt = await getTransactionReceipt(chain.client, { hash: hash as Hash });
      const deposit = depositOfReceipt(
        receipt,
        quote.token_address as Address,
        quote.deposit_address as Address,
      );
      if (deposit) deposits.push(deposit);
    }
    return { deposits, unconfirmed, complete, ...(nextBlock === undefined ? {} : { nextBlock }) };
  };

  const loadQuote = async (trx: Kysely<Database>, id: string, forUpdate = false): Promise<QuoteRow> => {
    const quote = await findQuoteById(trx, id, forUpdate);
    if (!quote) throw ApplicationFailure.retryable(`quote ${id} does not exist`, quoteNotFound);
    return quote;
  };
  /** What a refund owes: the whole offramp back to `address`, or nothing when no address is known. */
  const refundOf = (row: OfframpRow, quote: QuoteRow, address: string | null) =>
    address
      ? {
          extras: { refund: { status: 'pending' as const, address, amount: refundAmountOf(row, quote) } },
          text: refundSentence(refundAmountOf(row, quote), quote, address),
        }
      : {
          extras: {},
          text: 'The sender of the deposit is unknown, so no refund could be sent; contact support.',
        };
  /** The refund as a treasury payment, recorded on the offramp row. */
  const refundPaymentOf = (row: OfframpRow, quote: QuoteRow): TreasuryPayment => ({
    chainId: quote.chain_id,
    token: quote.token_address as Address,
    to: row.refund_address as Address,
    amount: parseUnits(normalizeDecimal(row.refund_amount ?? '0'), quote.token_decimals),
    noReturnTransfer:
      deps.tokens?.findPaymentToken(quote.chain_id, quote.token_address)?.noReturnTransfer === true,
    load: async () => {
      const current = await loadOfframp(db, row.id);
      return {
        hash: current.refund_tx_hash,
        serialized: current.refund_tx_serialized,
        nonce: current.refund_tx_nonce,
      };
    },
    record: (previousHash, tx) => recordOfframpRefundTransfer(db, row.id, previousHash, tx),
  });
  const loadRefund = async (id: string): Promise<QuoteRefundRow> => {
    const row = await findQuoteRefundById(db, id);
    if (!row)
      throw ApplicationFailure.nonRetryable(`quote refund ${id} does not exist`, 'QuoteRefundNotFound');
    return row;
  };
  const refundStep = (row: QuoteRefundRow, webhookDeliveryId: string | null = null): QuoteRefundStep => ({
    refundId: row.id,
    status: row.status,
    webhookDeliveryId,
  });
  /** A quote refund as a treasury payment, recorded on the refund row. */
  const quoteRefundPaymentOf = (row: QuoteRefundRow, quote: QuoteRow): TreasuryPayment => ({
    chainId: quote.chain_id,
    token: quote.token_address as Address,
    to: row.address as Address,
    amount: BigInt(normalizeDecimal(row.amount)),
    noReturnTransfer:
      deps.tokens?.findPaymentToken(quote.chain_id, quote.token_address)?.noReturnTransfer === true,
    load: async () => {
      const current = await loadRefund(row.id);
      return { hash: current.tx_hash, serialized: current.tx_serialized, nonce: current.tx_nonce };
    },
    record: (previousHash, tx) => recordQuoteRefundTransfer(db, row.id, previousHash, tx),
  });

  return {
    async expireQuote({ quoteId }) {
      return db.transaction().execute(async (trx) => {
        const quote = await loadQuote(trx, quoteId, true);
        // The workflow's timer is the authority: an execute committed before it fired has moved the quote on.
        const expired =
          quote.status === 'open' ? await setQuoteStatus(trx, quoteId, 'open', 'expired') : quote;
        const offramps: OfframpStep[] = [];
        for (const row of await listOfframpsOfQuote(trx, quoteId)) {
          const moved =
            expired?.status === 'expired' && row.status === 'initiated'
              ? await changeOfframp(trx, row.id, 'initiated', 'failed', quoteExpiredMessage)
              : null;
          offramps.push(moved ?? (await unchanged(trx, row)));
        }
        return { quoteStatus: expired?.status ?? quote.status, offramps };
      });
    },

    async beginQuotePayouts({ quoteId }) {
      return db.transaction().execute(async (trx) => {
        const quote = await loadQuote(trx, quoteId, true);
        const offramps: OfframpStep[] = [];
        for (const row of await listOfframpsOfQuote(trx, quoteId)) {
          const moved =
            quote.status === 'executed' && row.status === 'initiated'
              ? await changeOfframp(trx, row.id, 'initiated', 'pending_internal_assessment', null)
              : null;
          offramps.push(moved ?? (await unchanged(trx, row)));
        }
        return { quoteStatus: quote.status, offramps };
      });
    },

    async submitOfframpPayout({ offrampId }) {
      const step = await db.transaction().execute((trx) =>
        changeOfframp(trx, offrampId, 'pending_internal_assessment', 'sending_fiat', null, {
          payoutAttempt: true,
        }),
      );
      const row = await loadOfframp(db, offrampId);
      if (row.status !== 'sending_fiat') return { ...(await unchanged(db, row)), settleAfterMs: 0 };
      const { settleAfterMs } = await partner.submit(row, payoutKey(row));
      return { ...(step ?? (await unchanged(db, row))), settleAfterMs };
    },

    async settleOfframpPayout({ offrampId }) {
      const row = await loadOfframp(db, offrampId);
      if (row.status !== 'sending_fiat') return unchanged(db, row);
      const outcome = await partner.outcome(row);
      const step = await db.transaction().execute(async (trx) => {
        if (outcome.status === 'fiat_sent') {
          return changeOfframp(trx, offrampId, 'sending_fiat', 'fiat_sent', null);
        }
        if (outcome.status === 'bounced') {
          return changeOfframp(
            trx,
            offrampId,
            'sending_fiat',
            'bounced',
            `${outcome.message} Resend it to another approved payment detail in ${row.destination_currency.toUpperCase()}, or request a refund of the tokens.`,
          );
        }
        // A failed payout is final: its tokens go back to whoever sent the deposit.
        const quote = await loadQuote(trx, row.quote_id);
        const refund = refundOf(row, quote, quote.sender_address);
        return changeOfframp(
          trx,
          offrampId,
          'sending_fiat',
          'failed',
          `${outcome.message} ${refund.text}`,
          refund.extras,
        );
      });
      return step ?? unchanged(db, await loadOfframp(db, offrampId));
    },

    async resolveBouncedOfframp({ offrampId }) {
      const step = await db.transaction().execute(async (trx) => {
        const row = await loadOfframp(trx, offrampId, true);
        if (row.status !== 'bounced' || row.bounce_action === null) return null;
        if (row.bounce_action === 'resend') {
          return changeOfframp(trx, offrampId, 'bounced', 'sending_fiat', null, {
            bounceAction: null,
            payoutAttempt: true,
          });
        }
        const quote = await loadQuote(trx, row.quote_id);
        const refund = refundOf(row, quote, row.refund_address);
        return changeOfframp(
          trx,
          offrampId,
          'bounced',
          'failed',
          `The payout bounced and a refund was requested. ${refund.text}`,
          { bounceAction: null, ...refund.extras },
        );
      });
      const row = await loadOfframp(db, offrampId);
      // The payout goes to the partner again, now to the newly chosen payment detail.
      if (step?.status === 'sending_fiat' && row.status === 'sending_fiat') {
        const { settleAfterMs } = await partner.submit(row, payoutKey(row));
        return { ...step, settleAfterMs };
      }
      return { ...(step ?? (await unchanged(db, row))), settleAfterMs: 0 };
    },

    async sendOfframpRefund({ offrampId }) {
      const row = await loadOfframp(db, offrampId);
      if (row.status !== 'failed' || row.refund_status !== 'pending' || !row.refund_address) {
        return unchanged(db, row);
      }
      const quote = await loadQuote(db, row.quote_id);
      await treasury.send(refundPaymentOf(row, quote));
      return unchanged(db, await loadOfframp(db, offrampId));
    },

    async checkOfframpRefund({ offrampId }) {
      const row = await loadOfframp(db, offrampId);
      if (row.status !== 'failed' || row.refund_status !== 'pending' || !row.refund_tx_hash) {
        return { ...(await unchanged(db, row)), transfer: 'none' };
      }
      const quote = await loadQuote(db, row.quote_id);
      const check = await treasury.check(refundPaymentOf(row, quote));
      if (check.state === 'none' || check.state === 'pending')
        return { ...(await unchanged(db, row)), transfer: 'pending' };
      const step = await db
        .transaction()
        .execute((trx) =>
          check.state === 'confirmed'
            ? changeOfframp(
                trx,
                offrampId,
                'failed',
                'failed',
                refundedMessage(
                  row,
                  quote,
                  refundSentence(row.refund_amount ?? '0', quote, row.refund_address ?? '', check.hash),
                ),
                { refund: { status: 'sent' } },
              )
            : changeOfframp(
                trx,
                offrampId,
                'failed',
                'failed',
                refundedMessage(
                  row,
                  quote,
                  `The refund transfer ${check.hash} reverted on chain; contact support.`,
                ),
                { refund: { status: 'failed' } },
              ),
        );
      return {
        ...(step ?? (await unchanged(db, await loadOfframp(db, offrampId)))),
        transfer: check.state === 'confirmed' ? 'confirmed' : 'reverted',
      };
    },

    async findQuoteRefunds({ quoteId }) {
      const quote = await loadQuote(db, quoteId);
      const pendingOf = async () =>
        (await listQuoteRefunds(db, quoteId)).filter((r) => r.status === 'pending').map((r) => r.id);
      // An open quote's deposits wait for its outcome: they may still fund its execute.
      if (quote.status === 'open') {
        return { pending: await pendingOf(), webhookDeliveryIds: [], unconfirmed: false, complete: true };
      }
      const chain = deps.chains.get(quote.chain_id);
      if (!chain) {
        // Retried until the chain is configured again: the tokens stay owed meanwhile.
        throw ApplicationFailure.retryable(
          `no RPC endpoint for chain ${quote.chain_id}`,
          'chain_not_configured',
        );
      }
      const scan = await depositsOf(quote, chain);
      // The treasury's own transfers (a refund to a sender whose address is also a deposit address) stay.
      const deposits = scan.deposits.filter(
        (d) => d.returnAddress.toLowerCase() !== treasury.address.toLowerCase(),
      );
      const webhookDeliveryIds = await db.transaction().execute(async (trx) => {
        // Under the quote's lock, so an execute cannot commit between this look and the refunds.
        const locked = await loadQuote(trx, quoteId, true);
        const ids: string[] = [];
        const add = async (refund: Omit<NewQuoteRefund, 'id' | 'quoteId'>) => {
          const recorded = await recordQuoteRefund(trx, { ...refund, id: randomUUID(), quoteId });
          if (recorded?.webhookDeliveryId) ids.push(recorded.webhookDeliveryId);
        };
        const funding = locked.crypto_transfer?.tx_id.toLowerCase() ?? null;
        if (funding !== null) {
          // Executed: the executing transfer's excess, and every other transfer, go back.
          const received = BigInt(normalizeDecimal(locked.received_amount ?? '0'));
          const excess = received - quoteTotals(await listOfframpsOfQuote(trx, quoteId)).amount;
          if (excess > 0n && locked.sender_address) {
            await add({
              reason: 'excess',
              depositTxHash: funding,
              amount: excess,
              address: locked.sender_address,
            });
          }
          for (const d of deposits) {
            if (d.txHash === funding) continue;
            await add({
              reason: 'extra_transfer',
              depositTxHash: d.txHash,
              amount: d.amount,
              address: d.returnAddress,
            });
          }
        } else if (locked.status === 'expired') {
          for (const d of deposits) {
            await add({
              reason: 'quote_expired',
              depositTxHash: d.txHash,
              amount: d.amount,
              address: d.returnAddress,
            });
          }
        }
        if (locked.status !== 'open' && scan.nextBlock !== undefined) {
          await setQuoteDepositScanBlock(trx, quoteId, scan.nextBlock);
        }
        return ids;
      });
      return {
        pending: await pendingOf(),
        webhookDeliveryIds,
        unconfirmed: scan.unconfirmed,
        complete: scan.complete,
      };
    },

    async sendQuoteRefund({ refundId }) {
      const row = await loadRefund(refundId);
      if (row.status !== 'pending') return refundStep(row);
      const quote = await loadQuote(db, row.quote_id);
      await treasury.send(quoteRefundPaymentOf(row, quote));
      return refundStep(await loadRefund(refundId));
    },

    async checkQuoteRefund({ refundId }) {
      const row = await loadRefund(refundId);
      if (row.status !== 'pending' || !row.tx_hash) return refundStep(row);
      const quote = await loadQuote(db, row.quote_id);
      const check = await treasury.check(quoteRefundPaymentOf(row, quote));
      if (check.state === 'none' || check.state === 'pending') return refundStep(row);
      const status = check.state === 'confirmed' ? 'sent' : 'failed';
      const step = await db.transaction().execute(async (trx) => {
        const finished = await finishQuoteRefund(trx, refundId, status);
        if (!finished) return undefined;
        return refundStep(
          finished,
          await createQuoteUpdate(trx, finished.quote_id, quoteRefundSubject(finished, status)),
        );
      });
      return step ?? refundStep(await loadRefund(refundId));
    },

    async recordOfframpStepFailure({ offrampId, message }) {
      return db.transaction().execute(async (trx) => {
        const row = await loadOfframp(trx, offrampId, true);
        // A retried note (its first attempt committed) changes nothing and queues no second webhook.
        if (row.status_message === printableText(message)) return unchanged(trx, row);
        const step = await changeOfframp(trx, offrampId, row.status, row.status, printableText(message));
        return step ?? unchanged(trx, row);
      });
    },

    async completeQuote({ quoteId }) {
      const offramps = await listOfframpsOfQuote(db, quoteId);
      const done = offramps.every(
        (o) => terminalOfframpStatuses.includes(o.status) && o.refund_status !== 'pending',
      );
      if (done) await setQuoteStatus(db, quoteId, 'executed', 'completed');
      const quote = await loadQuote(db, quoteId);
      return { quoteStatus: quote.status };
    },
  };
}
