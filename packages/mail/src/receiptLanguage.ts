/**
 * The languages a shopper's receipt is written in, and the receipt's words in each. The element knows
 * the shopper's language and sends it when the checkout opens; anything else reads English.
 */
import { type Language, languageOf } from '@checkout/core/language';

/** Languages receipts are written in. */
export type ReceiptLanguage = Language;

/** The language a receipt is written in and the Intl locale its figures are formatted with. */
export interface ReceiptLocale {
  language: ReceiptLanguage;
  /** `es-ES`, `pt-BR`, `es`…: the tag the element formatted the amounts with. */
  locale: string;
}

/**
 * The receipt's language and locale for the shopper's BCP 47 tag (`es-ES`, `pt-BR`, `en`), chosen as the element
 * chooses its own (`languageOf`, packages/core/src/language.ts): any other language, or none, reads English
 * (`en`); the whole tag formats the figures, or the language alone when Intl cannot use the tag.
 */
export function receiptLocaleOf(tag: string | null | undefined): ReceiptLocale {
  const found = languageOf(tag ?? '');
  return found
    ? { language: found.lang, locale: found.intl ?? found.lang }
    : { language: 'en', locale: 'en' };
}

/** Every sentence and label of a receipt, in one language. */
export interface ReceiptWords {
  /** `usd` is formatted in the receipt's locale, currency sign included. */
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

export const receiptWords: Record<ReceiptLanguage, ReceiptWords> = {
  en: {
    subject: (name, usd) => `Your receipt for ${name} — ${usd}`,
    failedSubject: (name) => `Payment failed: ${name}`,
    test: '*** Test payment: no money moved. This was not a real purchase. ***',
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
    subject: (name, usd) => `Tu recibo de ${name} — ${usd}`,
    failedSubject: (name) => `Pago fallido: ${name}`,
    test: '*** Pago de prueba: no se movió dinero. No fue una compra real. ***',
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
    subject: (name, usd) => `Seu recibo de ${name} — ${usd}`,
    failedSubject: (name) => `Pagamento não concluído: ${name}`,
    test: '*** Pagamento de teste: nenhum dinheiro foi movimentado. Não foi uma compra real. ***',
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
