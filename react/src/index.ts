/** React wrapper of `<crypto-checkout>` that hands the dapp's wagmi config to the element. */
import '@checkout/widget';
import type {
  CryptoCheckout as CheckoutElement,
  CheckoutFailureDetail,
  CheckoutSuccessDetail,
} from '@checkout/widget';
import { createElement, type ReactElement, useContext, useEffect, useRef } from 'react';
import { WagmiContext } from 'wagmi';

export type { CheckoutFailureDetail, CheckoutSuccessDetail };

/** Props of `<CryptoCheckout>`; the handlers may call `event.preventDefault()` to stay on the page. */
export interface CryptoCheckoutProps {
  slug: string;
  expectedPayment?: string;
  apiBase?: string;
  theme?: 'auto' | 'light' | 'dark';
  /** The shopper's e-mail, pre-filled in the form (they can still change it). */
  email?: string;
  /**
   * Seconds the outcome stays on screen ("Taking you back to …") before `success_url` or `failure_url`
   * opens; 0 opens it at once. The element's default is 3.
   */
  redirectDelay?: number;
  className?: string;
  onSuccess?: (event: CustomEvent<CheckoutSuccessDetail>) => void;
  onFailure?: (event: CustomEvent<CheckoutFailureDetail>) => void;
}

/** The checkout element; inside a `WagmiProvider` it pays through the dapp's own wagmi config. */
export function CryptoCheckout(props: CryptoCheckoutProps): ReactElement {
  const ref = useRef<CheckoutElement>(null);
  // The context, not useConfig(): outside a WagmiProvider the element uses its own config instead of throwing.
  const config = useContext(WagmiContext);
  const { onSuccess, onFailure } = props;

  useEffect(() => {
    if (ref.current) ref.current.wagmiConfig = config as CheckoutElement['wagmiConfig'];
  }, [config]);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const success = (event: CustomEvent<CheckoutSuccessDetail>) => onSuccess?.(event);
    const failure = (event: CustomEvent<CheckoutFailureDetail>) => onFailure?.(event);
    element.addEventListener('checkout-success', success);
    element.addEventListener('checkout-failure', failure);
    return () => {
      element.removeEventListener('checkout-success', success);
      element.removeEventListener('checkout-failure', failure);
    };
  }, [onSuccess, onFailure]);

  return createElement('crypto-checkout', {
    ref,
    slug: props.slug,
    'expected-payment': props.expectedPayment,
    'api-base': props.apiBase,
    theme: props.theme,
    email: props.email,
    'redirect-delay': props.redirectDelay,
    class: props.className,
  });
}
