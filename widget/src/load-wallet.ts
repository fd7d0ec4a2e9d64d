/**
 * Loads the modules a payment needs on demand — the wallet module, or the payment request (QR code) for
 * paying from another device: lazy chunks for the ES build, files beside it for the classic script.
 */
import type * as PaymentRequestModule from './payment-request/payment-request.ts';
import type { WalletModule } from './wallet/types.ts';

export type { PaymentRequestModule };

declare const __WIDGET_IIFE__: boolean;
/** Hashed file name of the wallet module, beside the classic script (set by the classic build). */
declare const __WIDGET_WALLET_FILE__: string;
/** Hashed file name of the payment request module, beside the classic script (set by the classic build). */
declare const __WIDGET_QR_FILE__: string;

// Captured while the classic script runs: `currentScript` is null once it has finished.
const scriptUrl =
  typeof document !== 'undefined' && document.currentScript instanceof HTMLScriptElement
    ? document.currentScript.src
    : '';

const classic = <T>(file: string): Promise<T> =>
  import(/* @vite-ignore */ new URL(file, scriptUrl || window.location.href).href);

/** The wallet module, fetched the first time a shopper starts paying. */
export function loadWalletModule(): Promise<WalletModule> {
  if (typeof __WIDGET_IIFE__ !== 'undefined' && __WIDGET_IIFE__) return classic(__WIDGET_WALLET_FILE__);
  return import('./wallet/wallet-flow.ts');
}

/** The payment request module, fetched the first time a shopper pays from another device. */
export function loadPaymentRequestModule(): Promise<typeof PaymentRequestModule> {
  if (typeof __WIDGET_IIFE__ !== 'undefined' && __WIDGET_IIFE__) return classic(__WIDGET_QR_FILE__);
  return import('./payment-request/payment-request.ts');
}
