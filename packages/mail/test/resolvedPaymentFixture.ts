/** A valid Resolved Payment for the receipt tests, varied through overrides. */
import { ResolvedPayment } from '@checkout/core';

/** Overrides of a fixture: top-level fields and fields of `payment`. */
export interface FixtureOverrides extends Partial<Omit<ResolvedPayment, 'payment'>> {
  payment?: Partial<ResolvedPayment['payment']>;
}

const usdc = {
  symbol: 'USDC',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  name: 'USD Coin',
  decimal_count: 6,
  blockchain: 'ethereum',
  network: 'mainnet',
};

/** A successful exact 100.00 USD payment in USDC on Ethereum, parsed by the wire schema. */
export function resolvedPaymentFixture(overrides: FixtureOverrides = {}): ResolvedPayment {
  const { payment, ...top } = overrides;
  return ResolvedPayment.parse({
    is_test: false,
    id: '5b1f7f0e-8f7c-4d2a-9d55-0b2f7f3c1a01',
    product_id: '0d3f8d0e-2b1c-4a5d-8e6f-7a8b9c0d1e2f',
    expected_payment_id: 'e7a1c2d3-4b5c-4d6e-8f70-a1b2c3d4e5f6',
    product_secret: 'secret-never-in-mail',
    slug: 'coffee',
    dollar_amount: '100.00',
    metadata: null,
    user: { email: 'shopper@example.com', custom_fields: { full_name: 'Ada Lovelace', reference: 'A-17' } },
    ...top,
    payment: {
      expected_token: usdc,
      received_token: usdc,
      expected_token_amount: '100',
      received_token_amount: '100',
      amount_difference: '0.0',
      exception_status: null,
      receiving_address: '0x1111111111111111111111111111111111111111',
      sender_address: '0x2222222222222222222222222222222222222222',
      tx_id: '0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789',
      tx_success: true,
      tx_failure: false,
      swapped: false,
      refunded_amount: '0',
      sweep_gas_wei: null,
      created_at: '2025-03-04T05:06:07.089Z',
      ...payment,
    },
  });
}
