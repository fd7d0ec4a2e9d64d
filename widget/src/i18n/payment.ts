/**
 * The payment's texts (its review, progress after sending, outcome and errors) in English, Spanish and
 * Portuguese: they come with the payment module, so the texts fetched before the element is payable are only
 * the form's, the wallet list's and the header's (`i18n/en.ts`, `es.ts`, `pt.ts`).
 */
import type { Localized, Messages } from '../i18n.ts';

/** The payment's texts in English. */
const en = {
  connecting: 'Connecting to your wallet…',
  payingFrom: (address: string) => `Paying from ${address}`,
  direct: (amount: string) => `You send ${amount}.`,
  swap: (spend: string, receive: string) =>
    `You spend at most ${spend} (0.5 % slippage); the merchant receives exactly ${receive}.`,
  approveFirst: 'Your wallet asks twice: first to allow the swap, then to pay.',
  tokenChoice: 'Token to pay with',
  balance: (amount: string) => `Balance: ${amount}`,
  optionDirect: 'Direct transfer',
  optionSwap: (spend: string) => `Swap: at most ${spend}`,
  notEnough: 'Not enough',
  pay: 'Pay now',
  changeWallet: 'Use another wallet',
  waitingWallet: 'Confirm the payment in your wallet…',
  waitingApproval: 'Allow the swap in your wallet (step 1 of 2)…',
  submitted: 'Payment sent. Waiting for the network…',
  confirming: (n: number, of: number) => `Confirming: ${n} of ${of} confirmations`,
  paid: 'Payment received. Thank you!',
  paidLate: 'Payment received after the time limit. Thank you!',
  notUsed: (hash: string) =>
    `Your transaction ${hash} did not pay this checkout, which was already settled: ask the merchant to refund it.`,
  receiptSent: (email: string) =>
    email ? `A receipt is on its way to ${email}.` : 'A receipt is on its way by e-mail.',
  failed: 'The payment failed.',
  failedReverted:
    'The transaction was reverted on the network, so no tokens were transferred; only the network fee was spent.',
  expired: 'This checkout has expired.',
  closed: 'This checkout was closed.',
  receivedOther: (received: string, expected: string) => `We received ${received}, not ${expected}.`,
  doNotResend: 'Do not send it again: the merchant will confirm your order or refund you.',
  expiredWatching: 'Sent the payment already? Keep this page open: it shows here if it arrives.',
  expiredRestart: 'Start again to pay with a new time limit.',
  expiredAskMerchant: 'Ask the merchant for a new payment link.',
  startAgain: 'Start again',
  redirecting: (site: string) => `Taking you back to ${site}…`,
  goNow: 'Go now',
  errors: {
    rejected: 'You declined the request in your wallet. You can try again.',
    wrong_chain: (chain: string) => `Your wallet is on another network. Switch it to ${chain} and try again.`,
    insufficient: (need: string) => `Your wallet does not hold enough to pay ${need}.`,
    holds: (list: string) => `It holds ${list}.`,
    fee_funds: (coin: string) =>
      `Your wallet holds no ${coin} for the network fee. Add a little ${coin}, then try again.`,
    rpc: 'Your wallet or the network reported an error. Check your connection and try again.',
    unknown: 'Something went wrong. Try again.',
    checkout_expired: 'This checkout has expired.',
    tx_already_used: 'This transaction already pays another checkout.',
    tx_rejected: 'This transaction does not pay this checkout.',
    tx_not_for_session:
      "This transaction cannot be matched to this checkout: it carries neither the checkout's reference nor its exact amount. If tokens left your wallet, ask the merchant to refund them.",
  },
  transaction: 'Transaction',
  copy: 'Copy',
  copyHash: 'Copy transaction hash',
  copied: 'Transaction hash copied.',
  copyFailed: 'This browser did not allow copying; the whole hash is shown.',
  viewOn: (explorer: string) => `View on ${explorer}`,
};

type PaymentTexts = typeof en;

/** The payment's texts in Spanish. */
const es: PaymentTexts = {
  connecting: 'Conectando con tu billetera…',
  payingFrom: (address) => `Pagas desde ${address}`,
  direct: (amount) => `Envías ${amount}.`,
  swap: (spend, receive) =>
    `Gastas como máximo ${spend} (0,5 % de deslizamiento); el comercio recibe exactamente ${receive}.`,
  approveFirst: 'Tu billetera pedirá dos confirmaciones: autorizar el intercambio y pagar.',
  tokenChoice: 'Token con el que pagas',
  balance: (amount) => `Saldo: ${amount}`,
  optionDirect: 'Transferencia directa',
  optionSwap: (spend) => `Intercambio: como máximo ${spend}`,
  notEnough: 'Saldo insuficiente',
  pay: 'Pagar ahora',
  changeWallet: 'Usar otra billetera',
  waitingWallet: 'Confirma el pago en tu billetera…',
  waitingApproval: 'Autoriza el intercambio en tu billetera (paso 1 de 2)…',
  submitted: 'Pago enviado. Esperando a la red…',
  confirming: (n, of) => `Confirmando: ${n} de ${of} confirmaciones`,
  paid: 'Pago recibido. ¡Gracias!',
  paidLate: 'Pago recibido después del plazo. ¡Gracias!',
  notUsed: (hash) =>
    `Tu transacción ${hash} no pagó este pedido, que ya estaba resuelto: pide al comercio que te la reembolse.`,
  receiptSent: (email: string) =>
    email ? `Te enviamos un recibo a ${email}.` : 'Te enviamos un recibo por correo electrónico.',
  failed: 'El pago falló.',
  failedReverted:
    'La red revirtió la transacción, así que no se transfirió ningún token; solo se cobró la comisión de red.',
  expired: 'Este pago ha caducado.',
  closed: 'Este pago se cerró.',
  receivedOther: (received, expected) => `Recibimos ${received}, no ${expected}.`,
  doNotResend: 'No lo envíes de nuevo: el comercio confirmará tu pedido o te devolverá el dinero.',
  expiredWatching: '¿Ya enviaste el pago? Mantén esta página abierta: aparecerá aquí si llega.',
  expiredRestart: 'Empieza de nuevo para pagar con un nuevo plazo.',
  expiredAskMerchant: 'Pide al comercio un nuevo enlace de pago.',
  startAgain: 'Empezar de nuevo',
  redirecting: (site) => `Te llevamos de vuelta a ${site}…`,
  goNow: 'Ir ahora',
  errors: {
    rejected: 'Rechazaste la solicitud en tu billetera. Puedes intentarlo de nuevo.',
    wrong_chain: (chain) => `Tu billetera está en otra red. Cámbiala a ${chain} e inténtalo de nuevo.`,
    insufficient: (need) => `Tu billetera no tiene saldo suficiente para pagar ${need}.`,
    holds: (list) => `Tiene ${list}.`,
    fee_funds: (coin) =>
      `Tu billetera no tiene ${coin} para la comisión de red. Añade un poco de ${coin} e inténtalo de nuevo.`,
    rpc: 'Tu billetera o la red informó de un error. Revisa tu conexión e inténtalo de nuevo.',
    unknown: 'Algo salió mal. Inténtalo de nuevo.',
    checkout_expired: 'Este pago ha caducado.',
    tx_already_used: 'Esta transacción ya paga otro pedido.',
    tx_rejected: 'Esta transacción no paga este pedido.',
    tx_not_for_session:
      'Esta transacción no se puede asociar a este pedido: no lleva su referencia ni su importe exacto. Si salieron tokens de tu billetera, pide al comercio que te los reembolse.',
  },
  transaction: 'Transacción',
  copy: 'Copiar',
  copyHash: 'Copiar el hash de la transacción',
  copied: 'Hash de la transacción copiado.',
  copyFailed: 'Este navegador no permitió copiar; se muestra el hash completo.',
  viewOn: (explorer) => `Ver en ${explorer}`,
};

/** The payment's texts in Portuguese. */
const pt: PaymentTexts = {
  connecting: 'Conectando à sua carteira…',
  payingFrom: (address) => `Pagando com ${address}`,
  direct: (amount) => `Você envia ${amount}.`,
  swap: (spend, receive) =>
    `Você gasta no máximo ${spend} (0,5 % de slippage); o lojista recebe exatamente ${receive}.`,
  approveFirst: 'Sua carteira pedirá duas confirmações: autorizar a troca e pagar.',
  tokenChoice: 'Token para pagar',
  balance: (amount) => `Saldo: ${amount}`,
  optionDirect: 'Transferência direta',
  optionSwap: (spend) => `Troca: no máximo ${spend}`,
  notEnough: 'Saldo insuficiente',
  pay: 'Pagar agora',
  changeWallet: 'Usar outra carteira',
  waitingWallet: 'Confirme o pagamento na sua carteira…',
  waitingApproval: 'Autorize a troca na sua carteira (etapa 1 de 2)…',
  submitted: 'Pagamento enviado. Aguardando a rede…',
  confirming: (n, of) => `Confirmando: ${n} de ${of} confirmações`,
  paid: 'Pagamento recebido. Obrigado!',
  paidLate: 'Pagamento recebido depois do prazo. Obrigado!',
  notUsed: (hash) =>
    `Sua transação ${hash} não pagou este pedido, que já estava resolvido: peça ao lojista para reembolsá-la.`,
  receiptSent: (email: string) =>
    email ? `Enviamos um recibo para ${email}.` : 'Enviamos um recibo por e-mail.',
  failed: 'O pagamento falhou.',
  failedReverted:
    'A rede reverteu a transação, então nenhum token foi transferido; só a taxa de rede foi cobrada.',
  expired: 'Este pagamento expirou.',
  closed: 'Este pagamento foi encerrado.',
  receivedOther: (received, expected) => `Recebemos ${received}, não ${expected}.`,
  doNotResend: 'Não envie de novo: o lojista vai confirmar o seu pedido ou devolver o seu dinheiro.',
  expiredWatching: 'Já enviou o pagamento? Mantenha esta página aberta: ele aparece aqui se chegar.',
  expiredRestart: 'Comece de novo para pagar com um novo prazo.',
  expiredAskMerchant: 'Peça ao lojista um novo link de pagamento.',
  startAgain: 'Começar de novo',
  redirecting: (site) => `Levando você de volta para ${site}…`,
  goNow: 'Ir agora',
  errors: {
    rejected: 'Você recusou o pedido na carteira. Pode tentar de novo.',
    wrong_chain: (chain) => `Sua carteira está em outra rede. Mude para ${chain} e tente de novo.`,
    insufficient: (need) => `Sua carteira não tem saldo suficiente para pagar ${need}.`,
    holds: (list) => `Ela tem ${list}.`,
    fee_funds: (coin) =>
      `Sua carteira não tem ${coin} para a taxa de rede. Adicione um pouco de ${coin} e tente de novo.`,
    rpc: 'Sua carteira ou a rede informou um erro. Verifique sua conexão e tente de novo.',
    unknown: 'Algo deu errado. Tente de novo.',
    checkout_expired: 'Este pagamento expirou.',
    tx_already_used: 'Esta transação já paga outro pedido.',
    tx_rejected: 'Esta transação não paga este pedido.',
    tx_not_for_session:
      'Esta transação não pode ser associada a este pedido: ela não leva a referência dele nem o valor exato. Se saíram tokens da sua carteira, peça ao lojista que os reembolse.',
  },
  transaction: 'Transação',
  copy: 'Copiar',
  copyHash: 'Copiar o hash da transação',
  copied: 'Hash da transação copiado.',
  copyFailed: 'Este navegador não permitiu copiar; o hash completo é mostrado.',
  viewOn: (explorer) => `Ver no ${explorer}`,
};

/** Every text a payment uses: the element's and the payment's own, their errors together. */
export type PaymentMessages = Omit<Messages, 'errors'> &
  Omit<PaymentTexts, 'errors'> & { errors: Messages['errors'] & PaymentTexts['errors'] };

/** A language tag and every text a payment uses in its language. */
export interface PaymentLocalized {
  locale: string;
  messages: PaymentMessages;
}

const texts = { en, es, pt };
const merged = new WeakMap<Localized, PaymentLocalized>();

/** The element's texts in use with the payment's own in the same language (English for any other). */
export function withPaymentTexts(localized: Localized): PaymentLocalized {
  const known = merged.get(localized);
  if (known) return known;
  const lang = localized.locale.slice(0, 2);
  const own = Object.hasOwn(texts, lang) ? texts[lang as keyof typeof texts] : en;
  const { messages } = localized;
  const full = {
    locale: localized.locale,
    messages: { ...messages, ...own, errors: { ...messages.errors, ...own.errors } },
  };
  merged.set(localized, full);
  return full;
}
