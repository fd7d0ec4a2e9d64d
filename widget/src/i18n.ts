/** Texts of the element: English here; Spanish and Portuguese in files of their own (`i18n/`), fetched when used. */

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
  inactive: 'This checkout is not active: nothing can be paid here.',
  linkInvalid:
    'This payment link is not valid. Check the link you were given, or ask the merchant for a new one.',
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
    holds: (list: string) => `It holds ${list}.`,
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

/** A language the element speaks. */
export type Lang = 'en' | 'es' | 'pt';

/** "Loading…" of each language: the first render comes before the language's texts are fetched. */
const loadingTexts: Record<Lang, string> = {
  en: en.loading,
  es: 'Cargando el pago…',
  pt: 'Carregando o pagamento…',
};

/** The first render's text in `lang`. */
export function loadingText(lang: Lang): string {
  return loadingTexts[lang];
}

const loaded = new Map<Lang, Messages>([['en', en]]);

/** The texts of `lang` once fetched (English always is). */
export function messagesOf(lang: Lang): Messages | undefined {
  return loaded.get(lang);
}

/** Keeps the texts of `lang` that `load` fetched (English when the fetch failed). */
export function keepMessages(lang: Lang, messages: Messages): Messages {
  loaded.set(lang, messages);
  return messages;
}

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
export function pickLocale(requested: string | undefined): { locale: string; lang: Lang } {
  const tag = (requested || (typeof navigator === 'undefined' ? 'en' : navigator.language) || 'en').trim();
  const base = tag.toLowerCase().split('-')[0] ?? 'en';
  if (base !== 'en' && base !== 'es' && base !== 'pt') return { locale: 'en', lang: 'en' };
  return { locale: intlLocale(tag) ?? base, lang: base };
}
