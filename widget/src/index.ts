/** Entry of the `<crypto-checkout>` bundle: importing it registers the element. */
export {
  type CheckoutFailureDetail,
  type CheckoutPhase,
  type CheckoutSuccessDetail,
  CryptoCheckout,
} from './crypto-checkout/crypto-checkout.ts';

/** Version of the element bundle. */
export const widgetVersion = '0.1.0';
