/**
 * Signing in with the browser's wallet (loaded with `import()` only when the merchant presses the button):
 * wagmi's injected connector connects it (`window.ethereum`, or one announced by EIP-6963), viem's
 * `createSiweMessage` writes the EIP-4361 message for this origin (the service's PUBLIC_BASE_URL) with the
 * service's nonce, and the wallet signs it.
 */
import { connect, createConfig, disconnect, http, injected, signMessage } from '@wagmi/core';
import { mainnet } from 'viem/chains';
import { createSiweMessage } from 'viem/siwe';

/** No wallet is installed in this browser. */
export class NoWalletError extends Error {}

type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown> };

/**
 * The browser's wallet: `window.ethereum`, else the first that announces itself (EIP-6963) within half a
 * second of being asked.
 */
function discover(): Promise<Provider | undefined> {
  const injectedProvider = (window as { ethereum?: Provider }).ethereum;
  if (injectedProvider) return Promise.resolve(injectedProvider);
  return new Promise((resolve) => {
    const announced = (event: Event) => {
      window.removeEventListener('eip6963:announceProvider', announced);
      resolve((event as CustomEvent<{ provider: Provider }>).detail.provider);
    };
    window.addEventListener('eip6963:announceProvider', announced);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    setTimeout(() => {
      window.removeEventListener('eip6963:announceProvider', announced);
      resolve(undefined);
    }, 500);
  });
}

/** Connects the browser's wallet and has it sign the sign-in message carrying `nonce`. */
export async function signInMessage(
  nonce: () => Promise<string>,
  statement: string,
): Promise<{ message: string; signature: string }> {
  const provider = await discover();
  if (!provider) throw new NoWalletError('no wallet in this browser');
  const config = createConfig({
    chains: [mainnet],
    connectors: [injected({ target: { id: 'wallet', name: 'Wallet', provider: () => provider as never } })],
    // Only signing: nothing is read from a chain, so no RPC endpoint is ever called.
    multiInjectedProviderDiscovery: false,
    storage: null,
    transports: { [mainnet.id]: http('/') },
  });
  const connected = await connect(config, { connector: config.connectors[0]! });
  const address = connected.accounts[0];
  if (!address) throw new Error('the wallet returned no account');
  try {
    const message = createSiweMessage({
      address,
      chainId: connected.chainId,
      domain: location.host,
      uri: location.origin,
      version: '1',
      nonce: await nonce(),
      statement,
      issuedAt: new Date(),
    });
    const signature = await signMessage(config, { account: address, message });
    return { message, signature };
  } finally {
    await disconnect(config).catch(() => {});
  }
}
