/** Refund rows as their wire shapes: the merchant's refund, the customer's claim page and the merchant's pay page. */
import {
  formatUnits,
  paymentUri,
  type Refund,
  type RefundClaim,
  type RefundPayment,
  type RefundPaymentRequest,
} from '@checkout/core';
import { encodeFunctionData, erc20Abi, getAddress } from 'viem';
import type { RefundRow } from '../refundSchema.ts';
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

/**
 * The exact payment a refund asks of the receiving wallet once its address is known: the EIP-681 URI and the
 * ERC-20 `transfer` transaction; null while it waits for an address.
 */
export function refundPaymentRequest(row: RefundRow): RefundPaymentRequest | null {
  if (row.refund_address === null) return null;
  const token = getAddress(row.token_address);
  const to = getAddress(row.refund_address);
  const amount = BigInt(row.amount);
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

/** What the customer's claim page shows: no e-mail, no tokens, no payment request. */
export function presentRefundClaim(
  row: RefundRow,
  extras: { merchantName: string | null; productName: string | null },
): RefundClaim {
  return {
    status: row.status,
    merchant_name: extras.merchantName,
    product_name: extras.productName,
    chain_id: row.chain_id,
    token: row.token,
    amount: formatUnits(BigInt(row.amount), row.token.decimal_count),
    reason: row.reason,
    locale: row.locale,
    refund_address: row.refund_address === null ? null : getAddress(row.refund_address),
    claim_expires_at: row.claim_expires_at.toISOString(),
    tx_hash: row.tx_hash,
  };
}

/**
 * What the merchant's pay page shows: the exact transfer to make from the receiving wallet (and the part
 * of the merchant's refund it shares).
 */
export function presentRefundPayment(row: RefundRow): RefundPayment {
  return {
    status: row.status,
    chain_id: row.chain_id,
    token: row.token,
    amount: formatUnits(BigInt(row.amount), row.token.decimal_count),
    amount_base_units: BigInt(row.amount).toString(),
    reason: row.reason,
    from_address: getAddress(row.from_address),
    refund_address: row.refund_address === null ? null : getAddress(row.refund_address),
    payment_request: refundPaymentRequest(row),
    tx_hash: row.tx_hash,
  };
}
