/** Entry of the `<crypto-checkout>` element bundle; the element itself registers from here. */
export const widgetVersion = '0.1.0';
