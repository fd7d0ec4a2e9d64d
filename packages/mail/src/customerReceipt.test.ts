import { describe, expect, it } from 'vitest';
import { resolvedPaymentFixture } from '../test/resolvedPaymentFixture.ts';
import { customerReceipt } from './customerReceipt.ts';
import { receiptLocaleOf } from './receiptLanguage.ts';

const product = {
  name: 'Coffee beans',
  email_body: 'Thanks for your order!\nWe ship within two days.',
  tax_rate: '20.0000',
};
/** The no-break space Intl puts between an amount and its currency, as the element shows it. */
const nbsp = '\u00a0';
const explorerTxUrl =
  'https://etherscan.io/tx/0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';

describe('customerReceipt', () => {
  it('puts the merchant text first, then every fact of an exact payment', () => {
    const payment = resolvedPaymentFixture();
    const { subject, text } = customerReceipt({ payment, product, chainName: 'Ethereum', explorerTxUrl });
    expect(subject).toBe('Your receipt for Coffee beans — $100.00');
    expect(text.startsWith('Thanks for your order!\nWe ship within two days.\n\nReceipt\n')).toBe(true);
    expect(text).toMatch(/^Product: +Coffee beans$/m);
    expect(text).toMatch(/^Amount: +\$100\.00$/m);
    expect(text).toMatch(/^Tax included \(20 %\): +\$16\.67$/m);
    expect(text).toMatch(/^Paid: +100 USDC$/m);
    expect(text).toMatch(/^Chain: +Ethereum$/m);
    expect(text).toMatch(new RegExp(`^Transaction: +${payment.payment.tx_id}$`, 'm'));
    expect(text).toMatch(new RegExp(`^Explorer: +${explorerTxUrl}$`, 'm'));
    expect(text).toMatch(new RegExp(`^Payment id: +${payment.id}$`, 'm'));
    expect(text).toMatch(/^Date: +2025-03-04 05:06:07 UTC$/m);
    expect(text).not.toMatch(/test payment|FAILED|Note:/i);
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
    expect(text).toMatch(/^Amount: +\$25\.00$/m);
    expect(text).toMatch(/^Tax included \(0 %\): +\$0\.00$/m);
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

  it("writes the receipt in the shopper's Spanish, amounts as the element writes them", () => {
    const payment = resolvedPaymentFixture({
      dollar_amount: '7.77',
      payment: { received_token_amount: '7.6146', expected_token_amount: '7.77', amount_difference: '-2.0' },
    });
    const { subject, text } = customerReceipt({ payment, product, chainName: 'Ethereum', locale: 'es-ES' });
    expect(subject).toBe(`Tu recibo de Coffee beans — 7,77${nbsp}US$`);
    expect(text.startsWith('Thanks for your order!\nWe ship within two days.\n\nRecibo\n------\n')).toBe(
      true,
    );
    expect(text).toMatch(/^Producto: +Coffee beans$/m);
    expect(text).toMatch(new RegExp(`^Importe: +7,77${nbsp}US\\$$`, 'm'));
    expect(text).toMatch(new RegExp(`^Impuestos incluidos \\(20 %\\): +1,30${nbsp}US\\$$`, 'm'));
    expect(text).toMatch(/^Pagado: +7,6146 USDC$/m);
    expect(text).toMatch(/^Fecha: +2025-03-04 05:06:07 UTC$/m);
    expect(text).toContain('enviaste un 2,0 % menos de lo debido (esperado 7,77 USDC, recibido 7,6146 USDC)');
    expect(text).not.toMatch(/^(Product|Paid|Date):/m);
    expect(text).not.toContain('7.77');
  });

  it.each([
    ['en', '$1,234,567.89', '12,345.678901 USDC', '8.25 %'],
    ['es', `1.234.567,89${nbsp}US$`, '12.345,678901 USDC', '8,25 %'],
    ['es-MX', `USD${nbsp}1,234,567.89`, '12,345.678901 USDC', '8.25 %'],
    ['pt-BR', `US$${nbsp}1.234.567,89`, '12.345,678901 USDC', '8,25 %'],
    ['pt', `US$${nbsp}1.234.567,89`, '12.345,678901 USDC', '8,25 %'],
  ])('formats the figures of a %s receipt as the element does: %s, %s', (locale, usd, token, rate) => {
    // The element's own output for these (widget/src/amount.ts formatUsd and formatToken, Intl with currency USD).
    const payment = resolvedPaymentFixture({
      dollar_amount: '1234567.89',
      payment: { received_token_amount: '12345.678901' },
    });
    const { subject, text } = customerReceipt({
      payment,
      product: { ...product, tax_rate: '8.2500' },
      chainName: 'Ethereum',
      locale,
    });
    expect(subject.endsWith(` — ${usd}`)).toBe(true);
    expect(text).toContain(` ${usd}\n`);
    expect(text).toContain(` ${token}\n`);
    expect(text).toContain(`(${rate})`);
  });

  it.each([
    ['en', '[TEST] ', 'Test payment: no money moved.'],
    ['es', '[PRUEBA] ', 'Pago de prueba: no se movió dinero.'],
    ['pt-BR', '[TESTE] ', 'Pagamento de teste: nenhum dinheiro foi movimentado.'],
  ])('says a %s test payment moved no money, in the shopper’s language only', (locale, prefix, line) => {
    const test = customerReceipt({
      payment: resolvedPaymentFixture({ is_test: true }),
      product,
      chainName: 'BNB Smart Chain Testnet',
      locale,
    });
    expect(test.subject.startsWith(prefix)).toBe(true);
    expect(test.text).toContain(`*** ${line}`);
    // The merchant's instruction is for the merchant's e-mail alone.
    expect(test.text).not.toMatch(/TEST PAYMENT|do not fulfil/);

    const live = customerReceipt({
      payment: resolvedPaymentFixture(),
      product,
      chainName: 'Ethereum',
      locale,
    });
    expect(live.subject.startsWith(prefix)).toBe(false);
    expect(live.text).not.toContain(line);
  });

  it('writes a failed test payment in Portuguese', () => {
    const payment = resolvedPaymentFixture({
      is_test: true,
      payment: {
        tx_success: false,
        tx_failure: true,
        received_token_amount: '0',
        amount_difference: '-100.0',
      },
    });
    const { subject, text } = customerReceipt({ payment, product, chainName: 'Polygon', locale: 'pt-BR' });
    expect(subject).toBe('[TESTE] Pagamento não concluído: Coffee beans');
    expect(text).toContain('Pagamento de teste: nenhum dinheiro foi movimentado.');
    expect(text).not.toContain('TEST PAYMENT');
    expect(text).toContain('TRANSAÇÃO COM FALHA');
    expect(text).toMatch(/^Enviado: +0 USDC$/m);
    expect(text).toContain('inicie um novo pagamento');
  });

  it('reads the language and locale from a BCP 47 tag, English for any other', () => {
    expect(receiptLocaleOf('es-ES')).toEqual({ language: 'es', locale: 'es-ES' });
    expect(receiptLocaleOf('pt_BR')).toEqual({ language: 'pt', locale: 'pt-BR' });
    expect(receiptLocaleOf('PT')).toEqual({ language: 'pt', locale: 'pt' });
    expect(receiptLocaleOf('es-x')).toEqual({ language: 'es', locale: 'es' });
    expect(receiptLocaleOf('fr-FR')).toEqual({ language: 'en', locale: 'en' });
    expect(receiptLocaleOf('')).toEqual({ language: 'en', locale: 'en' });
    expect(receiptLocaleOf(null)).toEqual({ language: 'en', locale: 'en' });
    expect(receiptLocaleOf(undefined)).toEqual({ language: 'en', locale: 'en' });
  });
});
