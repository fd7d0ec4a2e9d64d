import { describe, expect, it } from 'vitest';
import { merchantWallet } from './shared.ts';
import {
  checkoutMemo,
  checkoutStatus,
  checkoutTitle,
  checkoutWorkflowSummary,
  kycMemo,
  kycStatus,
  kycWorkflowSummary,
  onrampMemo,
  onrampStatus,
  onrampWorkflowSummary,
  quoteMemo,
  quoteStatus,
  quoteWorkflowSummary,
  refundStatus,
  webhookStatus,
  webhookWorkflowSummary,
} from './summaries.ts';

const onramp = {
  id: 'o1',
  destination_amount: '100.00',
  fee: '1.00',
  deposit_amount: '101.00',
  fiat_currency: 'usd',
  fiat_rails: 'ach_push',
  crypto_currency: 'usdc',
  crypto_rails: 'polygon',
  chain_id: 137,
};

describe('workflow summaries', () => {
  it('a checkout: amount and product at the start, nothing that goes stale', () => {
    const summary = checkoutWorkflowSummary({
      dollarAmount: '12.50',
      productName: 'Demo coffee\nsubscription',
      productSlug: 'L1FXcJylwE',
      expectedPaymentId: '5afe3b38-0000-4000-8000-000000000000',
      sessionId: '6b0e0c4e-0000-4000-8000-000000000000',
      chainId: 97,
      tokenSymbol: 'BUSD',
    });
    expect(summary.staticSummary).toBe('Checkout $12.50 · Demo coffee subscription');
    expect(summary.staticDetails).toContain('paid in: BUSD on chain 97');
    const long = checkoutWorkflowSummary({
      dollarAmount: '1.00',
      productName: 'x'.repeat(200),
      productSlug: 's',
      expectedPaymentId: 'e',
      sessionId: 's',
      chainId: 1,
      tokenSymbol: 'USDC',
    });
    expect(long.staticSummary.length).toBeLessThan(120);
  });

  it("a checkout's status: the line and details follow the run", () => {
    const memo = checkoutMemo({ productSlug: 's', dollarAmount: '19.99', productName: 'Phone order' });
    const base = {
      txHash: null,
      resolvedPaymentId: null,
      expiresAt: Date.parse('2026-03-01T10:00:00Z'),
      scanUntil: Date.parse('2026-03-01T11:00:00Z'),
      refused: 0,
      late: false,
    };
    const waiting = checkoutStatus(memo, { ...base, status: 'awaiting_payment' });
    expect(waiting.summary).toBe('Checkout $19.99 · Phone order · awaiting payment');
    expect(waiting.details).toBe('- **Awaiting payment** until 2026-03-01T10:00:00Z');
    const paid = checkoutStatus(memo, {
      ...base,
      status: 'resolved',
      txHash: '0xabc',
      resolvedPaymentId: 'rp1',
    });
    expect(paid.summary).toBe('Checkout $19.99 · Phone order · resolved');
    expect(paid.details).toBe('- **Resolved**: paid by transaction `0xabc`\n- resolved payment `rp1`');
    const late = checkoutStatus(memo, {
      ...base,
      status: 'resolved',
      txHash: '0xabc',
      resolvedPaymentId: 'rp1',
      late: true,
    });
    expect(late.summary).toBe('Checkout $19.99 · Phone order · paid late');
    expect(late.details).toBe(
      '- **Paid late**, after the expiry: paid by transaction `0xabc`\n- resolved payment `rp1`',
    );
    const big = checkoutMemo({ productSlug: 's', dollarAmount: '1234567.50', productName: 'Piano' });
    expect(checkoutStatus(big, { ...base, status: 'awaiting_payment' }).summary).toBe(
      'Checkout $1,234,567.50 · Piano · awaiting payment',
    );
    expect(checkoutTitle(checkoutMemo({ productSlug: 's', dollarAmount: '999', productName: 'P' }))).toBe(
      'Checkout $999 · P',
    );
    const expired = checkoutStatus(memo, { ...base, status: 'expired', refused: 2 });
    expect(expired.details).toContain('a payment made until 2026-03-01T11:00:00Z is still taken (late)');
    expect(expired.details).toContain('2 transaction(s) checked and refused');
    // A workflow started without the memo still shows its status.
    expect(checkoutStatus(undefined, { ...base, status: 'closed' }).summary).toBe('Checkout · closed');
  });

  it('a webhook names the event and the host only, then how its attempts went', () => {
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

    const memo = { eventType: 'resolved_payment.created', urlHost: 'shop.example' };
    const failing = webhookStatus(memo, {
      phase: 'failing',
      attempts: 3,
      lastError: 'HTTP 500',
      nextAttemptAt: Date.parse('2026-03-01T10:04:00Z'),
    });
    expect(failing.summary).toBe('Webhook resolved_payment.created → shop.example · failing (3 attempts)');
    expect(failing.details).toBe(
      '- **Failing** after 3 attempts\n- attempt 3 failed: HTTP 500\n- next attempt at 2026-03-01T10:04:00Z',
    );
    expect(webhookStatus(memo, { phase: 'delivered', attempts: 1 }).summary).toBe(
      'Webhook resolved_payment.created → shop.example · delivered (1 attempt)',
    );
    expect(webhookStatus({ eventType: 'x', urlHost: '' }, { phase: 'sending', attempts: 0 }).summary).toBe(
      'Webhook x → invalid URL · sending',
    );
  });

  it('an onramp names the fiat deposited and the tokens sent', () => {
    const summary = onrampWorkflowSummary(onramp);
    expect(summary.staticSummary).toBe('Onramp 101.00 USD → 100.00 USDC');
    expect(summary.staticDetails).toContain('deposit: 101.00 USD by ach_push (fee 1.00 USD)');
    expect(summary.staticDetails).toContain('sent: 100.00 USDC on polygon, chain 137');
    const shown = onrampStatus(onrampMemo(onramp), {
      status: 'funds_received',
      expiresAt: 0,
      failure: "The onramp's send step failed and was skipped: no gas",
    });
    expect(shown.summary).toBe('Onramp 101.00 USD → 100.00 USDC · funds received');
    expect(shown.details).toContain('no gas');
  });

  it('a quote and a KYC case, without personal data', () => {
    const quote = {
      id: 'q1',
      deposit_token: 'usdc',
      deposit_token_chain: 'polygon',
      chain_id: 137,
      deposit_address: '0xabc',
      expires_at: new Date('2026-01-01T00:00:00Z'),
    };
    expect(quoteWorkflowSummary(quote).staticSummary).toBe('Offramp quote · USDC on polygon → fiat payouts');
    const executed = quoteStatus(quoteMemo(quote), {
      status: 'executed',
      expiresAt: quote.expires_at.getTime(),
      offramps: [{ id: 'f1', status: 'sending_fiat' }],
    });
    expect(executed.summary).toBe('Offramp quote · USDC on polygon → fiat payouts · executed');
    expect(executed.details).toBe('- **Executed**\n- offramp `f1`: sending fiat');

    expect(kycWorkflowSummary({ id: 'u1', beneficiary_type: 'business' })).toEqual({
      staticSummary: 'KYC onboarding · business user',
      staticDetails: 'user: u1',
    });
    const clearance = { status: 'approved', swift_status: 'pending' };
    const kyc = kycStatus(kycMemo({ beneficiary_type: 'individual' }), {
      general: { status: 'approved' },
      eur: clearance,
      usd: clearance,
      ars: { status: 'not_started', swift_status: 'not_started' },
    });
    expect(kyc.summary).toBe('KYC onboarding · individual user · approved');
    expect(kyc.details).toContain('- ARS: not started, SWIFT: not started');
  });

  it('a refund names its amount and what it refunds, and where it stands', () => {
    const refund = {
      amount: '7',
      tokenSymbol: 'BUSD',
      resolvedPaymentId: '5afe3b38-0000-4000-8000-000000000000',
      unmatchedTransferId: null,
    };
    const base = {
      claimExpiresAt: Date.parse('2026-03-15T10:00:00Z'),
      remindAt: Date.parse('2026-03-08T10:00:00Z'),
      txHash: null,
    };
    const waiting = refundStatus(refund, { ...base, status: 'awaiting_address' });
    expect(waiting.summary).toBe(
      'Refund 7 BUSD · awaiting address · payment 5afe3b38-0000-4000-8000-000000000000',
    );
    expect(waiting.details).toBe(
      '- **Awaiting address** until 2026-03-15T10:00:00Z, then expired\n' +
        '- reminder to the customer at 2026-03-08T10:00:00Z',
    );
    const sent = refundStatus(
      { ...refund, resolvedPaymentId: null, unmatchedTransferId: 'u1' },
      { ...base, status: 'sent', remindAt: null, txHash: '0xabc', confirmations: { have: 2, need: 15 } },
    );
    expect(sent.summary).toBe('Refund 7 BUSD · sent · unmatched transfer u1');
    expect(sent.details).toBe('- **Sent** in transaction `0xabc`\n- 2 of 15 confirmations');
  });

  it("a merchant's wallet is found by its checksummed and its lowercase spelling", () => {
    expect(merchantWallet('0xAbC0000000000000000000000000000000000001')).toEqual([
      '0xAbC0000000000000000000000000000000000001',
      '0xabc0000000000000000000000000000000000001',
    ]);
    expect(merchantWallet('0xabc')).toEqual(['0xabc']);
  });
});
