/**
 * Every sentence and label of a customer's refund e-mail, in the receipt languages (en, es, pt): the claim
 * link and its reminder, the address noted, the transfer sent and confirmed, a refund canceled or expired.
 */
import type { ReceiptLanguage } from './receiptLanguage.ts';

/** What a customer's refund e-mail is about: a status the refund reached, or the reminder to claim it. */
export type CustomerRefundNoticeKind =
  | 'awaiting_address'
  | 'reminder'
  | 'ready_to_pay'
  | 'sent'
  | 'confirmed'
  | 'canceled'
  | 'expired';

/** The words of a customer's refund e-mails in one language. */
export interface RefundWords {
  /** `what` is the product's name (see `forWhat`), or nothing when the refund has none. */
  subjects: Record<CustomerRefundNoticeKind, (amount: string, what: string) => string>;
  test: string;
  testSubject: string;
  /** ` for Filter papers` / ` de Filter papers` (with its leading space), or nothing. */
  forWhat(name: string | null): string;
  intro: Record<Exclude<CustomerRefundNoticeKind, 'reminder'>, string> & { reminder(until: string): string };
  claimHere(until: string): string;
  exchangeWarning(token: string, chain: string): string;
  labels: Record<
    'amount' | 'chain' | 'reason' | 'cancelReason' | 'address' | 'transaction' | 'claimBy' | 'refundId',
    string
  >;
}

export const refundWords: Record<ReceiptLanguage, RefundWords> = {
  en: {
    subjects: {
      awaiting_address: (amount, what) => `A refund of ${amount}${what} is waiting for you`,
      reminder: (amount, what) => `Reminder: claim your refund of ${amount}${what}`,
      ready_to_pay: (amount, what) => `Your refund of ${amount}${what}: address received`,
      sent: (amount, what) => `Your refund of ${amount}${what} is on its way`,
      confirmed: (amount, what) => `Your refund of ${amount}${what} has arrived`,
      canceled: (amount, what) => `Your refund of ${amount}${what} was canceled`,
      expired: (amount, what) => `Your refund of ${amount}${what} expired unclaimed`,
    },
    test: '*** Test refund: no real money moves. ***',
    testSubject: '[TEST] ',
    forWhat: (name) => (name ? ` for ${name}` : ''),
    intro: {
      awaiting_address:
        'The merchant is refunding you. Tell us the wallet address the refund should go to, and the merchant sends it there.',
      reminder: (until) =>
        `Your refund is still waiting for an address. Claim it before ${until}, or it expires.`,
      ready_to_pay: 'We have the address for your refund. The merchant will send it there from their wallet.',
      sent: 'The merchant has sent your refund. It is final once the blockchain confirms the transaction.',
      confirmed: 'Your refund is confirmed on the blockchain: the money is in your wallet.',
      canceled: 'The merchant canceled this refund. Please contact them if you have questions.',
      expired:
        'No address was given for this refund in time, so it expired. Please contact the merchant if you still expect it.',
    },
    claimHere: (until) => `Give your address here (until ${until}):`,
    exchangeWarning: (token, chain) =>
      `Important: give an address of a wallet you control that can receive ${token} on ${chain}. Do not give the deposit address of an exchange account: exchanges may not credit a transfer they did not expect, and the refund could be lost.`,
    labels: {
      amount: 'Amount',
      chain: 'Chain',
      reason: 'Reason',
      address: 'Your address',
      transaction: 'Transaction',
      claimBy: 'Claim by',
      cancelReason: 'Why it was canceled',
      refundId: 'Refund id',
    },
  },
  es: {
    subjects: {
      awaiting_address: (amount, what) => `Tienes un reembolso de ${amount}${what}`,
      reminder: (amount, what) => `Recordatorio: reclama tu reembolso de ${amount}${what}`,
      ready_to_pay: (amount, what) => `Tu reembolso de ${amount}${what}: dirección recibida`,
      sent: (amount, what) => `Tu reembolso de ${amount}${what} está en camino`,
      confirmed: (amount, what) => `Tu reembolso de ${amount}${what} ha llegado`,
      canceled: (amount, what) => `Tu reembolso de ${amount}${what} fue cancelado`,
      expired: (amount, what) => `Tu reembolso de ${amount}${what} venció sin reclamarse`,
    },
    test: '*** Reembolso de prueba: no se mueve dinero real. ***',
    testSubject: '[PRUEBA] ',
    forWhat: (name) => (name ? ` de ${name}` : ''),
    intro: {
      awaiting_address:
        'El comercio te está haciendo un reembolso. Indícanos la dirección de la billetera a la que debe ir y el comercio lo enviará allí.',
      reminder: (until) =>
        `Tu reembolso sigue esperando una dirección. Reclámalo antes del ${until} o vencerá.`,
      ready_to_pay: 'Tenemos la dirección para tu reembolso. El comercio lo enviará allí desde su billetera.',
      sent: 'El comercio envió tu reembolso. Será definitivo cuando la cadena de bloques confirme la transacción.',
      confirmed: 'Tu reembolso está confirmado en la cadena de bloques: el dinero está en tu billetera.',
      canceled: 'El comercio canceló este reembolso. Contáctalo si tienes preguntas.',
      expired:
        'No se indicó una dirección a tiempo, así que el reembolso venció. Contacta al comercio si todavía lo esperas.',
    },
    claimHere: (until) => `Indica tu dirección aquí (hasta el ${until}):`,
    exchangeWarning: (token, chain) =>
      `Importante: indica la dirección de una billetera que controles y que pueda recibir ${token} en ${chain}. No indiques la dirección de depósito de una cuenta en un exchange: los exchanges pueden no acreditar una transferencia que no esperaban y el reembolso podría perderse.`,
    labels: {
      amount: 'Importe',
      chain: 'Red',
      reason: 'Motivo',
      address: 'Tu dirección',
      transaction: 'Transacción',
      claimBy: 'Reclamar antes del',
      cancelReason: 'Motivo de la cancelación',
      refundId: 'Id. del reembolso',
    },
  },
  pt: {
    subjects: {
      awaiting_address: (amount, what) => `Há um reembolso de ${amount}${what} para você`,
      reminder: (amount, what) => `Lembrete: solicite seu reembolso de ${amount}${what}`,
      ready_to_pay: (amount, what) => `Seu reembolso de ${amount}${what}: endereço recebido`,
      sent: (amount, what) => `Seu reembolso de ${amount}${what} está a caminho`,
      confirmed: (amount, what) => `Seu reembolso de ${amount}${what} chegou`,
      canceled: (amount, what) => `Seu reembolso de ${amount}${what} foi cancelado`,
      expired: (amount, what) => `Seu reembolso de ${amount}${what} expirou sem ser solicitado`,
    },
    test: '*** Reembolso de teste: nenhum dinheiro real é movimentado. ***',
    testSubject: '[TESTE] ',
    forWhat: (name) => (name ? ` de ${name}` : ''),
    intro: {
      awaiting_address:
        'O lojista está reembolsando você. Informe o endereço da carteira para onde o reembolso deve ir e o lojista o enviará para lá.',
      reminder: (until) =>
        `Seu reembolso ainda aguarda um endereço. Solicite-o antes de ${until}, ou ele expira.`,
      ready_to_pay:
        'Recebemos o endereço do seu reembolso. O lojista o enviará para lá a partir da carteira dele.',
      sent: 'O lojista enviou seu reembolso. Ele será definitivo quando a blockchain confirmar a transação.',
      confirmed: 'Seu reembolso foi confirmado na blockchain: o dinheiro está na sua carteira.',
      canceled: 'O lojista cancelou este reembolso. Entre em contato com ele se tiver dúvidas.',
      expired:
        'Nenhum endereço foi informado a tempo, então o reembolso expirou. Entre em contato com o lojista se ainda o espera.',
    },
    claimHere: (until) => `Informe seu endereço aqui (até ${until}):`,
    exchangeWarning: (token, chain) =>
      `Importante: informe o endereço de uma carteira que você controla e que possa receber ${token} na rede ${chain}. Não informe o endereço de depósito de uma conta em uma corretora (exchange): corretoras podem não creditar uma transferência que não esperavam, e o reembolso pode ser perdido.`,
    labels: {
      amount: 'Valor',
      chain: 'Rede',
      reason: 'Motivo',
      address: 'Seu endereço',
      transaction: 'Transação',
      claimBy: 'Solicitar até',
      cancelReason: 'Motivo do cancelamento',
      refundId: 'ID do reembolso',
    },
  },
};
