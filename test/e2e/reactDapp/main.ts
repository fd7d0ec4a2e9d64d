/// <reference lib="dom" />
/**
 * A React dapp with its own wagmi config: it connects the shopper's wallet itself, then embeds
 * `<CryptoCheckout>`, which pays through that shared config. The page passes the checkout and chain in
 * its query string (`slug`, `expected_payment`, `api`, `rpc`).
 */
import { CryptoCheckout } from '@checkout/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { defineChain } from 'viem';
import { createConfig, http, useConnect, useConnection, WagmiProvider } from 'wagmi';

const query = new URLSearchParams(window.location.search);
const rpc = query.get('rpc') ?? '';
const devChain = defineChain({
  id: 97,
  name: 'BNB Smart Chain Testnet',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: { default: { http: [rpc] } },
  testnet: true,
});
// EIP-6963 discovery (wagmi's default) finds the shopper's wallets as connectors.
const config = createConfig({ chains: [devChain], transports: { [devChain.id]: http(rpc) }, storage: null });
const queryClient = new QueryClient();

function Dapp() {
  const { connect, connectors } = useConnect();
  const connection = useConnection();
  const [paid, setPaid] = useState<string | null>(null);
  return h(
    'main',
    null,
    h('h1', null, 'Coffee dapp'),
    connection.status === 'connected'
      ? h('p', null, `Connected: ${connection.address}`)
      : connectors.map((connector) =>
          h(
            'button',
            { key: connector.uid, type: 'button', onClick: () => connect({ connector }) },
            `Connect ${connector.name}`,
          ),
        ),
    paid
      ? h('p', { role: 'status' }, `Paid in the dapp: ${paid}`)
      : h(CryptoCheckout, {
          slug: query.get('slug') ?? '',
          expectedPayment: query.get('expected_payment') ?? '',
          apiBase: query.get('api') ?? '',
          onSuccess: (event) => {
            // The dapp stays on its page and shows its own confirmation.
            event.preventDefault();
            setPaid(event.detail.txHash);
          },
        }),
  );
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    h(WagmiProvider, { config }, h(QueryClientProvider, { client: queryClient }, h(Dapp))),
  );
