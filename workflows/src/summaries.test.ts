import { describe, expect, it } from 'vitest';
import {
  checkoutWorkflowSummary,
  kycWorkflowSummary,
  onrampWorkflowSummary,
  quoteWorkflowSummary,
  webhookWorkflowSummary,
} from './summaries.ts';

describe('workflow summaries', () => {
  it('a checkout: amount, product, state', () => {
    const summary = checkoutWorkflowSummary({
      dollarAmount: '12.50',
      productName: 'Demo coffee\nsubscription',
      status: 'awaiting_payment',
      productSlug: 'L1FXcJylwE',
      expectedPaymentId: '5afe3b38-0000-4000-8000-000000000000',
      sessionId: '6b0e0c4e-0000-4000-8000-000000000000',
      chainId: 97,
      tokenSymbol: 'BUSD',
    });
    expect(summary.staticSummary).toBe('Checkout $12.50 · Demo coffee subscription · awaiting payment');
    expect(summary.staticDetails).toContain('paid in: BUSD on chain 97');
    const long = checkoutWorkflowSummary({
      dollarAmount: '1.00',
      productName: 'x'.repeat(200),
      status: 'awaiting_payment',
      productSlug: 's',
      expectedPaymentId: 'e',
      sessionId: 's',
      chainId: 1,
      tokenSymbol: 'USDC',
    });
    expect(long.staticSummary.length).toBeLessThan(120);
  });

  it('a webhook names the event and the host only', () => {
    const summary = webhookWorkflowSummary({
      id: 'd1',
      event_type: 'resolved_payment.created',
      url: 'https://shop.example/hooks/checkout?token=secret',
      subject_id: 'rp1',
      redelivery_of: 'd0',
    });
    expect(summary.staticSummary).toBe('Webhook resolved_payment.created → shop.example');
    expect(summary.staticDetails).not.toContain('secret');
    expect(summary.staticDetails).toContain('redelivery of: d0');
  });

  it('an onramp: fiat in, token out', () => {
    const summary = onrampWorkflowSummary({
      id: 'o1',
      destination_amount: '100.00',
      fee: '1.00',
      deposit_amount: '101.00',
      fiat_currency: 'usd',
      fiat_rails: 'ach_push',
      crypto_currency: 'usdc',
      crypto_rails: 'polygon',
      chain_id: 137,
    });
    expect(summary.staticSummary).toBe('Onramp 100.00 USD → USDC');
    expect(summary.staticDetails).toContain('deposit: 101.00 USD by ach_push (fee 1.00 USD)');
  });

  it('a quote and a KYC case, without personal data', () => {
    expect(
      quoteWorkflowSummary({
        id: 'q1',
        deposit_token: 'usdc',
        deposit_token_chain: 'polygon',
        chain_id: 137,
        deposit_address: '0xabc',
        expires_at: new Date('2026-01-01T00:00:00Z'),
      }).staticSummary,
    ).toBe('Offramp quote · USDC on polygon → fiat payouts');
    expect(kycWorkflowSummary({ id: 'u1', beneficiary_type: 'business' })).toEqual({
      staticSummary: 'KYC onboarding · business user',
      staticDetails: 'user: u1',
    });
  });
});
