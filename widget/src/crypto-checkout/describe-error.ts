/** What went wrong, in the shopper's words: an answer of the service or a wallet's failure. */
import { formatToken } from '../amount.ts';
import type { CheckoutApiError, CheckoutView } from '../api.ts';
import { chainName, nativeSymbol } from '../chains.ts';
import type { PaymentLocalized, PaymentMessages } from '../i18n/payment.ts';
import type { Holding, WalletErrorKind } from '../wallet/types.ts';

/**
 * Whether `error` is an answer of the service: told by its name, as this file is also loaded beside the
 * classic script, whose `CheckoutApiError` is its own copy.
 */
export const isApiError = (error: unknown): error is CheckoutApiError =>
  error instanceof Error && error.name === 'CheckoutApiError';

/** An error answer of the service in the shopper's words; undefined for anything else. */
export function describeApiError(error: unknown, t: PaymentMessages): string | undefined {
  if (!isApiError(error)) return undefined;
  if (error.status === 0) return t.errors.rpc;
  // The text of a failure on the service's side is not for the shopper.
  if (error.status >= 500) return t.errors.unavailable;
  // Refusals with words of their own: an expired checkout, and a hash that cannot pay it.
  if (/^(checkout_expired|tx_already_used|tx_rejected|tx_not_for_session)$/.test(error.code))
    return t.errors[error.code as 'tx_rejected'];
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
  { locale, messages: t }: PaymentLocalized,
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
