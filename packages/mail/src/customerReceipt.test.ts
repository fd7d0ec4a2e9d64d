import { describe, expect, it } from 'vitest';
import { resolvedPaymentFixture } from '../test/resolvedPaymentFixture.ts';
import { customerReceipt } from './customerReceipt.ts';
import { receiptLanguageOf } from './receiptLanguage.ts';

const product = {
  name: 'Coffee beans',
  email_body: 'Thanks for your order!\nWe ship within two days.',
  tax_rate: '20.0000',
};
const explorerTxUrl =
  'https://etherscan.io/tx/0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';

describe('customerReceipt', () => {
  it('puts the merchant text first, then every fact of an exact payment', () => {
    const payment = resolvedPaymentFixture();
    const { subject, text } = customerReceipt({ payment, product, chainName: 'Ethereum', explorerTxUrl });
    expect(subject).toBe('Your receipt for Coffee beans — 100.00 USD');
    expect(text.startsWith('Thanks for your order!\nWe ship within two days.\n\nReceipt\n')).toBe(true);
    expect(text).toMatch(/^Product: +Coffee beans$/m);
    expect(text).toMatch(/^Amount: +100\.00 USD$/m);
    expect(text).toMatch(/^Tax included \(20 %\): +16\.67 USD$/m);
    expect(text).toMatch(/^Paid: +100 USDC$/m);
    expect(text).toMatch(/^Chain: +Ethereum$/m);
    expect(text).toMatch(new RegExp(`^Transaction: +${payment.payment.tx_id}$`, 'm'));
    expect(text).toMatch(new RegExp(`^Explorer: +${explorerTxUrl}$`, 'm'));
    expect(text).toMatch(new RegExp(`^Payment id: +${payment.id}$`, 'm'));
    expect(text).toMatch(/^Date: +2025-03-04 05:06:07 UTC$/m);
    expect(text).not.toMatch(/TEST PAYMENT|FAILED|Note:/);
    expect(text).not.toContain(payment.product_secret);
    expect(text).not.toMatch(/<[a-z]/i);
  });

  it('asks for the difference on an under-payment of -2.0', () => {
    const payment = resolvedPaymentFixture({
      payment: { received_token_amount: '98', amount_difference: '-2.0' },
    });
    const { text } = customerReceipt({ payment, product, chainName: 'Ethereum' });
    expect(text).toMatch(/^Paid: +98 USDC$/m);
    expect(text).toContain('you sent 2.0 % less than the amount due (expected 100 USDC, received 98 USDC)');
    expect(text).toContain('send the difference');
    expect(text).not.toContain('Explorer:');
  });

  it('mentions a refund on an over-payment of 3.0', () => {
    const payment = resolvedPaymentFixture({
      payment: { received_token_amount: '103', amount_difference: '3.0' },
    });
    const { text } = customerReceipt({ payment, product, chainName: 'Ethereum' });
    expect(text).toContain('you sent 3.0 % more than the amount due (expected 100 USDC, received 103 USDC)');
    expect(text).toContain('partial refund');
  });

  it('says nothing about a difference within 1 %', () => {
    const payment = resolvedPaymentFixture({ payment: { amount_difference: '-1.0' } });
    expect(customerReceipt({ payment, product, chainName: 'Ethereum' }).text).not.toContain('Note:');
  });

  it('marks a test payment in subject and text', () => {
    const payment = resolvedPaymentFixture({ is_test: true });
    const { subject, text } = customerReceipt({ payment, product, chainName: 'BNB Smart Chain Testnet' });
    expect(subject.startsWith('[TEST] ')).toBe(true);
    expect(text).toContain('TEST PAYMENT — do not fulfil');
  });

  it('reports a failed transaction instead of a payment', () => {
    const payment = resolvedPaymentFixture({
      payment: {
        tx_success: false,
        tx_failure: true,
        received_token_amount: '0',
        amount_difference: '-100.0',
      },
    });
    const { subject, text } = customerReceipt({ payment, product, chainName: 'Ethereum' });
    expect(subject).toBe('Payment failed: Coffee beans');
    expect(text).toMatch(/failed transaction/i);
    expect(text).toMatch(/^Sent: +0 USDC$/m);
    expect(text).not.toMatch(/^Paid:/m);
    // The failure explains the missing amount; no request to top it up.
    expect(text).not.toContain('send the difference');
  });

  it('shows a 0.00 tax line at 0 % and skips an empty merchant text', () => {
    const payment = resolvedPaymentFixture({ dollar_amount: '25' });
    const { text } = customerReceipt({
      payment,
      product: { name: 'Tea', email_body: '  ', tax_rate: '0' },
      chainName: 'Polygon',
    });
    expect(text.startsWith('Receipt\n')).toBe(true);
    expect(text).toMatch(/^Amount: +25\.00 USD$/m);
    expect(text).toMatch(/^Tax included \(0 %\): +0\.00 USD$/m);
  });

  it('keeps a product name with line breaks on one line', () => {
    const payment = resolvedPaymentFixture();
    const { subject, text } = customerReceipt({
      payment,
      product: { ...product, name: 'Mug\r\nBcc: victim@example.com' },
      chainName: 'Ethereum',
    });
    expect(subject).not.toMatch(/[\r\n]/);
    expect(text).toMatch(/^Product: +Mug Bcc: victim@example\.com$/m);
  });

  it("writes the receipt in the shopper's Spanish, keeping the merchant's text and the figures as they are", () => {
    const payment = resolvedPaymentFixture({
      payment: { received_token_amount: '98', amount_difference: '-2.0' },
    });
    const { subject, text } = customerReceipt({ payment, product, chainName: 'Ethereum', language: 'es' });
    expect(subject).toBe('Tu recibo de Coffee beans — 100.00 USD');
    expect(text.startsWith('Thanks for your order!\nWe ship within two days.\n\nRecibo\n------\n')).toBe(
      true,
    );
    expect(text).toMatch(/^Producto: +Coffee beans$/m);
    expect(text).toMatch(/^Impuestos incluidos \(20 %\): +16\.67 USD$/m);
    expect(text).toMatch(/^Pagado: +98 USDC$/m);
    expect(text).toMatch(/^Fecha: +2025-03-04 05:06:07 UTC$/m);
    expect(text).toContain('enviaste un 2.0 % menos de lo debido (esperado 100 USDC, recibido 98 USDC)');
    expect(text).not.toMatch(/^(Product|Paid|Date):/m);
  });

  it('writes a failed test payment in Portuguese, keeping the English test marker', () => {
    const payment = resolvedPaymentFixture({
      is_test: true,
      payment: {
        tx_success: false,
        tx_failure: true,
        received_token_amount: '0',
        amount_difference: '-100.0',
      },
    });
    const { subject, text } = customerReceipt({ payment, product, chainName: 'Polygon', language: 'pt' });
    expect(subject).toBe('[TESTE] Pagamento não concluído: Coffee beans');
    expect(text).toContain('TEST PAYMENT — do not fulfil');
    expect(text).toContain('TRANSAÇÃO COM FALHA');
    expect(text).toMatch(/^Enviado: +0 USDC$/m);
    expect(text).toContain('inicie um novo pagamento');
  });

  it('reads the language from a BCP 47 tag, English for any other', () => {
    expect(receiptLanguageOf('es-ES')).toBe('es');
    expect(receiptLanguageOf('pt_BR')).toBe('pt');
    expect(receiptLanguageOf('PT')).toBe('pt');
    expect(receiptLanguageOf('fr-FR')).toBe('en');
    expect(receiptLanguageOf('')).toBe('en');
    expect(receiptLanguageOf(null)).toBe('en');
    expect(receiptLanguageOf(undefined)).toBe('en');
  });
});
