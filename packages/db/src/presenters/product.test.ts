import { Product, UpdatedProduct } from '@checkout/core';
import { describe, expect, it } from 'vitest';
import type { ProductWithAddress } from '../repositories/products.ts';
import { presentProduct, presentUpdatedProduct } from './product.ts';

const row: ProductWithAddress = {
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  merchant_id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  address_id: '6fa459ea-ee8a-4ca4-894e-db77e160355e',
  slug: 'AbCdEf1234',
  name: 'Coffee',
  email: 'owner@example.com',
  send_email: false,
  email_body: '',
  send_webhook: false,
  webhook_url: null,
  success_url: '',
  failure_url: '',
  active: false,
  tax_rate: '8.2500',
  swappable: true,
  open_amount: false,
  expires_in_minutes: 30,
  custom_fields: ['full_name'],
  token_blockchain: 'ethereum',
  token_network: 'mainnet',
  token_address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  token_symbol: 'USDC',
  token_name: 'USD Coin',
  token_decimals: 6,
  chain_id: 1,
  secret_ciphertext: 'v1.x.y.z',
  created_at: new Date('2026-11-22T06:00:00.100Z'),
  updated_at: new Date('2026-11-22T06:00:00.200Z'),
  address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  verified_address: false,
};

describe('product presenters', () => {
  it('returns exactly the 2.1 fields, valid against the strict response schema', () => {
    const p = presentProduct(row);
    expect(Product.parse(p)).toEqual(p);
    expect(p.tax_rate).toBe(8.25);
    expect(p.created_at).toBe('2026-11-22T06:00:00.100Z');
    expect(p).not.toHaveProperty('expires_in_minutes');
    expect(p).not.toHaveProperty('secret_ciphertext');
    expect(p).not.toHaveProperty('merchant_id');
  });

  it('a missing or extra field fails the response schema', () => {
    const { email_body: _dropped, ...missing } = presentProduct(row);
    expect(Product.safeParse(missing).success).toBe(false);
    expect(Product.safeParse({ ...presentProduct(row), extra: 1 }).success).toBe(false);
    expect(Product.safeParse({ ...presentProduct(row), tax_rate: '8.25' }).success).toBe(false);
  });

  it('leaves verified_address out of the PATCH shape', () => {
    const p = presentUpdatedProduct(row);
    expect(p).not.toHaveProperty('verified_address');
    expect(UpdatedProduct.parse(p)).toEqual(p);
    expect(UpdatedProduct.safeParse(presentProduct(row)).success).toBe(false);
  });
});
