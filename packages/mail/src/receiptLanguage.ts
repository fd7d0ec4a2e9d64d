/**
 * The languages a shopper's receipt is written in, and the receipt's words in each. The element knows
 * the shopper's language and sends it when the checkout opens; anything else reads English.
 */

/** Languages receipts are written in. */
export const receiptLanguages = ['en', 'es', 'pt'] as const;
export type ReceiptLanguage = (typeof receiptLanguages)[number];

/**
 * The receipt language of a BCP 47 tag (`es-ES`, `pt-BR`, `en`), or English for any other or none:
 * the primary subtag decides, in any case.
 */
export function receiptLanguageOf(tag: string | null | undefined): ReceiptLanguage {
  const primary = (tag ?? '').trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
  return (receiptLanguages as readonly string[]).includes(primary) ? (primary as ReceiptLanguage) : 'en';
}

/** Every sentence and label of a receipt, in one language. */
export interface ReceiptWords {
  subject(name: string, usd: string): string;
  failedSubject(name: string): string;
  test: string;
  testSubject: string;
  failed: string;
  heading: string;
  product: string;
  amount: string;
  taxIncluded(rate: string): string;
  paid: string;
  sent: string;
  chain: string;
  transaction: string;
  explorer: string;
  paymentId: string;
  date: string;
  under(percent: string, expected: string, received: string): string;
  over(percent: string, expected: string, received: string): string;
  startAgain: string;
}

/**
 * Test payment marker, worded as the spec's rule for `is_test`; receipts in every language keep it in
 * English too, as merchants' tools look for it.
 */
export const testPaymentFlag = 'TEST PAYMENT — do not fulfil';

export const receiptWords: Record<ReceiptLanguage, ReceiptWords> = {
  en: {
    subject: (name, usd) => `Your receipt for ${name} — ${usd} USD`,
    failedSubject: (name) => `Payment failed: ${name}`,
    test: `*** ${testPaymentFlag}. This was not a real purchase. ***`,
    testSubject: '[TEST] ',
    failed: '*** FAILED TRANSACTION: the blockchain transaction did not succeed, so no payment was made. ***',
    heading: 'Receipt',
    product: 'Product',
    amount: 'Amount',
    taxIncluded: (rate) => `Tax included (${rate} %)`,
    paid: 'Paid',
    sent: 'Sent',
    chain: 'Chain',
    transaction: 'Transaction',
    explorer: 'Explorer',
    paymentId: 'Payment id',
    date: 'Date',
    under: (percent, expected, received) =>
      `Note: you sent ${percent} % less than the amount due (expected ${expected}, received ${received}). ` +
      'The merchant may ask you to send the difference before your order is fulfilled.',
    over: (percent, expected, received) =>
      `Note: you sent ${percent} % more than the amount due (expected ${expected}, received ${received}). ` +
      'The merchant may arrange a partial refund.',
    startAgain: 'If you still want to buy, please start a new checkout.',
  },
  es: {
    subject: (name, usd) => `Tu recibo de ${name} — ${usd} USD`,
    failedSubject: (name) => `Pago fallido: ${name}`,
    test: `*** ${testPaymentFlag} (PAGO DE PRUEBA: no es una compra real). ***`,
    testSubject: '[PRUEBA] ',
    failed:
      '*** TRANSACCIÓN FALLIDA: la transacción en la cadena de bloques no se completó, así que no se realizó ningún pago. ***',
    heading: 'Recibo',
    product: 'Producto',
    amount: 'Importe',
    taxIncluded: (rate) => `Impuestos incluidos (${rate} %)`,
    paid: 'Pagado',
    sent: 'Enviado',
    chain: 'Red',
    transaction: 'Transacción',
    explorer: 'Explorador',
    paymentId: 'Id. del pago',
    date: 'Fecha',
    under: (percent, expected, received) =>
      `Nota: enviaste un ${percent} % menos de lo debido (esperado ${expected}, recibido ${received}). ` +
      'Es posible que el comercio te pida la diferencia antes de completar tu pedido.',
    over: (percent, expected, received) =>
      `Nota: enviaste un ${percent} % más de lo debido (esperado ${expected}, recibido ${received}). ` +
      'El comercio puede acordar contigo un reembolso parcial.',
    startAgain: 'Si todavía quieres comprar, inicia un nuevo pago.',
  },
  pt: {
    subject: (name, usd) => `Seu recibo de ${name} — ${usd} USD`,
    failedSubject: (name) => `Pagamento não concluído: ${name}`,
    test: `*** ${testPaymentFlag} (PAGAMENTO DE TESTE: não é uma compra real). ***`,
    testSubject: '[TESTE] ',
    failed:
      '*** TRANSAÇÃO COM FALHA: a transação na blockchain não foi concluída, então nenhum pagamento foi feito. ***',
    heading: 'Recibo',
    product: 'Produto',
    amount: 'Valor',
    taxIncluded: (rate) => `Impostos incluídos (${rate} %)`,
    paid: 'Pago',
    sent: 'Enviado',
    chain: 'Rede',
    transaction: 'Transação',
    explorer: 'Explorador',
    paymentId: 'ID do pagamento',
    date: 'Data',
    under: (percent, expected, received) =>
      `Observação: você enviou ${percent} % a menos do que o devido (esperado ${expected}, recebido ${received}). ` +
      'O lojista pode pedir a diferença antes de concluir o seu pedido.',
    over: (percent, expected, received) =>
      `Observação: você enviou ${percent} % a mais do que o devido (esperado ${expected}, recebido ${received}). ` +
      'O lojista pode combinar um reembolso parcial.',
    startAgain: 'Se ainda quiser comprar, inicie um novo pagamento.',
  },
};
