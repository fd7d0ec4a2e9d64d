/** Refund rows as their wire shapes: the merchant's refund, the customer's claim page and the merchant's pay page. */
import {
  formatUnits,
  paymentUri,
  type Refund,
  type RefundClaim,
  type RefundPayment,
  type RefundPaymentRequest,
  type RefundPaymentView,
} from '@checkout/core';
import { encodeFunctionData, erc20Abi, getAddress } from 'viem';
import type { RefundRow } from '../refundSchema.ts';
import type { RefundContext } from '../repositories/refunds.ts';
import type { SecretBox } from '../secretBox.ts';

/** The two page tokens a refund's row keeps sealed. */
interface RefundTokens {
  claim: string;
  pay: string;
}

/** The refund's page tokens, opened from its row. */
function refundTokens(row: RefundRow, secrets: SecretBox): RefundTokens {
  return JSON.parse(secrets.open(row.tokens_ciphertext)) as RefundTokens;
}

/** Base units still to send: the amount less what the transfers recorded against it add up to. */
function unitsDue(row: RefundRow): bigint {
  const due = BigInt(row.amount) - BigInt(row.paid_amount);
  return due > 0n ? due : 0n;
}

/**
 * The exact payment a refund asks of the receiving wallet once its address is known (what is still due after
 * a part payment): the EIP-681 URI and the ERC-20 `transfer` transaction; null while it waits for an address.
 */
export function refundPaymentRequest(row: RefundRow): RefundPaymentRequest | null {
  if (row.refund_address === null) return null;
  const token = getAddress(row.token_address);
  const to = getAddress(row.refund_address);
  // Once nothing is due (sent, confirmed), the request it was paid by.
  const amount = unitsDue(row) || BigInt(row.amount);
  return {
    uri: paymentUri({ tokenAddress: token, chainId: row.chain_id, to, amount }),
    transaction: {
      chain_id: row.chain_id,
      from: getAddress(row.from_address),
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
      value: '0',
    },
  };
}

/** A refund as the merchant API and the `refund.updated` webhook show it. */
export function presentRefund(row: RefundRow, deps: { secrets: SecretBox; publicBaseUrl: string }): Refund {
  const tokens = refundTokens(row, deps.secrets);
  return {
    id: row.id,
    ...presentRefundPayment(row),
    resolved_payment_id: row.resolved_payment_id,
    unmatched_transfer_id: row.unmatched_transfer_id,
    product_id: row.product_id,
    is_test: row.token.network === 'testnet',
    address_source: row.address_source,
    claim_url:
      row.status === 'awaiting_address' ? `${deps.publicBaseUrl}/refunds/claim/${tokens.claim}` : null,
    claim_expires_at: row.claim_expires_at.toISOString(),
    pay_url: row.refund_address === null ? null : `${deps.publicBaseUrl}/refunds/pay/${tokens.pay}`,
    sent_at: row.sent_at?.toISOString() ?? null,
    confirmed_at: row.confirmed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The order a refund pages names: the shop (the product's name, else the merchant's) and what was paid. */
function presentOrder(context: RefundContext): RefundClaim['order'] {
  const order = context.order;
  if (!order) return null;
  return {
    shop_name: context.product?.name ?? context.merchantName,
    resolved_payment_id: order.resolvedPaymentId,
    dollar_amount: order.dollarAmount,
    paid_amount: order.paidAmount,
    paid_token_symbol: order.paidTokenSymbol,
    paid_at: order.paidAt.toISOString(),
  };
}

/** What the customer's claim page shows: no customer e-mail, no tokens, no payment request. */
export function presentRefundClaim(row: RefundRow, context: RefundContext): RefundClaim {
  return {
    status: row.status,
    merchant_name: context.merchantName,
    product_name: context.product?.name ?? null,
    chain_id: row.chain_id,
    token: row.token,
    amount: formatUnits(BigInt(row.amount), row.token.decimal_count),
    reason: row.reason,
    locale: row.locale,
    refund_address: row.refund_address === null ? null : getAddress(row.refund_address),
    claim_expires_at: row.claim_expires_at.toISOString(),
    tx_hash: row.tx_hash,
    order: presentOrder(context),
    cancel_reason: row.cancel_reason,
    merchant_contact: context.product?.email ?? null,
    ...paidOf(row),
    part_payments: partPayments(row, context),
  };
}

/** What the merchant's pay page shows: the payment to make and the order it refunds. */
export function presentRefundPaymentView(row: RefundRow, context: RefundContext): RefundPaymentView {
  return {
    ...presentRefundPayment(row),
    order: presentOrder(context),
    part_payments: partPayments(row, context),
  };
}

/** The transfers recorded against a refund (its part payments and the one that completed it), in chain order. */
function partPayments(row: RefundRow, context: RefundContext): RefundClaim['part_payments'] {
  return context.parts.map((part) => ({
    tx_hash: part.tx_hash,
    amount: formatUnits(BigInt(part.amount), row.token.decimal_count),
    seen_at: part.created_at.toISOString(),
  }));
}

/** What the transfers recorded against a refund add up to, what is still due and what went above it. */
function paidOf(row: RefundRow): Pick<RefundPayment, 'paid_amount' | 'amount_due' | 'overpaid_amount'> {
  const decimals = row.token.decimal_count;
  const over = BigInt(row.paid_amount) - BigInt(row.amount);
  return {
    paid_amount: formatUnits(BigInt(row.paid_amount), decimals),
    amount_due: formatUnits(unitsDue(row), decimals),
    overpaid_amount: over > 0n ? formatUnits(over, decimals) : null,
  };
}

/**
 * What the merchant's pay page shows: the exact transfer to make from the receiving wallet (and the part
 * of the merchant's refund it shares).
 */
function presentRefundPayment(row: RefundRow): RefundPayment {
  return {
    status: row.status,
    chain_id: row.chain_id,
    token: row.token,
    amount: formatUnits(BigInt(row.amount), row.token.decimal_count),
    amount_base_units: BigInt(row.amount).toString(),
    reason: row.reason,
    from_address: getAddress(row.from_address),
    refund_address: row.refund_address === null ? null : getAddress(row.refund_address),
    ...paidOf(row),
    payment_request: refundPaymentRequest(row),
    tx_hash: row.tx_hash,
    cancel_reason: row.cancel_reason,
  };
}
