import { describe, expect, it } from 'vitest';
import { resolvedPaymentFixture } from '../test/resolvedPaymentFixture.ts';
import { merchantNotification } from './merchantNotification.ts';

const product = { name: 'Coffee beans' };

describe('merchantNotification', () => {
  it('lists every key fact of a successful payment', () => {
    const payment = resolvedPaymentFixture({ metadata: { order: 'A-1' } });
    const { subject, text } = merchantNotification({ payment, product, chainName: 'Ethereum' });
    expect(subject).toBe('Payment received: Coffee beans — 100.00 USD');
    expect(text).toMatch(/^Status: +succeeded$/m);
    expect(text).toMatch(/^Test payment: +no$/m);
    expect(text).toMatch(/^USD amount: +100\.00 USD$/m);
    expect(text).toMatch(/^Expected: +100 USDC \(ethereum mainnet, 0xA0b8/m);
    expect(text).toMatch(/^Received: +100 USDC \(ethereum mainnet, 0xA0b8/m);
    expect(text).toMatch(/^Amount difference: +0\.0 %$/m);
    expect(text).toMatch(/^Sender: +0x2222222222222222222222222222222222222222$/m);
    expect(text).toMatch(/^Receiving address: +0x1111111111111111111111111111111111111111$/m);
    expect(text).toMatch(new RegExp(`^Transaction: +${payment.payment.tx_id}$`, 'm'));
    expect(text).toMatch(new RegExp(`^Payment id: +${payment.id}$`, 'm'));
    expect(text).toMatch(new RegExp(`^Expected payment id: +${payment.expected_payment_id}$`, 'm'));
    expect(text).toMatch(/^Metadata: +\{"order":"A-1"\}$/m);
    expect(text).toMatch(/^E-mail: +shopper@example\.com$/m);
    expect(text).toMatch(/^full_name: +Ada Lovelace$/m);
    expect(text).toMatch(/^reference: +A-17$/m);
    expect(text).not.toMatch(/TEST PAYMENT|FAILED|UNDERPAYMENT|OVERPAYMENT/);
    expect(text).not.toContain(payment.product_secret);
  });

  it('puts a test payment first, in subject and text', () => {
    const payment = resolvedPaymentFixture({ is_test: true });
    const { subject, text } = merchantNotification({
      payment,
      product,
      chainName: 'BNB Smart Chain Testnet',
    });
    expect(subject).toBe('[TEST] Payment received: Coffee beans — 100.00 USD');
    expect(text.startsWith('*** TEST PAYMENT — do not fulfil.')).toBe(true);
    expect(text).toMatch(/^Test payment: +YES$/m);
  });

  it('flags an under-payment of -2.0 and an over-payment of 3.0', () => {
    const under = resolvedPaymentFixture({
      payment: { received_token_amount: '98', amount_difference: '-2.0' },
    });
    const underMail = merchantNotification({ payment: under, product, chainName: 'Ethereum' });
    expect(underMail.subject).toBe('Underpayment: Coffee beans — 100.00 USD');
    expect(underMail.text).toContain('UNDERPAYMENT: received 2.0 % less than expected');
    expect(underMail.text).toMatch(/^Received: +98 USDC/m);
    expect(underMail.text).toMatch(/^Amount difference: +-2\.0 %$/m);

    const over = resolvedPaymentFixture({
      payment: { received_token_amount: '103', amount_difference: '3.0' },
    });
    const overMail = merchantNotification({ payment: over, product, chainName: 'Ethereum' });
    expect(overMail.subject).toBe('Overpayment: Coffee beans — 100.00 USD');
    expect(overMail.text).toContain('OVERPAYMENT: received 3.0 % more than expected');
  });

  it('reports a failed transaction', () => {
    const payment = resolvedPaymentFixture({
      payment: {
        tx_success: false,
        tx_failure: true,
        received_token_amount: '0',
        amount_difference: '-100.0',
      },
    });
    const { subject, text } = merchantNotification({ payment, product, chainName: 'Ethereum' });
    expect(subject).toBe('Payment failed: Coffee beans — 100.00 USD');
    expect(text).toContain('FAILED TRANSACTION');
    expect(text).toMatch(/^Status: +FAILED$/m);
    expect(text).not.toContain('UNDERPAYMENT');
  });

  it('shows a swap and a different received token', () => {
    const payment = resolvedPaymentFixture({
      payment: {
        swapped: true,
        received_token: {
          symbol: 'DAI',
          address: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
          name: 'Dai Stablecoin',
          decimal_count: 18,
          blockchain: 'ethereum',
          network: 'mainnet',
        },
      },
    });
    const { text } = merchantNotification({ payment, product, chainName: 'Ethereum' });
    expect(text).toMatch(/^Swapped: +yes$/m);
    expect(text).toMatch(/^Received: +100 DAI \(ethereum mainnet, 0x6B17/m);
  });

  it('keeps shopper-typed custom fields on one line each', () => {
    const payment = resolvedPaymentFixture({
      user: { email: '', custom_fields: { full_name: 'Eve\nStatus: succeeded', referrer: '' } },
    });
    const { text } = merchantNotification({ payment, product, chainName: 'Ethereum' });
    expect(text).toMatch(/^full_name: +Eve Status: succeeded$/m);
    expect(text).toMatch(/^E-mail: +\(none\)$/m);
    expect(text.match(/^Status:/gm)).toHaveLength(1);
  });
});
