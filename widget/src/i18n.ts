/** Texts of the element in English, Spanish and Portuguese. */

const en = {
  loading: 'Loading checkout…',
  loadFailed: 'This checkout could not be loaded.',
  retry: 'Try again',
  testMode: 'Test mode',
  amountUsd: 'Amount (USD)',
  amountRequired: 'Enter an amount.',
  amountFormat: 'Use a number with at most 2 decimals, such as 25.00.',
  amountPositive: 'The amount must be greater than 0.',
  amountMax: (max: string) => `The amount must not exceed ${max}.`,
  taxIncluded: (rate: string, tax: string) => `Includes ${rate} % tax: ${tax}`,
  email: 'E-mail',
  emailInvalid: 'Enter a valid e-mail address.',
  fieldRequired: 'This field is required.',
  customField: {
    full_name: 'Full name',
    reference: 'Reference',
    referrer: 'Referred by',
    company: 'Company',
    job_title: 'Job title',
  } as Record<string, string>,
  payWith: (wallet: string) => `Pay with ${wallet}`,
  browserWallet: 'Browser wallet',
  noWallet: 'No wallet found in this browser.',
  otherDevice: 'Pay from another device',
  noAmount: 'This checkout needs a payment link from the merchant.',
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
  receiptSent: (email: string) =>
    email ? `A receipt is on its way to ${email}.` : 'A receipt is on its way by e-mail.',
  failed: 'The payment failed.',
  failedReverted:
    'The transaction was reverted on the network, so no tokens were transferred; only the network fee was spent.',
  expired: 'This checkout has expired.',
  expiredRestart: 'Start again to pay with a new time limit.',
  expiredAskMerchant: 'Ask the merchant for a new payment link.',
  startAgain: 'Start again',
  backToShop: 'Back to the shop',
  expiresIn: (time: string) => `Time left to pay: ${time}`,
  minutesLeft: (n: number) => (n === 1 ? '1 minute left to pay' : `${n} minutes left to pay`),
  secondsLeft: (n: number) => `${n} seconds left to pay`,
  steps: ['Connect', 'Review', 'Wallet', 'Sent', 'Confirming', 'Done'] as readonly string[],
  stepFailed: 'Failed',
  stepExpired: 'Expired',
  progress: 'Progress',
  errors: {
    rejected: 'You declined the request in your wallet. You can try again.',
    wrong_chain: (chain: string) => `Your wallet is on another network. Switch it to ${chain} and try again.`,
    insufficient: (need: string) => `Your wallet does not hold enough to pay ${need}.`,
    fee_funds: (coin: string) =>
      `Your wallet holds no ${coin} for the network fee. Add a little ${coin}, then try again.`,
    rpc: 'Your wallet or the network reported an error. Check your connection and try again.',
    unknown: 'Something went wrong. Try again.',
    expired: 'This checkout has expired.',
    tx_already_used: 'This transaction already pays another checkout.',
    tx_rejected: 'This transaction does not pay this checkout.',
  },
  transaction: 'Transaction',
  copy: 'Copy',
  copyHash: 'Copy transaction hash',
  copied: 'Transaction hash copied.',
  copyFailed: 'This browser did not allow copying; the whole hash is shown.',
  viewOn: (explorer: string) => `View on ${explorer}`,
};

/** Every text of the element in one language. */
export type Messages = typeof en;

// Spanish and Portuguese are built the first time a page asks for them, not when the script runs.
const es = (): Messages => ({
  loading: 'Cargando el pago…',
  loadFailed: 'No se pudo cargar este pago.',
  retry: 'Reintentar',
  testMode: 'Modo de prueba',
  amountUsd: 'Importe (USD)',
  amountRequired: 'Introduce un importe.',
  amountFormat: 'Usa un número con 2 decimales como máximo, por ejemplo 25,00.',
  amountPositive: 'El importe debe ser mayor que 0.',
  amountMax: (max) => `El importe no puede superar ${max}.`,
  taxIncluded: (rate, tax) => `Incluye ${rate} % de impuestos: ${tax}`,
  email: 'Correo electrónico',
  emailInvalid: 'Introduce un correo electrónico válido.',
  fieldRequired: 'Este campo es obligatorio.',
  customField: {
    full_name: 'Nombre completo',
    reference: 'Referencia',
    referrer: 'Recomendado por',
    company: 'Empresa',
    job_title: 'Cargo',
  },
  payWith: (wallet) => `Pagar con ${wallet}`,
  browserWallet: 'Billetera del navegador',
  noWallet: 'No se encontró ninguna billetera en este navegador.',
  otherDevice: 'Pagar desde otro dispositivo',
  noAmount: 'Este pago necesita un enlace de pago del comercio.',
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
  receiptSent: (email: string) =>
    email ? `Te enviamos un recibo a ${email}.` : 'Te enviamos un recibo por correo electrónico.',
  failed: 'El pago falló.',
  failedReverted:
    'La red revirtió la transacción, así que no se transfirió ningún token; solo se cobró la comisión de red.',
  expired: 'Este pago ha caducado.',
  expiredRestart: 'Empieza de nuevo para pagar con un nuevo plazo.',
  expiredAskMerchant: 'Pide al comercio un nuevo enlace de pago.',
  startAgain: 'Empezar de nuevo',
  backToShop: 'Volver a la tienda',
  expiresIn: (time) => `Tiempo para pagar: ${time}`,
  minutesLeft: (n) => (n === 1 ? 'Queda 1 minuto para pagar' : `Quedan ${n} minutos para pagar`),
  secondsLeft: (n) => `Quedan ${n} segundos para pagar`,
  steps: ['Conectar', 'Revisar', 'Billetera', 'Enviado', 'Confirmando', 'Listo'],
  stepFailed: 'Fallido',
  stepExpired: 'Caducado',
  progress: 'Progreso',
  errors: {
    rejected: 'Rechazaste la solicitud en tu billetera. Puedes intentarlo de nuevo.',
    wrong_chain: (chain) => `Tu billetera está en otra red. Cámbiala a ${chain} e inténtalo de nuevo.`,
    insufficient: (need) => `Tu billetera no tiene saldo suficiente para pagar ${need}.`,
    fee_funds: (coin) =>
      `Tu billetera no tiene ${coin} para la comisión de red. Añade un poco de ${coin} e inténtalo de nuevo.`,
    rpc: 'Tu billetera o la red informó de un error. Revisa tu conexión e inténtalo de nuevo.',
    unknown: 'Algo salió mal. Inténtalo de nuevo.',
    expired: 'Este pago ha caducado.',
    tx_already_used: 'Esta transacción ya paga otro pedido.',
    tx_rejected: 'Esta transacción no paga este pedido.',
  },
  transaction: 'Transacción',
  copy: 'Copiar',
  copyHash: 'Copiar el hash de la transacción',
  copied: 'Hash de la transacción copiado.',
  copyFailed: 'Este navegador no permitió copiar; se muestra el hash completo.',
  viewOn: (explorer) => `Ver en ${explorer}`,
});

const pt = (): Messages => ({
  loading: 'Carregando o pagamento…',
  loadFailed: 'Não foi possível carregar este pagamento.',
  retry: 'Tentar de novo',
  testMode: 'Modo de teste',
  amountUsd: 'Valor (USD)',
  amountRequired: 'Informe um valor.',
  amountFormat: 'Use um número com no máximo 2 casas decimais, como 25,00.',
  amountPositive: 'O valor deve ser maior que 0.',
  amountMax: (max) => `O valor não pode passar de ${max}.`,
  taxIncluded: (rate, tax) => `Inclui ${rate} % de impostos: ${tax}`,
  email: 'E-mail',
  emailInvalid: 'Informe um e-mail válido.',
  fieldRequired: 'Este campo é obrigatório.',
  customField: {
    full_name: 'Nome completo',
    reference: 'Referência',
    referrer: 'Indicado por',
    company: 'Empresa',
    job_title: 'Cargo',
  },
  payWith: (wallet) => `Pagar com ${wallet}`,
  browserWallet: 'Carteira do navegador',
  noWallet: 'Nenhuma carteira encontrada neste navegador.',
  otherDevice: 'Pagar de outro dispositivo',
  noAmount: 'Este pagamento precisa de um link de pagamento do lojista.',
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
  receiptSent: (email: string) =>
    email ? `Enviamos um recibo para ${email}.` : 'Enviamos um recibo por e-mail.',
  failed: 'O pagamento falhou.',
  failedReverted:
    'A rede reverteu a transação, então nenhum token foi transferido; só a taxa de rede foi cobrada.',
  expired: 'Este pagamento expirou.',
  expiredRestart: 'Comece de novo para pagar com um novo prazo.',
  expiredAskMerchant: 'Peça ao lojista um novo link de pagamento.',
  startAgain: 'Começar de novo',
  backToShop: 'Voltar à loja',
  expiresIn: (time) => `Tempo para pagar: ${time}`,
  minutesLeft: (n) => (n === 1 ? 'Resta 1 minuto para pagar' : `Restam ${n} minutos para pagar`),
  secondsLeft: (n) => `Restam ${n} segundos para pagar`,
  steps: ['Conectar', 'Revisar', 'Carteira', 'Enviado', 'Confirmando', 'Concluído'],
  stepFailed: 'Falhou',
  stepExpired: 'Expirado',
  progress: 'Progresso',
  errors: {
    rejected: 'Você recusou o pedido na carteira. Pode tentar de novo.',
    wrong_chain: (chain) => `Sua carteira está em outra rede. Mude para ${chain} e tente de novo.`,
    insufficient: (need) => `Sua carteira não tem saldo suficiente para pagar ${need}.`,
    fee_funds: (coin) =>
      `Sua carteira não tem ${coin} para a taxa de rede. Adicione um pouco de ${coin} e tente de novo.`,
    rpc: 'Sua carteira ou a rede informou um erro. Verifique sua conexão e tente de novo.',
    unknown: 'Algo deu errado. Tente de novo.',
    expired: 'Este pagamento expirou.',
    tx_already_used: 'Esta transação já paga outro pedido.',
    tx_rejected: 'Esta transação não paga este pedido.',
  },
  transaction: 'Transação',
  copy: 'Copiar',
  copyHash: 'Copiar o hash da transação',
  copied: 'Hash da transação copiado.',
  copyFailed: 'Este navegador não permitiu copiar; o hash completo é mostrado.',
  viewOn: (explorer) => `Ver no ${explorer}`,
});

const catalogs: Record<string, () => Messages> = { en: () => en, es, pt };
const built = new Map<string, Messages>();

/** A language tag and the texts of its language. */
export interface Localized {
  locale: string;
  messages: Messages;
}

/** `tag` as Intl writes it, or undefined when Intl cannot use it (`es-x`). */
function intlLocale(tag: string): string | undefined {
  // The usual tags (`es`, `pt-BR`) are already canonical: no need to ask Intl before the first render.
  if (/^[a-z]{2,3}(-[A-Z]{2})?$/.test(tag)) return tag;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** The language tag to use: the nearest `lang`, else the browser's, reduced to a supported one. */
export function pickLocale(requested: string | undefined): Localized {
  const tag = (requested || (typeof navigator === 'undefined' ? 'en' : navigator.language) || 'en').trim();
  const base = tag.toLowerCase().split('-')[0] ?? 'en';
  const catalog = Object.hasOwn(catalogs, base) ? catalogs[base] : undefined;
  if (!catalog) return { locale: 'en', messages: en };
  let messages = built.get(base);
  if (!messages) {
    messages = catalog();
    built.set(base, messages);
  }
  return { locale: intlLocale(tag) ?? base, messages };
}
