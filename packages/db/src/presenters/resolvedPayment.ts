/** Resolved payment rows as the wire shape of spec 2.3. */
import { formatUnits, normalizeDecimal, paymentExceptionStatus, type ResolvedPayment } from '@checkout/core';
import type { ProductRow, ResolvedPaymentRow } from '../schema.ts';
import type { SecretBox } from '../secretBox.ts';

/**
 * One resolved payment, with its product's secret and slug; `paidTwice` when a second transfer of its payer
 * for it waits as an open unmatched transfer; `sweepGasWei` its share of its deposit address's sweeps' gas.
 */
export function presentResolvedPayment(
  row: ResolvedPaymentRow,
  product: Pick<ProductRow, 'slug' | 'secret_ciphertext'>,
  secrets: SecretBox,
  extras: { paidTwice?: boolean; sweepGasWei?: string | null } = {},
): ResolvedPayment {
  return {
    is_test: row.is_test,
    id: row.id,
    product_id: row.product_id,
    expected_payment_id: row.expected_payment_id,
    product_secret: secrets.open(product.secret_ciphertext),
    slug: product.slug,
    dollar_amount: normalizeDecimal(row.dollar_amount, 2),
    metadata: row.metadata,
    user: { email: row.user_email, custom_fields: row.custom_fields },
    payment: {
      expected_token: row.expected_token,
      received_token: row.received_token,
      expected_token_amount: formatUnits(BigInt(row.expected_token_amount), row.expected_token.decimal_count),
      received_token_amount: formatUnits(BigInt(row.received_token_amount), row.received_token.decimal_count),
      amount_difference: row.amount_difference,
      exception_status: paymentExceptionStatus({
        expected: { units: BigInt(row.expected_token_amount), decimals: row.expected_token.decimal_count },
        received: { units: BigInt(row.received_token_amount), decimals: row.received_token.decimal_count },
        late: row.late,
        txFailure: row.tx_failure,
        reversed: row.reversed_at !== null,
        paidTwice: extras.paidTwice ?? false,
        refundedUnits: BigInt(row.refunded_amount),
      }),
      receiving_address: row.receiving_address,
      sender_address: row.sender_address,
      tx_id: row.tx_id,
      tx_success: row.tx_success,
      tx_failure: row.tx_failure,
      swapped: row.swapped,
      refunded_amount: formatUnits(BigInt(row.refunded_amount), row.received_token.decimal_count),
      sweep_gas_wei: extras.sweepGasWei ?? null,
      created_at: row.created_at.toISOString(),
    },
  };
}
