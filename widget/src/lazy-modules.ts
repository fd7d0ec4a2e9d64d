/**
 * Loads what the first render does not need, on demand — the texts of the page's language, the payment
 * once it starts, the wallet module, the payment request (QR code) for paying from another device: lazy
 * chunks for the ES build, files beside it for the classic script.
 */
import type * as PaymentModule from './crypto-checkout/checkout-payment.ts';
import { type Lang, loadedMessages, type Messages } from './i18n.ts';
import type * as PaymentRequestModule from './payment-request/payment-request.ts';
import type { WalletModule } from './wallet/types.ts';

export type { PaymentModule, PaymentRequestModule };

declare const __WIDGET_IIFE__: boolean;
/** Hashed file names beside the classic script (set by the classic build): payment, wallet, QR, texts. */
declare const __WIDGET_FILES__: {
  payment: string;
  wallet: string;
  qr: string;
  en: string;
  es: string;
  pt: string;
};

// Captured while the classic script runs: `currentScript` is null once it has finished.
const scriptUrl =
  typeof document !== 'undefined' && document.currentScript instanceof HTMLScriptElement
    ? document.currentScript.src
    : '';

const classic = typeof __WIDGET_IIFE__ !== 'undefined' && __WIDGET_IIFE__;
const load = <T>(file: keyof typeof __WIDGET_FILES__): Promise<T> =>
  import(/* @vite-ignore */ new URL(__WIDGET_FILES__[file], scriptUrl || window.location.href).href);

/** The checkout's payment (its session, events, countdown, review and outcome), fetched when it starts. */
export function loadPaymentModule(): Promise<typeof PaymentModule> {
  return classic ? load('payment') : import('./crypto-checkout/checkout-payment.ts');
}

/** The wallet module, fetched the first time a shopper starts paying. */
export function loadWalletModule(): Promise<WalletModule> {
  return classic ? load('wallet') : import('./wallet/wallet-flow.ts');
}

/** The payment request module, fetched the first time a shopper pays from another device. */
export function loadPaymentRequestModule(): Promise<typeof PaymentRequestModule> {
  return classic ? load('qr') : import('./payment-request/payment-request.ts');
}

/**
 * The texts of `lang`, fetched the first time a page uses it; English when Spanish or Portuguese cannot be
 * fetched. Fails only when English cannot be fetched either.
 */
export async function loadMessages(lang: Lang): Promise<Messages> {
  const known = loadedMessages.get(lang);
  if (known) return known;
  const module: Promise<{ messages: Messages }> = classic
    ? load(lang)
    : lang === 'es'
      ? import('./i18n/es.ts')
      : lang === 'pt'
        ? import('./i18n/pt.ts')
        : import('./i18n/en.ts');
  try {
    const { messages } = await module;
    loadedMessages.set(lang, messages);
    return messages;
  } catch (error) {
    if (lang === 'en') throw error;
    return loadMessages('en');
  }
}
