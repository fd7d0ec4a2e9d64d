// @vitest-environment happy-dom
import type { CryptoCheckout as CheckoutElement } from '@checkout/widget';
import { act, createElement, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { defineChain } from 'viem';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConfig, http, WagmiProvider } from 'wagmi';
import { type CheckoutFailureDetail, type CheckoutSuccessDetail, CryptoCheckout } from './index.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const apiBase = 'http://shop.test';
const expectedPayment = '4b1f9a3e-52a4-4b0c-8f0e-1a1b2c3d4e5f';

const devChain = defineChain({
  id: 97,
  name: 'BNB Smart Chain Testnet',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
});
const config = createConfig({ chains: [devChain], transports: { [devChain.id]: http() }, storage: null });

describe('<CryptoCheckout> for React', () => {
  let container: HTMLDivElement;
  let root: Root;

  let requested: string[];

  beforeEach(() => {
    // The checkout API answers 404: these tests are about the wrapper, not the element's flow.
    requested = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL) => {
        requested.push(String(input));
        return new Response(JSON.stringify({ error_code: 'not_found', message: 'Not found', errors: [] }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    vi.unstubAllGlobals();
  });

  const render = (element: ReactElement) =>
    act(async () => {
      root.render(element);
    });
  const checkout = () => {
    const el = container.querySelector('crypto-checkout');
    if (!el) throw new Error('no <crypto-checkout> rendered');
    return el as CheckoutElement;
  };
  const emit = <T>(type: string, detail: T) => {
    const event = new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable: true });
    // On the host, where the element itself dispatches its outcome.
    const notCancelled = checkout().dispatchEvent(event);
    return { event, notCancelled };
  };

  it('renders the registered element with its attributes and hands it the WagmiProvider config', async () => {
    await render(
      createElement(
        WagmiProvider,
        { config },
        createElement(CryptoCheckout, {
          slug: 'espresso',
          expectedPayment,
          apiBase,
          theme: 'dark',
          email: 'ada@example.com',
          redirectDelay: 0,
          className: 'shop-checkout',
        }),
      ),
    );
    const el = checkout();
    expect(customElements.get('crypto-checkout')).toBeDefined();
    expect(el).toBeInstanceOf(customElements.get('crypto-checkout')!);
    expect(el.getAttribute('slug')).toBe('espresso');
    expect(el.getAttribute('expected-payment')).toBe(expectedPayment);
    expect(el.getAttribute('api-base')).toBe(apiBase);
    expect(el.getAttribute('theme')).toBe('dark');
    expect(el.getAttribute('class')).toBe('shop-checkout');
    expect(el.email).toBe('ada@example.com');
    expect(el.getAttribute('redirect-delay')).toBe('0');
    expect(el.redirectDelay).toBe(0);
    expect(el.expectedPayment).toBe(expectedPayment);
    expect(el.apiBase).toBe(apiBase);
    expect(el.wagmiConfig).toBe(config);
    await act(() => el.updateComplete);
    // The element asked for its checkout with the wrapper's attributes (then, told no such payment, for the product's).
    expect(requested[0]).toBe(`${apiBase}/api/v1/checkout/espresso?expected_payment=${expectedPayment}`);
  });

  it('leaves the element to its own wallet setup outside a WagmiProvider', async () => {
    await render(createElement(CryptoCheckout, { slug: 'espresso', apiBase }));
    const el = checkout();
    expect(el.wagmiConfig).toBeUndefined();
    expect(el.hasAttribute('expected-payment')).toBe(false);
    expect(el.getAttribute('theme') ?? 'auto').toBe('auto');
    expect(el.redirectDelay).toBe(3);
  });

  it('forwards checkout-success and checkout-failure to the handlers, which can cancel the redirect', async () => {
    const onSuccess = vi.fn((event: CustomEvent<CheckoutSuccessDetail>) => event.preventDefault());
    const onFailure = vi.fn((_event: CustomEvent<CheckoutFailureDetail>) => {});
    await render(createElement(CryptoCheckout, { slug: 'espresso', apiBase, onSuccess, onFailure }));

    const success: CheckoutSuccessDetail = { resolvedPaymentId: 'rp_1', txHash: '0xabc', sessionId: 's_1' };
    const sent = emit('checkout-success', success);
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(onSuccess.mock.calls[0]![0]).toBe(sent.event);
    expect(onSuccess.mock.calls[0]![0].detail).toEqual(success);
    expect(sent.notCancelled).toBe(false);

    const failure: CheckoutFailureDetail = {
      reason: 'failed',
      sessionId: 's_1',
      error: null,
      txHash: '0xdef',
      resolvedPaymentId: 'rp_2',
    };
    const failed = emit('checkout-failure', failure);
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(onFailure.mock.calls[0]![0].detail).toEqual(failure);
    expect(failed.notCancelled).toBe(true);
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('follows new props and handlers without stacking listeners, and stops listening when unmounted', async () => {
    const first = vi.fn();
    const second = vi.fn();
    await render(createElement(CryptoCheckout, { slug: 'espresso', apiBase, onSuccess: first }));
    const el = checkout();
    await render(
      createElement(CryptoCheckout, { slug: 'filter', apiBase, theme: 'light', onSuccess: second }),
    );
    expect(checkout()).toBe(el);
    expect(el.getAttribute('slug')).toBe('filter');
    expect(el.getAttribute('theme')).toBe('light');
    emit('checkout-success', { resolvedPaymentId: 'rp', txHash: '0x1', sessionId: 's' });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);

    await act(async () => {
      root.unmount();
    });
    root = createRoot(container);
    el.dispatchEvent(new CustomEvent('checkout-success', { detail: {}, bubbles: true, composed: true }));
    expect(second).toHaveBeenCalledTimes(1);
  });
});
