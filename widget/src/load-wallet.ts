/** Loads the wallet module on demand: a lazy chunk for the ES build, a second file for the classic script. */
import type { WalletModule } from './wallet/types.ts';

declare const __WIDGET_IIFE__: boolean;
/** Hashed file name of the wallet module, beside the classic script (set by the classic build). */
declare const __WIDGET_WALLET_FILE__: string;

// Captured while the classic script runs: `currentScript` is null once it has finished.
const scriptUrl =
  typeof document !== 'undefined' && document.currentScript instanceof HTMLScriptElement
    ? document.currentScript.src
    : '';

/** The wallet module, fetched the first time a shopper starts paying. */
export function loadWalletModule(): Promise<WalletModule> {
  if (typeof __WIDGET_IIFE__ !== 'undefined' && __WIDGET_IIFE__) {
    return import(/* @vite-ignore */ new URL(__WIDGET_WALLET_FILE__, scriptUrl || window.location.href).href);
  }
  return import('./wallet/wallet-flow.ts');
}
