import type { Refund } from '@checkout/core';
import { describe, expect, it } from 'vitest';
import { senderOf } from './createMailer.ts';
import { customerRefundNotice } from './refundNotice.ts';

const refund: Refund = {
  id: '7f1e2d3c-4b5a-4968-8776-655443322110',
  status: 'canceled',
  resolved_payment_id: '5b7c1a52-3d2e-4c4f-9b59-6f2a8f0b9e11',
  unmatched_transfer_id: null,
  product_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  chain_id: 97,
  is_test: true,
  token: {
    symbol: 'BUSD',
    address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    name: 'BUSD Token',
    decimal_count: 18,
    blockchain: 'binance-smart-chain',
    network: 'testnet',
  },
  amount: '7.5',
  amount_base_units: '7500000000000000000',
  reason: 'Beans out of stock',
  refund_address: null,
  paid_amount: '0',
  amount_due: '7.5',
  overpaid_amount: null,
  address_source: null,
  from_address: '0x1111111111111111111111111111111111111111',
  claim_url: null,
  claim_expires_at: '2030-01-15T12:00:00.000Z',
  pay_url: null,
  payment_request: null,
  tx_hash: null,
  cancel_reason: 'You asked to keep the order',
  sent_at: null,
  confirmed_at: null,
  created_at: '2030-01-01T09:30:00.000Z',
  updated_at: '2030-01-02T09:30:00.000Z',
};

describe("a customer's refund e-mail", () => {
  it('comes from the shop by name and says why a canceled refund was canceled', () => {
    const mail = customerRefundNotice({
      kind: 'canceled',
      refund,
      chainName: 'BNB Smart Chain Testnet',
      productName: 'Espresso beans',
      locale: 'en',
    });
    expect(mail.fromName).toBe('Espresso beans');
    expect(mail.text).toMatch(/^Why it was canceled: +You asked to keep the order$/m);
    const none = customerRefundNotice({
      kind: 'canceled',
      refund: { ...refund, cancel_reason: null },
      chainName: 'BNB Smart Chain Testnet',
      productName: null,
      locale: 'es',
    });
    expect(none.fromName).toBeUndefined();
    expect(none.text).not.toContain('Motivo de la cancelación');
  });

  it("puts the shop's name before the service's in the sender, at the same address", () => {
    expect(senderOf('Stable Checkout <payments@localhost>', undefined)).toBe(
      'Stable Checkout <payments@localhost>',
    );
    expect(senderOf('Stable Checkout <payments@localhost>', 'Espresso "beans"\r\nBcc: x')).toEqual({
      name: 'Espresso  beans Bcc: x via Stable Checkout',
      address: 'payments@localhost',
    });
    expect(senderOf('payments@shop.example', 'Espresso beans')).toEqual({
      name: 'Espresso beans',
      address: 'payments@shop.example',
    });
  });
});
