/// <reference lib="dom" />
/** An injected EIP-1193 wallet for the browser, announced through EIP-6963 and backed by a dev-chain key. */
import type { Page } from 'playwright-core';
import { createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** Controls and records of one page's wallet. */
export interface TestWallet {
  address: string;
  /** Methods the page called, in order. */
  calls: string[];
  /** Makes the next `count` transaction requests fail as if the shopper pressed "Reject". */
  rejectNext(count?: number): void;
}

interface RpcRequest {
  method: string;
  params?: unknown[];
}

const icon =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"%3E%3Crect width="24" height="24" rx="6" fill="%23325"/%3E%3C/svg%3E';

/** Installs the wallet in `page` (before any page script runs) for the shopper `privateKey` on `rpcUrl`. */
export async function installTestWallet(
  page: Page,
  options: { privateKey: Hex; rpcUrl: string; chainId: number },
): Promise<TestWallet> {
  const account = privateKeyToAccount(options.privateKey);
  const client = createWalletClient({ account, transport: http(options.rpcUrl) });
  const calls: string[] = [];
  let rejections = 0;
  const chainHex = `0x${options.chainId.toString(16)}`;

  const forward = async (request: RpcRequest) => {
    const response = await fetch(options.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: request.method, params: request.params ?? [] }),
    });
    return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
  };

  const handle = async (
    request: RpcRequest,
  ): Promise<{ result?: unknown; error?: { code: number; message: string } }> => {
    switch (request.method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [account.address] };
      case 'wallet_requestPermissions':
      case 'wallet_getPermissions':
        return { result: [{ parentCapability: 'eth_accounts' }] };
      case 'eth_chainId':
        return { result: chainHex };
      case 'net_version':
        return { result: String(options.chainId) };
      case 'wallet_switchEthereumChain':
      case 'wallet_addEthereumChain':
        return { result: null };
      case 'eth_sendTransaction': {
        if (rejections > 0) {
          rejections--;
          return { error: { code: 4001, message: 'User rejected the request.' } };
        }
        const tx = (request.params?.[0] ?? {}) as { to?: Hex; data?: Hex; value?: Hex; gas?: Hex };
        if (!tx.to) return { error: { code: -32602, message: 'missing to' } };
        const hash = await client.sendTransaction({
          chain: null,
          to: tx.to,
          ...(tx.data ? { data: tx.data } : {}),
          ...(tx.value ? { value: BigInt(tx.value) } : {}),
          ...(tx.gas ? { gas: BigInt(tx.gas) } : {}),
        });
        return { result: hash };
      }
      default:
        return forward(request);
    }
  };

  await page.exposeFunction('__testWalletRpc', async (json: string) => {
    const request = JSON.parse(json) as RpcRequest;
    calls.push(request.method);
    try {
      return JSON.stringify(await handle(request));
    } catch (error) {
      return JSON.stringify({ error: { code: -32603, message: (error as Error).message } });
    }
  });
  await page.addInitScript(
    ({ icon }) => {
      type Listener = (...args: unknown[]) => void;
      const listeners = new Map<string, Set<Listener>>();
      const rpc = (window as unknown as { __testWalletRpc(json: string): Promise<string> }).__testWalletRpc;
      const provider = {
        async request(args: { method: string; params?: unknown[] }) {
          const answer = JSON.parse(await rpc(JSON.stringify(args))) as {
            result?: unknown;
            error?: { code: number; message: string };
          };
          if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
          return answer.result;
        },
        on(event: string, listener: Listener) {
          if (!listeners.has(event)) listeners.set(event, new Set());
          listeners.get(event)?.add(listener);
        },
        removeListener(event: string, listener: Listener) {
          listeners.get(event)?.delete(listener);
        },
      };
      const detail = Object.freeze({
        info: {
          uuid: '6f1d9c1e-3f1c-4e43-9a43-6f0f7d0c1a01',
          name: 'Test Wallet',
          icon,
          rdns: 'dev.checkout.testwallet',
        },
        provider,
      });
      const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
      window.addEventListener('eip6963:requestProvider', announce);
      announce();
    },
    { icon },
  );
  return {
    address: account.address,
    calls,
    rejectNext(count = 1) {
      rejections += count;
    },
  };
}
