/** The checkout view the benchmark server answers for `GET /api/v1/checkout/demo`. */
import type { CheckoutView } from '@checkout/core';

const usdc = {
  symbol: 'USDC',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  name: 'USD Coin',
  decimal_count: 6,
  blockchain: 'ethereum',
  network: 'mainnet',
  chain_id: 1,
};

const dai = {
  symbol: 'DAI',
  address: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
  name: 'Dai Stablecoin',
  decimal_count: 18,
  blockchain: 'ethereum',
  network: 'mainnet',
  chain_id: 1,
};

/** A swappable, open-amount USDC checkout on Ethereum mainnet, wrapped as the API answers it. */
export const checkoutViewBody: { checkout: CheckoutView } = {
  checkout: {
    slug: 'demo',
    name: 'Demo subscription',
    active: true,
    is_test: false,
    sends_receipt: false,
    token: usdc,
    payment_tokens: [usdc, dai],
    custom_fields: ['full_name', 'company'],
    open_amount: true,
    swappable: true,
    tax_rate: 0,
    expires_in_minutes: 30,
    receiving_address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    chain_id: 1,
    blockchain: 'ethereum',
    network: 'mainnet',
    router_address: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
    rpc_url: null,
    required_confirmations: 2,
    success_url: 'https://shop.example/thanks',
    failure_url: 'https://shop.example/failed',
    expected_payment: null,
  },
};
