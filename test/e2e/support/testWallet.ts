/// <reference lib="dom" />
/**
 * An injected EIP-1193 wallet for the browser, backed by a dev-chain key: announced through EIP-6963
 * and/or installed as `window.ethereum` (before the page loads, or later on demand), on a chosen network,
 * with scripted refusals and failures; also a wallet that loses a call's data suffix, and a smart account
 * whose relayer executes the shopper's transfer.
 */
import { uniswapV2RouterAbi } from '@checkout/core/uniswapV2Router';
import type { Page } from 'playwright-core';
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  type Hash,
  type Hex,
  http,
  keccak256,
  toFunctionSelector,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** An EIP-1193 error as the wallet answers it. */
interface WalletError {
  code: number;
  message: string;
}

/** One request the page made, with its parameters. */
interface WalletRequest {
  method: string;
  params: unknown[];
}

/** Controls and records of one page's wallet. */
export interface TestWallet {
  address: string;
  /** Methods the page called, in order. */
  calls: string[];
  /** Requests the page made, with their parameters, in order. */
  requests: WalletRequest[];
  /** Hashes of the transactions the wallet answered the page, in order (a relayer's for a relayed transfer). */
  sent: Hash[];
  /** The chain id the wallet is on now. */
  readonly chainId: number;
  /** Makes the next `count` transaction requests fail as if the shopper pressed "Reject". */
  rejectNext(count?: number): void;
  /** Makes the next request for `method` fail with `error` (before anything is signed or sent). */
  failNext(method: string, error: WalletError): void;
  /**
   * Sends the next transaction with a gas limit too small for the call, as a wallet whose gas limit was
   * lowered by hand: it is mined and reverts (out of gas).
   */
  revertNext(): void;
  /** Moves the wallet to another chain on its own, as a shopper doing it in the wallet (emits `chainChanged`). */
  switchTo(chainId: number): Promise<void>;
  /**
   * Installs the provider as `window.ethereum` now, in the open page, as a wallet that loads after the page
   * did; then dispatches `ethereum#initialized` on `window` (as MetaMask does) unless `initializedEvent` is false.
   */
  installWindowEthereum(options?: { initializedEvent?: boolean }): Promise<void>;
}

/** How the wallet is set up. */
export interface TestWalletOptions {
  privateKey: Hex;
  /** The dev chain's RPC URL: where the wallet reads and broadcasts. */
  rpcUrl: string;
  /** The dev chain's id (where transactions can be sent). */
  chainId: number;
  /** The chain the wallet is on when the page opens (defaults to `chainId`). */
  startChainId?: number;
  /**
   * Chains the wallet knows; switching to another is answered with 4902 until `wallet_addEthereumChain`
   * adds it. Defaults to `chainId` and `startChainId`.
   */
  knownChains?: number[];
  /**
   * Whether `wallet_addEthereumChain` also moves the wallet to the chain it added (default true, as most
   * wallets do); when false the wallet adds the chain and stays where it is.
   */
  switchOnAdd?: boolean;
  /** Announce through EIP-6963 (default true). */
  announce?: boolean;
  /** Also install the provider as `window.ethereum` before the page loads (default false). */
  injectWindowEthereum?: boolean;
  /**
   * Encode every known call (ERC-20, the swap router) again from its ABI before signing, as a wallet that
   * shows and re-builds the call: whatever followed its arguments (a data suffix, a session's reference)
   * is lost.
   */
  stripDataSuffix?: boolean;
  /**
   * A smart account's emulation: a token `transfer(to, amount)` the page asks for is executed by this
   * relayer account (which needs the chain's coin for fees) — the shopper approves it for the amount, then
   * the relayer calls `transferFrom(shopper, to, amount)` with whatever followed the transfer's arguments
   * appended — and the page is answered the relayer's transaction. Other calls are the shopper's own.
   */
  relayerKey?: Hex;
}

interface RpcAnswer {
  result?: unknown;
  error?: WalletError;
  /** Provider events to emit in the page after answering, e.g. `['chainChanged', '0x61']`. */
  events?: Array<[string, unknown]>;
}

const icon =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"%3E%3Crect width="24" height="24" rx="6" fill="%23325"/%3E%3C/svg%3E';

const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * The least gas limit a transaction with `data` is accepted with — its intrinsic cost (16 per non-zero and
 * 4 per zero byte of data), or the calldata floor when that is higher (10 per token, a non-zero byte
 * counting 4) — plus 2,000: the call starts, then runs out of gas.
 */
function barelyEnoughGas(data: Hex | undefined): bigint {
  const bytes = (data ?? '0x').slice(2).match(/../g) ?? [];
  const zero = bytes.filter((b) => b === '00').length;
  const nonZero = bytes.length - zero;
  return BigInt(21_000 + Math.max(16 * nonZero + 4 * zero, 10 * (zero + 4 * nonZero)) + 2_000);
}

/** The calls the suffix-dropping wallet knows how to build again. */
const knownCalls = [...erc20Abi, ...uniswapV2RouterAbi] as Abi;
const transferSelector = toFunctionSelector('transfer(address,uint256)');

/** `data` encoded again from its ABI: without what followed the arguments; unknown calls stay as they are. */
function withoutSuffix(data: Hex): Hex {
  try {
    const call = decodeFunctionData({ abi: knownCalls, data });
    return encodeFunctionData({ abi: knownCalls, functionName: call.functionName, args: call.args });
  } catch {
    return data;
  }
}

/** Installs the wallet in `page` (before any page script runs) for the shopper `privateKey` on `rpcUrl`. */
export async function installTestWallet(page: Page, options: TestWalletOptions): Promise<TestWallet> {
  const account = privateKeyToAccount(options.privateKey);
  const client = createWalletClient({ account, transport: http(options.rpcUrl) });
  const reader = createPublicClient({ transport: http(options.rpcUrl), pollingInterval: 100 });
  const relayer = options.relayerKey
    ? createWalletClient({
        account: privateKeyToAccount(options.relayerKey),
        transport: http(options.rpcUrl),
      })
    : undefined;
  const calls: string[] = [];
  const requests: WalletRequest[] = [];
  const sent: Hash[] = [];
  const failures = new Map<string, WalletError[]>();
  let reverts = 0;
  let authorized = false;
  let current = options.startChainId ?? options.chainId;
  const known = new Set(options.knownChains ?? [options.chainId, current]);

  const forward = async (request: WalletRequest): Promise<RpcAnswer> => {
    const response = await fetch(options.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: request.method, params: request.params }),
    });
    return (await response.json()) as RpcAnswer;
  };

  const switchChain = (chainId: number): RpcAnswer => {
    if (!known.has(chainId))
      return { error: { code: 4902, message: `Unrecognized chain ID ${hex(chainId)}.` } };
    if (chainId === current) return { result: null };
    current = chainId;
    return { result: null, events: [['chainChanged', hex(chainId)]] };
  };

  /** Signs and broadcasts; a transaction the node mines as reverted still yields its hash. */
  const send = async (tx: { to: Hex; data?: Hex; value?: Hex; gas?: Hex }): Promise<Hash> => {
    const revert = reverts > 0;
    if (revert) reverts--;
    const request = await client.prepareTransactionRequest({
      chain: null,
      to: tx.to,
      ...(tx.data ? { data: tx.data } : {}),
      ...(tx.value ? { value: BigInt(tx.value) } : {}),
      // Out of gas a little after the intrinsic cost: the call starts, then reverts.
      ...(revert ? { gas: barelyEnoughGas(tx.data) } : tx.gas ? { gas: BigInt(tx.gas) } : {}),
    });
    const serialized = await client.signTransaction({ ...request, chain: null } as never);
    const hash = keccak256(serialized);
    try {
      await reader.sendRawTransaction({ serializedTransaction: serialized });
    } catch (error) {
      // The dev node answers a reverted transaction with an error, yet mines it.
      const mined = await reader.getTransaction({ hash }).then(
        () => true,
        () => false,
      );
      if (!mined) throw error;
    }
    return hash;
  };

  /**
   * The smart account's way with a transfer: the shopper approves the relayer, which moves the tokens with
   * `transferFrom` and the transfer's suffix; resolves to the relayer's transaction.
   */
  const relay = async (token: Hex, data: Hex, wallet: NonNullable<typeof relayer>): Promise<Hash> => {
    const { args } = decodeFunctionData({ abi: erc20Abi, data });
    const [to, amount] = args as readonly [Address, bigint];
    const suffix = data.slice(2 + 8 + 128);
    const approval = await send({
      to: token,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [wallet.account.address, amount],
      }),
    });
    await reader.waitForTransactionReceipt({ hash: approval });
    const call = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transferFrom',
      args: [account.address, to, amount],
    });
    return wallet.sendTransaction({ chain: null, to: token, data: `${call}${suffix}` });
  };

  const handle = async (request: WalletRequest): Promise<RpcAnswer> => {
    const failure = failures.get(request.method)?.shift();
    if (failure) return { error: failure };
    switch (request.method) {
      // Like real wallets, the account is shown to the page only once the page asked for it.
      case 'eth_requestAccounts':
        authorized = true;
        return { result: [account.address] };
      case 'eth_accounts':
        return { result: authorized ? [account.address] : [] };
      case 'wallet_requestPermissions':
        authorized = true;
        return { result: [{ parentCapability: 'eth_accounts' }] };
      case 'wallet_getPermissions':
        return { result: authorized ? [{ parentCapability: 'eth_accounts' }] : [] };
      case 'eth_chainId':
        return { result: hex(current) };
      case 'net_version':
        return { result: String(current) };
      case 'wallet_switchEthereumChain': {
        const { chainId } = (request.params[0] ?? {}) as { chainId?: string };
        return switchChain(Number(chainId));
      }
      case 'wallet_addEthereumChain': {
        // Like common wallets: adding a chain also moves the wallet to it (unless told otherwise).
        const { chainId } = (request.params[0] ?? {}) as { chainId?: string };
        known.add(Number(chainId));
        return options.switchOnAdd === false ? { result: null } : switchChain(Number(chainId));
      }
      // EIP-191 signing, as a Sign-In with Ethereum message asks: the page gives the message's bytes in hex.
      case 'personal_sign': {
        const [message, address] = request.params as [Hex, string];
        if (!authorized || address?.toLowerCase() !== account.address.toLowerCase())
          return { error: { code: 4100, message: 'The requested account has not been authorized.' } };
        return { result: await account.signMessage({ message: { raw: message } }) };
      }
      case 'eth_sendTransaction': {
        const tx = (request.params[0] ?? {}) as { to?: Hex; data?: Hex; value?: Hex; gas?: Hex };
        if (!tx.to) return { error: { code: -32602, message: 'missing to' } };
        if (current !== options.chainId)
          return { error: { code: -32603, message: `This account has no funds on chain ${current}.` } };
        const data = tx.data && options.stripDataSuffix ? withoutSuffix(tx.data) : tx.data;
        const hash =
          relayer && data?.startsWith(transferSelector)
            ? await relay(tx.to, data, relayer)
            : await send({ ...tx, to: tx.to, ...(data ? { data } : {}) });
        sent.push(hash);
        return { result: hash };
      }
      default:
        return forward(request);
    }
  };

  await page.exposeFunction('__testWalletRpc', async (json: string) => {
    const parsed = JSON.parse(json) as { method: string; params?: unknown[] };
    const request = { method: parsed.method, params: parsed.params ?? [] };
    calls.push(request.method);
    requests.push(request);
    try {
      return JSON.stringify(await handle(request));
    } catch (error) {
      return JSON.stringify({ error: { code: -32603, message: (error as Error).message } });
    }
  });
  await page.addInitScript(
    ({ icon, announce, injectWindowEthereum }) => {
      type Listener = (...args: unknown[]) => void;
      const listeners = new Map<string, Set<Listener>>();
      const w = window as unknown as {
        __testWalletRpc(json: string): Promise<string>;
        __testWalletEmit?: (event: string, value: unknown) => void;
        __testWalletProvider?: unknown;
        ethereum?: unknown;
      };
      const emit = (event: string, value: unknown) => {
        for (const listener of [...(listeners.get(event) ?? [])]) listener(value);
      };
      w.__testWalletEmit = emit;
      const provider = {
        async request(args: { method: string; params?: unknown[] }) {
          const answer = JSON.parse(await w.__testWalletRpc(JSON.stringify(args))) as {
            result?: unknown;
            error?: { code: number; message: string };
            events?: Array<[string, unknown]>;
          };
          for (const [event, value] of answer.events ?? []) setTimeout(() => emit(event, value), 0);
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
      w.__testWalletProvider = provider;
      if (injectWindowEthereum) w.ethereum = provider;
      if (!announce) return;
      const detail = Object.freeze({
        info: {
          uuid: '6f1d9c1e-3f1c-4e43-9a43-6f0f7d0c1a01',
          name: 'Test Wallet',
          icon,
          rdns: 'dev.checkout.testwallet',
        },
        provider,
      });
      const announceProvider = () =>
        window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
      window.addEventListener('eip6963:requestProvider', announceProvider);
      announceProvider();
    },
    {
      icon,
      announce: options.announce ?? true,
      injectWindowEthereum: options.injectWindowEthereum ?? false,
    },
  );
  const failNext = (method: string, error: WalletError) => {
    failures.set(method, [...(failures.get(method) ?? []), error]);
  };
  return {
    address: account.address,
    calls,
    requests,
    sent,
    get chainId() {
      return current;
    },
    rejectNext(count = 1) {
      for (let i = 0; i < count; i++)
        failNext('eth_sendTransaction', { code: 4001, message: 'User rejected the request.' });
    },
    failNext,
    revertNext() {
      reverts++;
    },
    async installWindowEthereum({ initializedEvent = true } = {}) {
      await page.evaluate((dispatch) => {
        const w = window as unknown as { __testWalletProvider: unknown; ethereum?: unknown };
        w.ethereum = w.__testWalletProvider;
        if (dispatch) window.dispatchEvent(new Event('ethereum#initialized'));
      }, initializedEvent);
    },
    async switchTo(chainId) {
      known.add(chainId);
      current = chainId;
      await page.evaluate(
        (value) =>
          (window as unknown as { __testWalletEmit(e: string, v: unknown): void }).__testWalletEmit(
            'chainChanged',
            value,
          ),
        hex(chainId),
      );
    },
  };
}
