import {
  accountTestEvents,
  OfframpResponse,
  OnrampResponse,
  PaymentDetailResponse,
  productTestEvents,
  QuoteResponse,
  Refund,
  ResolvedPayment,
  UnmatchedTransfer,
  UserResponse,
} from '@checkout/core';
import type { ProductWithAddress } from '@checkout/db';
import { describe, expect, it } from 'vitest';
import { accountTestPayload, testEventPayload } from './testEventSamples.ts';

const product = {
  id: '7d4c1d44-4f55-4f0e-9d0b-0d5e2b3b7a11',
  slug: 'hooked',
  address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  chain_id: 97,
  token_symbol: 'BUSD',
  token_address: '0xeD24FC36d5Ee211Ea25A80239Fb8C4Cfd80f12Ee',
  token_name: 'Binance USD',
  token_decimals: 18,
  token_blockchain: 'binance_smart_chain',
  token_network: 'testnet',
} as ProductWithAddress;
const ids = {
  subject: 'a3b1f0de-5a8c-4a36-9a8e-2f7f2e8d9c01',
  other: 'c6f8b2a4-1d3e-4f5a-8b9c-0d1e2f3a4b5c',
};

describe('test event samples', () => {
  it.each(productTestEvents)('%s has the real event’s shape, marked as a test', (event) => {
    const payload = testEventPayload(event, product, ids, new Date('2026-11-28T12:00:00.000Z')) as Record<
      string,
      unknown
    >;
    const [schema, body] = event.startsWith('resolved_payment.')
      ? [ResolvedPayment, payload]
      : event === 'refund.updated'
        ? [Refund, payload.refund]
        : [UnmatchedTransfer, payload.unmatched_transfer];
    const parsed = schema.safeParse(body);
    expect(parsed.error).toBeUndefined();
    expect(body).toMatchObject({ is_test: true, id: ids.subject, product_id: product.id });
  });

  const accountSchemas = {
    kyc_update: UserResponse,
    payment_detail_update: PaymentDetailResponse,
    onramp_update: OnrampResponse,
    offramp_update: OfframpResponse,
    quote_update: QuoteResponse,
  } as const;

  it.each(accountTestEvents)('%s carries a record of the real event’s shape', (event) => {
    const payload = accountTestPayload(event, ids.subject, ids.other);
    const parsed = accountSchemas[event].safeParse(payload);
    expect(parsed.error).toBeUndefined();
    expect(JSON.stringify(payload)).toContain(ids.subject);
  });
});
