/**
 * Offramps and quote execution (research §7, §12): offramps are added to an open quote and priced from
 * the fee and FX tables; executing the quote checks it (in the order documented in
 * docs/area-b-decisions.md), verifies the funding transaction on chain and starts `quoteLifecycle`.
 */
import { randomUUID } from 'node:crypto';
import { type AcceptedToken, readDeposit, verifyPayment } from '@checkout/chain';
import {
  ApiError,
  centsToDecimal,
  type FieldError,
  feeCents,
  fiatDecimals,
  formatUnits,
  maxOfframpAmount,
  normalizeDecimal,
  notFound,
  OfframpRefundBody,
  OfframpResendBody,
  OfframpsCreateBody,
  OfframpUpdateBody,
  parseUnits,
  QuoteExecuteBody,
  recordInvalid,
  tokenUnitsForFiat,
  Uuid,
} from '@checkout/core';
import {
  type Database,
  findOfframp,
  findPaymentDetail,
  findQuoteById,
  findQuoteRefundOfDeposit,
  insertOfframps,
  inTransaction,
  listOfframpsOfQuote,
  listOfframpsOfUser,
  listQuoteRefunds,
  markQuoteExecuted,
  type NewOfframpRow,
  type OfframpRow,
  presentOfframp,
  presentQuote,
  type QuoteRow,
  quoteTotals,
  requestBouncedOfframpAction,
  updateOfframpReference,
} from '@checkout/db';
import { recordQuoteRefund, startWebhookDelivery } from '@checkout/workflows';
import type { Router } from '@koa/router';
import type { ParameterizedContext } from 'koa';
import type { Kysely } from 'kysely';
import { type Address, getAddress, type Hash } from 'viem';
import type { AppDeps, AppState } from '../context.ts';
import { parseBody } from '../parseBody.ts';
import {
  handDepositReportToWorkflow,
  handOfframpActionToWorkflow,
  handQuoteToWorkflow,
} from '../rampWorkflows.ts';
import { quoteOfRequest } from './quotes.ts';
import { userOfRequest } from './users.ts';

/** Destination amounts above which an offramp needs a supporting document, in fiat cents per currency. */
export const supportingDocumentThresholdCents: Readonly<Record<string, bigint>> = {
  eur: 1_500_000n,
  usd: 1_000_000n,
};

const maxOfframpCents = parseUnits(maxOfframpAmount, fiatDecimals);

/** True when `fiatCents` of `currency` needs a supporting document; other currencies go by their USD value. */
function needsSupportingDocument(currency: string, fiatCents: bigint, rate: string): boolean {
  const threshold = supportingDocumentThresholdCents[currency];
  if (threshold !== undefined) return fiatCents > threshold;
  const scale = rate.includes('.') ? rate.length - rate.indexOf('.') - 1 : 0;
  const usdThreshold = supportingDocumentThresholdCents.usd ?? 0n;
  // fiat / rate > threshold, cross-multiplied so no division rounds.
  return fiatCents * 10n ** BigInt(scale) > usdThreshold * parseUnits(rate, scale);
}

const alreadyExecuted = (more = '') =>
  new ApiError('quote_already_executed', `The quote has already been executed${more}`);
const expired = (more = '') =>
  new ApiError('quote_expired', `The quote has expired; create a new quote${more}`);

/** True when the quote was executed (it may have completed since). */
function isExecuted(quote: QuoteRow): boolean {
  return quote.crypto_transfer !== null || quote.status === 'executed' || quote.status === 'completed';
}

/** True when the quote's expiry passed, whether or not its workflow has marked it expired yet. */
function isExpired(quote: QuoteRow): boolean {
  return quote.status === 'expired' || quote.expires_at.getTime() <= Date.now();
}

/** The quote locked for this transaction, refused unless it still takes offramps. */
async function lockOpenQuote(trx: Kysely<Database>, quote: QuoteRow): Promise<QuoteRow> {
  const locked = await findQuoteById(trx, quote.id, true);
  if (!locked) throw notFound('Quote');
  if (isExecuted(locked)) throw alreadyExecuted();
  if (isExpired(locked) || locked.status !== 'open') throw expired();
  return locked;
}

const scopeOf = (row: OfframpRow) => ({ merchantId: row.merchant_id, userId: row.user_id });

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

/** Registers offramp and quote execution routes on the Area B router (API key only). */
export function offrampRoutes(router: Router<AppState>, deps: AppDeps): void {
  const offrampOfRequest = async (
    ctx: ParameterizedContext<AppState>,
    scope: { merchantId: string; userId: string },
    id: string | undefined,
  ): Promise<OfframpRow> => {
    if (!id || !Uuid.safeParse(id).success) throw notFound('Offramp');
    const row = await findOfframp(ctx.state.db, scope, id);
    if (!row) throw notFound('Offramp');
    return row;
  };

  router.post('/users/:id/quotes/:quoteId/offramps', async (ctx) => {
    const user = await userOfRequest(ctx, ctx.params.id);
    const quote = await quoteOfRequest(ctx, user, ctx.params.quoteId);
    const { offramps: inputs } = parseBody(OfframpsCreateBody, ctx.state.body, 'offramps');
    const scope = { merchantId: user.merchant_id, userId: user.id };
    const errors: FieldError[] = [];
    const rows: NewOfframpRow[] = [];
    for (const [i, input] of inputs.entries()) {
      const path = (field: string) => `offramps.${i}.${field}`;
      const detail = await findPaymentDetail(ctx.state.db, scope, input.payment_detail_id);
      if (!detail) {
        errors.push({ path: path('payment_detail_id'), message: 'does not exist' });
        continue;
      }
      if (detail.status !== 'approved') {
        throw new ApiError(
          'payment_detail_not_approved',
          `Payment detail ${detail.id} is ${detail.status}, not approved`,
          { errors: [{ path: path('payment_detail_id'), message: `is ${detail.status}` }] },
        );
      }
      if (input.destination_currency !== detail.currency) {
        throw new ApiError(
          'currency_mismatch',
          `The destination currency ${input.destination_currency} is not the payment detail's ${detail.currency}`,
          { errors: [{ path: path('destination_currency'), message: `must be ${detail.currency}` }] },
        );
      }
      const rails = input.rails ?? detail.rails ?? 'local';
      if (detail.rails === 'swift' && rails !== 'swift') {
        errors.push({ path: path('rails'), message: 'must be swift for a SWIFT payment detail' });
        continue;
      }
      const rule = deps.config.ramps.offrampFees.find(
        (r) => r.currency === input.destination_currency && r.rail === rails,
      );
      const rate = deps.config.ramps.fxRates[input.destination_currency];
      if (!rule || !rate) {
        errors.push({ path: path('rails'), message: `${rails} is not available for ${detail.currency}` });
        continue;
      }
      const amount = parseUnits(input.destination_amount, fiatDecimals);
      if (amount <= 0n) {
        errors.push({ path: path('destination_amount'), message: 'must be positive' });
        continue;
      }
      if (amount > maxOfframpCents) {
        errors.push({ path: path('destination_amount'), message: `must be at most ${maxOfframpAmount}` });
        continue;
      }
      const documentUrl =
        input.supporting_document_url ?? input.supporting_document_attributes?.submitted_url ?? null;
      if (!documentUrl && (rails === 'swift' || needsSupportingDocument(detail.currency, amount, rate))) {
        errors.push({
          path: path('supporting_document_attributes.submitted_url'),
          message: 'is required above 15000 EUR or 10000 USD and for SWIFT payouts',
        });
        continue;
      }
      const fee = feeCents(rule, amount);
      rows.push({
        id: randomUUID(),
        quote_id: quote.id,
        user_id: user.id,
        merchant_id: user.merchant_id,
        payment_detail_id: detail.id,
        status: 'initiated',
        status_message: null,
        destination_amount: centsToDecimal(amount),
        destination_currency: input.destination_currency,
        rails,
        reference: input.reference ?? null,
        rate,
        fee: centsToDecimal(fee),
        token_amount: tokenUnitsForFiat(amount + fee, rate, quote.token_decimals).toString(),
        token_fee: tokenUnitsForFiat(fee, rate, quote.token_decimals).toString(),
        supporting_document_url: documentUrl,
        metadata: input.metadata ?? null,
      });
    }
    if (errors.length > 0) throw recordInvalid(errors);
    const inserted = await inTransaction(ctx.state.db, async (trx) => {
      await lockOpenQuote(trx, quote);
      return insertOfframps(trx, rows);
    });
    ctx.body = { offramps: inserted.map(presentOfframp) };
  });

  router.get('/users/:id/offramps', async (ctx) => {
    const user = await userOfRequest(ctx, ctx.params.id);
    const rows = await listOfframpsOfUser(ctx.state.db, { merchantId: user.merchant_id, userId: user.id });
    ctx.body = { offramps: rows.map(presentOfframp) };
  });

  router.get('/users/:id/offramps/:offrampId', async (ctx) => {
    const user = await userOfRequest(ctx, ctx.params.id);
    const scope = { merchantId: user.merchant_id, userId: user.id };
    ctx.body = { offramp: presentOfframp(await offrampOfRequest(ctx, scope, ctx.params.offrampId)) };
  });

  router.patch('/users/:id/quotes/:quoteId/offramps/:offrampId', async (ctx) => {
    const user = await userOfRequest(ctx, ctx.params.id);
    const quote = await quoteOfRequest(ctx, user, ctx.params.quoteId);
    const scope = { merchantId: user.merchant_id, userId: user.id };
    const row = await offrampOfRequest(ctx, scope, ctx.params.offrampId);
    if (row.quote_id !== quote.id) throw notFound('Offramp');
    const { offramp: input } = parseBody(OfframpUpdateBody, ctx.state.body, 'offramp');
    if (row.destination_currency === 'usd' && row.rails === 'local') {
      throw recordInvalid([{ path: 'offramp.reference', message: 'cannot change on a USD local payout' }]);
    }
    const updated = await updateOfframpReference(ctx.state.db, row.id, input.reference || null);
    if (!updated) {
      throw recordInvalid([
        { path: 'offramp.reference', message: `cannot change once the offramp is ${row.status}` },
      ]);
    }
    ctx.body = { offramp: presentOfframp(updated) };
  });

  /** The bounced offramp of the request's quote that a resend or refund is asked for. */
  const bouncedOfframpOfRequest = async (ctx: ParameterizedContext<AppState>) => {
    const user = await userOfRequest(ctx, ctx.params.id);
    const quote = await quoteOfRequest(ctx, user, ctx.params.quoteId);
    const scope = { merchantId: user.merchant_id, userId: user.id };
    const row = await offrampOfRequest(ctx, scope, ctx.params.offrampId);
    if (row.quote_id !== quote.id) throw notFound('Offramp');
    return { quote, row, scope };
  };
  const notBounced = (row: OfframpRow) =>
    new ApiError(
      'offramp_not_bounced',
      row.status === 'bounced'
        ? `A ${row.bounce_action ?? 'resend or refund'} of this offramp is already under way`
        : `Only a bounced offramp can be resent or refunded; this one is ${row.status}`,
    );
  /** Records the request, then hands it to the quote's workflow (or, if Temporal is down, the reconciler). */
  const requestAction = async (
    ctx: ParameterizedContext<AppState>,
    quote: QuoteRow,
    row: OfframpRow,
    action: Parameters<typeof requestBouncedOfframpAction>[2],
  ) => {
    const updated = await requestBouncedOfframpAction(ctx.state.db, row.id, action);
    if (!updated) throw notBounced((await findOfframp(ctx.state.db, scopeOf(row), row.id)) ?? row);
    await handOfframpActionToWorkflow(deps, quote, row.id, ctx.state.log);
    ctx.body = { offramp: presentOfframp(updated) };
  };

  // A bounced payout (research §7): pay it out again to another approved detail of the same currency.
  router.post('/users/:id/quotes/:quoteId/offramps/:offrampId/resend', async (ctx) => {
    const { quote, row, scope } = await bouncedOfframpOfRequest(ctx);
    const { offramp: input } = parseBody(OfframpResendBody, ctx.state.body, 'offramp');
    if (row.status !== 'bounced' || row.bounce_action !== null) throw notBounced(row);
    const path = 'offramp.payment_detail_id';
    const detail = await findPaymentDetail(ctx.state.db, scope, input.payment_detail_id);
    if (!detail) throw recordInvalid([{ path, message: 'does not exist' }]);
    if (detail.status !== 'approved') {
      throw new ApiError(
        'payment_detail_not_approved',
        `Payment detail ${detail.id} is ${detail.status}, not approved`,
        { errors: [{ path, message: `is ${detail.status}` }] },
      );
    }
    if (detail.currency !== row.destination_currency) {
      throw new ApiError(
        'currency_mismatch',
        `The offramp pays out ${row.destination_currency}, not the payment detail's ${detail.currency}`,
        { errors: [{ path, message: `must be a ${row.destination_currency} payment detail` }] },
      );
    }
    if (detail.rails === 'swift' && row.rails !== 'swift') {
      throw recordInvalid([
        { path, message: `must not be a SWIFT payment detail for a ${row.rails} payout` },
      ]);
    }
    await requestAction(ctx, quote, row, { kind: 'resend', paymentDetailId: detail.id });
  });

  // A bounced payout (research §7): return its tokens, fee included, to the deposit's sender or a given address.
  router.post('/users/:id/quotes/:quoteId/offramps/:offrampId/refund', async (ctx) => {
    const { quote, row } = await bouncedOfframpOfRequest(ctx);
    const { offramp: input } = parseBody(OfframpRefundBody, ctx.state.body, 'offramp');
    if (row.status !== 'bounced' || row.bounce_action !== null) throw notBounced(row);
    const address = input.refund_address ?? quote.sender_address;
    if (!address) {
      throw recordInvalid([
        { path: 'offramp.refund_address', message: "is required: the deposit's sender is unknown" },
      ]);
    }
    await requestAction(ctx, quote, row, { kind: 'refund', refundAddress: getAddress(address) });
  });

  /**
   * A transfer reported for a quote that can no longer use it (expired, or executed by another
   * transaction): when it brought the quote's token to the deposit address, the quote's workflow is told
   * to look at the address again and returns the tokens to their sender. The request itself is still
   * refused; what follows is a sentence for its message. Chain or Temporal trouble only shortens it.
   */
  const reportLateTransfer = async (
    ctx: ParameterizedContext<AppState>,
    quote: QuoteRow,
    transfer: { tx_id: string; blockchain: string; network: string },
  ): Promise<string> => {
    const txHash = transfer.tx_id.toLowerCase();
    const chain = deps.chains.get(quote.chain_id);
    const sameChain =
      transfer.blockchain === quote.deposit_token_chain &&
      (transfer.network === 'mainnet') === (quote.network === 'mainnet');
    if (!chain || !sameChain || quote.crypto_transfer?.tx_id.toLowerCase() === txHash) return '';
    const recorded = await findQuoteRefundOfDeposit(ctx.state.db, quote.id, txHash);
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
      ctx.state.log.warn({ err: error, quoteId: quote.id }, 'could not read a reported transfer');
      return '';
    }
    if (reading.status === 'pending') {
      return `. The transaction has ${reading.confirmations} of ${chain.confirmations} confirmations; report it again once confirmed to have its tokens returned.`;
    }
    if (reading.status !== 'confirmed') return '';
    const { amount, returnAddress } = reading.deposit;
    const what = `the ${formatUnits(amount, quote.token_decimals)} ${token} this transaction sent to the deposit address`;
    return (await handDepositReportToWorkflow(deps, quote, txHash, ctx.state.log))
      ? `. ${what.charAt(0).toUpperCase()}${what.slice(1)} will be returned to ${returnAddress} (see quote.refunds).`
      : `. To have ${what} returned, report it again in a moment.`;
  };

  router.post('/users/:id/quotes/:quoteId/execute', async (ctx) => {
    const user = await userOfRequest(ctx, ctx.params.id);
    const quote = await quoteOfRequest(ctx, user, ctx.params.quoteId);
    const { quote: input } = parseBody(QuoteExecuteBody, ctx.state.body, 'quote');
    const transfer = input.crypto_transfer;
    const scope = { merchantId: user.merchant_id, userId: user.id };

    // A quote that can no longer use the transfer (executed, or expired) returns what it brought to its
    // deposit address, whichever refusal follows.
    const late = () =>
      isExecuted(quote) || isExpired(quote) ? reportLateTransfer(ctx, quote, transfer) : Promise.resolve('');
    // 1. quote_already_executed
    if (isExecuted(quote)) throw alreadyExecuted(await late());
    // 2. no_offramps_present
    const offramps = await listOfframpsOfQuote(ctx.state.db, quote.id);
    if (offramps.length === 0) {
      throw new ApiError(
        'no_offramps_present',
        `Add offramps to the quote before executing it${await late()}`,
      );
    }
    // 3. payment_detail_not_approved
    for (const [i, o] of offramps.entries()) {
      const detail = await findPaymentDetail(ctx.state.db, scope, o.payment_detail_id);
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
    if (isExpired(quote)) throw expired(await late());
    // 6. one transaction funds one quote.
    const used = await ctx.state.db
      .selectFrom('quotes')
      .select('id')
      .where((eb) => eb(eb.ref('crypto_transfer', '->>').key('tx_id'), '=', transfer.tx_id.toLowerCase()))
      .executeTakeFirst();
    if (used) throw new ApiError('tx_already_used', 'This transaction already funded another quote');

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

    let executed: QuoteRow;
    let excessUpdate: string | null = null;
    try {
      executed = await inTransaction(ctx.state.db, async (trx) => {
        await lockOpenQuote(trx, quote);
        // Offramps added while the chain was read must still be covered.
        const due = quoteTotals(await listOfframpsOfQuote(trx, quote.id)).amount;
        if (verification.receivedAmount < due) throw sumMismatch(verification.receivedAmount, due);
        // Refunds of failed payouts go to whoever sent the tokens (not a relayer that sent the transaction).
        const sender =
          verification.transfers.find((t) => t.token === verification.receivedToken)?.from ??
          verification.from;
        const row = await markQuoteExecuted(
          trx,
          quote.id,
          { tx_id: transfer.tx_id.toLowerCase(), blockchain: transfer.blockchain, network: transfer.network },
          verification.receivedAmount.toString(),
          sender,
        );
        if (!row) throw alreadyExecuted();
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
          excessUpdate = refund?.webhookDeliveryId ?? null;
        }
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ApiError('tx_already_used', 'This transaction already funded another quote');
      }
      throw error;
    }
    // The execute is committed: its payouts start now, or once the reconciler reaches Temporal again.
    await handQuoteToWorkflow(deps, ctx.state.db, executed, ctx.state.log);
    if (excessUpdate && deps.temporal) {
      try {
        await startWebhookDelivery(deps.temporal.client, excessUpdate, deps.config.temporal.taskQueue);
      } catch (error) {
        // The delivery row stays pending and can be redelivered; the execute stands.
        ctx.state.log.warn({ err: error, deliveryId: excessUpdate }, 'could not start a webhook delivery');
      }
    }
    ctx.body = presentQuote(
      executed,
      await listOfframpsOfQuote(ctx.state.db, executed.id),
      await listQuoteRefunds(ctx.state.db, executed.id),
    );
  });
}
