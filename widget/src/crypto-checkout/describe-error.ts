/** What went wrong, in the shopper's words: an answer of the service or a wallet's failure. */
import { formatToken } from '../amount.ts';
import { CheckoutApiError, type CheckoutView } from '../api.ts';
import { chainName, nativeSymbol } from '../chains.ts';
import type { Localized, Messages } from '../i18n.ts';
import type { Holding, WalletErrorKind } from '../wallet/types.ts';

/** An error answer of the service in the shopper's words; undefined for anything else. */
export function describeApiError(error: unknown, t: Messages): string | undefined {
  if (!(error instanceof CheckoutApiError)) return undefined;
  if (error.status === 0) return t.errors.rpc;
  // The text of a failure on the service's side is not for the shopper.
  if (error.status >= 500) return t.errors.unavailable;
  if (error.code === 'checkout_expired') return t.errors.expired;
  if (error.code === 'tx_already_used') return t.errors.tx_already_used;
  if (error.code === 'tx_rejected') return t.errors.tx_rejected;
  const details = error.errors.map((e) => `${e.path} ${e.message}`).join('; ');
  return details ? `${error.message}: ${details}` : error.message;
}

/**
 * A wallet's failure in the shopper's words, naming the chain, the amount or the fee coin it is about; a
 * wallet short of funds is told what it holds of each accepted stablecoin, so the shopper knows what to top up.
 */
export function describeWalletError(
  kind: WalletErrorKind,
  view: Pick<CheckoutView, 'blockchain' | 'network' | 'chain_id' | 'token'> | undefined,
  amount: string | null,
  holdings: Holding[],
  { locale, messages: t }: Localized,
): string {
  switch (kind) {
    case 'rejected':
      return t.errors.rejected;
    case 'wrong_chain':
      return t.errors.wrong_chain(view ? chainName(view) : '');
    case 'insufficient': {
      const need = t.errors.insufficient(
        view && amount ? formatToken(amount, view.token.symbol, locale) : '',
      );
      const held = holdings.map((h) => formatToken(h.balance, h.symbol, locale, 'down'));
      return held.length ? `${need} ${t.errors.holds(new Intl.ListFormat(locale).format(held))}` : need;
    }
    case 'fee_funds':
      return t.errors.fee_funds(view ? nativeSymbol(view) : '');
    case 'rpc':
      return t.errors.rpc;
    default:
      return t.errors.unknown;
  }
}
