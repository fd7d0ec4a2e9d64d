/**
 * A merchant's refund of a resolved payment or of an unmatched transfer, recorded once: the amount is checked
 * against what the subject received (its standing refunds included, under the subject's lock), and in the same
 * transaction the first `refund.updated` webhook and the start of the refund's workflow are queued.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ApiError, formatUnits, parseUnits, type RefundRequestBody, recordInvalid } from '@checkout/core';
import {
  type Database,
  findProductById,
  findSessionByExpectedPayment,
  insertRefund,
  inTransaction,
  lockResolvedPayment,
  type NewRefund,
  pageTokenHash,
  type RefundRow,
  type ResolvedPaymentRow,
  type StoredToken,
  settleUnmatchedTransfer,
  standingRefundUnits,
  type UnmatchedTransferRow,
} from '@checkout/db';
import { receiptLocaleOf } from '@checkout/mail';
import type { Kysely } from 'kysely';
import { getAddress } from 'viem';
import { queueWorkflowCall, shown } from '../handOver/queueWorkflowCall.ts';
import type { WorkerResources } from '../resources.ts';
import { MerchantId, MerchantWallet, merchantWallet, ProductId } from '../shared.ts';
import { queueUnmatchedChanged } from '../unmatched/follow.ts';
import { announcePaidTwice } from '../unmatched/paidTwice.ts';
import { queueProductEvent } from '../webhookDelivery/queueProductEvent.ts';
import { checkRefundAddress, refuseContractAddress } from './refundAddress.ts';
import type { RefundInput } from './shared.ts';
import { refundWorkflowId } from './shared.ts';
import { refundSummary } from './summary.ts';

/** What recording a refund needs besides the database. */
export interface RequestRefundDeps extends Pick<WorkerResources, 'secrets' | 'publicBaseUrl' | 'chains'> {
  /** How long the customer may take to give an address. */
  claimDays: number;
}

/** What is refunded: a resolved payment of the wallet, or an unmatched transfer into it. */
export type RefundSubject =
  | { resolvedPayment: ResolvedPaymentRow }
  | { unmatchedTransfer: UnmatchedTransferRow };

/** What the subject received and where the refund comes from. */
interface Source {
  token: StoredToken;
  chainId: number;
  /** The receiving address (lowercase). */
  fromAddress: string;
  /** Base units received. */
  received: bigint;
  /** Base units received above the price; null when nothing was paid over (or the subject has no price). */
  overpaid: bigint | null;
  productId: string | null;
  email: string | null;
  locale: string;
}

const amountError = (message: string) => recordInvalid([{ path: 'amount', message }]);

/** Records the refund the merchant asked for; a 4xx naming the field when it cannot be. */
export async function requestRefund(
  db: Kysely<Database>,
  deps: RequestRefundDeps,
  input: {
    scope: { merchantId: string; addressId: string };
    subject: RefundSubject;
    body: RefundRequestBody;
  },
): Promise<RefundRow> {
  const { body, subject } = input;
  const source = await sourceOf(db, subject);
  const amount = refundUnits(source, body.amount);
  const refundAddress =
    body.refund_address === undefined
      ? null
      : checkRefundAddress(
          { token_address: source.token.address, from_address: source.fromAddress },
          body.refund_address,
        );
  if (refundAddress) {
    await refuseContractAddress(deps.chains, {
      chainId: source.chainId,
      address: refundAddress,
      allowContract: body.allow_contract === true,
      hint: 'a refund sent there may never be passed on; give allow_contract: true to send it anyway',
    });
  }
  const email = body.email ?? source.email;
  const tokens = { claim: pageToken(), pay: pageToken() };
  const now = new Date();
  const refund: NewRefund = {
    id: randomUUID(),
    merchant_id: input.scope.merchantId,
    address_id: input.scope.addressId,
    product_id: source.productId,
    resolved_payment_id: 'resolvedPayment' in subject ? subject.resolvedPayment.id : null,
    unmatched_transfer_id: 'unmatchedTransfer' in subject ? subject.unmatchedTransfer.id : null,
    chain_id: source.chainId,
    token: JSON.stringify(source.token),
    token_address: source.token.address.toLowerCase(),
    from_address: source.fromAddress,
    amount: amount.toString(),
    reason: body.reason,
    status: refundAddress ? 'ready_to_pay' : 'awaiting_address',
    refund_address: refundAddress,
    address_source: refundAddress ? 'merchant' : null,
    email_ciphertext: email ? deps.secrets.seal(email) : null,
    locale: source.locale,
    claim_token_hash: pageTokenHash(tokens.claim),
    pay_token_hash: pageTokenHash(tokens.pay),
    tokens_ciphertext: deps.secrets.seal(JSON.stringify(tokens)),
    claim_expires_at: new Date(now.getTime() + deps.claimDays * 86_400_000),
    created_at: now,
  };

  return inTransaction(db, async (trx) => {
    if ('resolvedPayment' in subject) {
      await lockResolvedPayment(trx, subject.resolvedPayment.id);
    } else if (await settleUnmatchedTransfer(trx, subject.unmatchedTransfer.id, { status: 'refunded' })) {
      await announcePaidTwice(trx, deps.secrets, subject.unmatchedTransfer, 'cleared');
    } else {
      throw transferNotOpen(subject.unmatchedTransfer);
    }
    const standing = await standingRefundUnits(
      trx,
      'resolvedPayment' in subject
        ? { resolvedPaymentId: subject.resolvedPayment.id }
        : { unmatchedTransferId: subject.unmatchedTransfer.id },
    );
    if (standing + amount > source.received) {
      const left = source.received - standing;
      const shown = (units: bigint) =>
        `${formatUnits(units, source.token.decimal_count)} ${source.token.symbol}`;
      throw amountError(
        left > 0n
          ? `is more than is left to refund (${shown(left)} of ${shown(source.received)} received)`
          : `cannot be refunded: refunds already ask for all ${shown(source.received)} received`,
      );
    }
    const row = await insertRefund(trx, refund);
    await queueProductEvent(trx, deps.secrets, { refund: row, publicBaseUrl: deps.publicBaseUrl });
    const workflowInput: RefundInput = { refundId: row.id };
    await queueWorkflowCall(trx, {
      kind: 'start',
      workflowType: 'refund',
      workflowId: refundWorkflowId(row.id),
      call: {
        args: [workflowInput],
        once: true,
        searchAttributes: {
          [MerchantId.name]: row.merchant_id,
          [MerchantWallet.name]: merchantWallet(getAddress(row.from_address)),
          ...(row.product_id ? { [ProductId.name]: row.product_id } : {}),
        },
        ...shown(refundSummary(row)),
      },
    });
    if (row.unmatched_transfer_id) await queueUnmatchedChanged(trx, [row.unmatched_transfer_id]);
    return row;
  });
}

/** A random 32-byte page token (base64url). */
function pageToken(): string {
  return randomBytes(32).toString('base64url');
}

const transferNotOpen = (row: UnmatchedTransferRow) =>
  new ApiError('conflict', `This unmatched transfer is already ${row.status}`);

/** What the subject received, in which token, from where, and whom to ask for an address. */
async function sourceOf(db: Kysely<Database>, subject: RefundSubject): Promise<Source> {
  if ('unmatchedTransfer' in subject) {
    const transfer = subject.unmatchedTransfer;
    if (transfer.status !== 'open') throw transferNotOpen(transfer);
    return {
      token: transfer.token,
      chainId: transfer.chain_id,
      fromAddress: transfer.receiving_address.toLowerCase(),
      received: BigInt(transfer.amount),
      overpaid: null,
      productId: transfer.product_id,
      email: null,
      locale: 'en',
    };
  }
  const payment = subject.resolvedPayment;
  if (payment.tx_failure) {
    throw new ApiError('record_invalid', 'A failed payment takes no refund: nothing was received');
  }
  if (payment.reversed_at !== null) {
    throw new ApiError(
      'record_invalid',
      'A reversed payment takes no refund: its transfer is no longer on the chain',
    );
  }
  const [product, session] = await Promise.all([
    findProductById(db, payment.product_id),
    findSessionByExpectedPayment(db, payment.expected_payment_id),
  ]);
  const received = BigInt(payment.received_token_amount);
  return {
    token: payment.received_token,
    chainId: payment.chain_id,
    fromAddress: payment.receiving_address.toLowerCase(),
    received,
    overpaid: overpaidUnits(payment),
    productId: product?.id ?? payment.product_id,
    email: payment.user_email || null,
    locale: receiptLocaleOf(session?.locale).language,
  };
}

/** Base units of the received token above the price (rounding the price up to them); null when none. */
function overpaidUnits(payment: ResolvedPaymentRow): bigint | null {
  const expectedDecimals = BigInt(payment.expected_token.decimal_count);
  const receivedDecimals = BigInt(payment.received_token.decimal_count);
  const scaled = BigInt(payment.expected_token_amount) * 10n ** receivedDecimals;
  const divisor = 10n ** expectedDecimals;
  const price = (scaled + divisor - 1n) / divisor;
  const over = BigInt(payment.received_token_amount) - price;
  return over > 0n ? over : null;
}

/** The refund's base units: all received by default, what was paid over, or the merchant's decimal. */
function refundUnits(source: Source, amount: RefundRequestBody['amount']): bigint {
  if (amount === undefined) {
    if (source.received <= 0n) throw amountError('cannot be refunded: nothing was received');
    return source.received;
  }
  if (amount === 'overpaid') {
    if (source.overpaid === null) throw amountError('cannot be "overpaid": nothing was paid over the price');
    return source.overpaid;
  }
  const decimals = source.token.decimal_count;
  let units: bigint;
  try {
    units = parseUnits(amount, decimals);
  } catch {
    throw amountError(`must be a decimal number with at most ${decimals} decimals`);
  }
  if (units <= 0n) throw amountError('must be more than 0');
  return units;
}
