/** Wallet and chain work of a payment: loaded with `import()` only when the shopper starts paying. */
import {
  type Config,
  connect,
  createConfig,
  getBalance,
  getConnection,
  http,
  injected,
  readContract,
  switchChain,
  waitForTransactionReceipt,
  writeContract,
} from '@wagmi/core';
import { type Address, type Chain, custom, defineChain, formatUnits, getAddress, parseUnits } from 'viem';
import type { CheckoutView } from '../api.ts';
import { chainName, nativeSymbol } from '../chains.ts';
import type { PaymentPlan, WalletErrorKind, WalletFlow, WalletFlowOptions } from './types.ts';

/** Reads: the standard ERC-20 view functions. */
const erc20ReadAbi = [
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'allowance',
    stateMutability: 'view',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
    ],
    outputs: [{ type: 'uint256' }],
  },
] as const;

/** Writes without a declared return value: USDT-style tokens return nothing, so nothing is decoded. */
const erc20WriteAbi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
] as const;

const routerAbi = [
  {
    type: 'function',
    name: 'getAmountsIn',
    stateMutability: 'view',
    inputs: [
      { name: 'amountOut', type: 'uint256' },
      { name: 'path', type: 'address[]' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
  {
    type: 'function',
    name: 'swapTokensForExactTokens',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'amountOut', type: 'uint256' },
      { name: 'amountInMax', type: 'uint256' },
      { name: 'path', type: 'address[]' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amounts', type: 'uint256[]' }],
  },
] as const;

/** 0.5 % slippage ceiling on a swap's spend. */
const slippageBps = 50n;
/** A swap not mined within 20 minutes is void rather than executed at a stale price. */
const swapDeadlineSeconds = 20n * 60n;

/** The product's chain as viem describes it, with the view's RPC URL for reads and for wallets that add it. */
function chainOf(view: CheckoutView): Chain {
  const symbol = nativeSymbol(view);
  return defineChain({
    id: view.chain_id,
    name: chainName(view),
    nativeCurrency: { name: symbol, symbol, decimals: 18 },
    rpcUrls: { default: { http: view.rpc_url ? [view.rpc_url] : [] } },
    testnet: view.is_test,
  });
}

/** Wrong-network failures the wallet reports while switching or sending. */
class WrongChainError extends Error {
  override name = 'WrongChainError';
}

/** Not enough of any accepted token to pay. */
class InsufficientBalanceError extends Error {
  override name = 'InsufficientBalanceError';
}

/** None of the chain's own coin to pay the network fee with. */
class NoFeeFundsError extends Error {
  override name = 'NoFeeFundsError';
}

/** Connects the chosen wallet, moves it to the product's chain and returns the payment operations. */
export async function startWalletFlow(options: WalletFlowOptions): Promise<WalletFlow> {
  const { view, wallet } = options;
  const chain = chainOf(view);
  const shared = options.config?.chains.some((c) => c.id === chain.id) ? options.config : undefined;
  const config: Config =
    shared ??
    createConfig({
      chains: [chain],
      connectors: [],
      // Wallets are discovered by the element itself; wagmi need not listen again.
      multiInjectedProviderDiscovery: false,
      storage: null,
      transports: {
        [chain.id]: view.rpc_url
          ? http(view.rpc_url)
          : custom(wallet.provider as Parameters<typeof custom>[0]),
      },
    });

  let address: Address;
  const current = getConnection(config);
  if (shared && current.status === 'connected' && current.address) {
    address = current.address;
  } else {
    const connected = await connect(config, {
      connector: injected({
        target: { id: wallet.id, name: wallet.name || 'Injected', provider: () => wallet.provider as never },
      }),
    });
    const first = connected.accounts[0];
    if (!first) throw new Error('The wallet returned no account');
    address = first;
  }

  /**
   * Asks the wallet to move to the product's chain when it is elsewhere; a wallet that does not know the
   * chain (4902) is asked to add it, with the view's public RPC URL. Any failure, a refusal included,
   * leaves the wallet on the wrong network.
   */
  const ensureChain = async () => {
    if (getConnection(config).chainId === chain.id) return;
    try {
      await switchChain(config, { chainId: chain.id });
    } catch (error) {
      throw new WrongChainError((error as Error).message, { cause: error });
    }
    const now = getConnection(config).chainId;
    if (now !== undefined && now !== chain.id) throw new WrongChainError(`wallet on chain ${now}`);
  };
  await ensureChain();

  const receiving = getAddress(view.receiving_address);
  const productToken = getAddress(view.token.address);

  const balanceOf = (token: Address) =>
    readContract(config, {
      chainId: chain.id,
      address: token,
      abi: erc20ReadAbi,
      functionName: 'balanceOf',
      args: [address],
    });

  /** A wallet without any of the chain's coin cannot pay a fee: say so before it is asked to sign. */
  const ensureFeeFunds = async () => {
    const { value } = await getBalance(config, { chainId: chain.id, address });
    if (value === 0n) throw new NoFeeFundsError(`no ${chain.nativeCurrency.symbol} for the network fee`);
  };

  return {
    address,
    async options(amount: string): Promise<PaymentPlan[]> {
      const options = await paymentOptions(amount);
      if (!options.some((o) => o.covers))
        throw new InsufficientBalanceError(`balance below ${amount} ${view.token.symbol}`);
      await ensureFeeFunds();
      return options;
    },

    async pay(plan, onStep): Promise<string> {
      await ensureChain();
      // The balance may have moved since the plan: a transfer it cannot cover would only revert on chain.
      const spent = getAddress(plan.payToken.address);
      const needed =
        plan.kind === 'direct'
          ? parseUnits(plan.amount, view.token.decimal_count)
          : parseUnits(plan.spendMax ?? plan.amount, plan.payToken.decimal_count);
      if ((await balanceOf(spent)) < needed)
        throw new InsufficientBalanceError(
          `balance below ${formatUnits(needed, plan.payToken.decimal_count)}`,
        );
      await ensureFeeFunds();
      return send(plan, onStep);
    },
  };

  /**
   * Every accepted token the wallet holds, read in parallel: the product token as a direct payment, and
   * (for `swappable` products) each other stablecoin with the router's quote for the exact amount.
   */
  async function paymentOptions(amount: string): Promise<PaymentPlan[]> {
    const amountOut = parseUnits(amount, view.token.decimal_count);
    const router = view.swappable && view.router_address ? getAddress(view.router_address) : undefined;
    const direct = async (): Promise<PaymentPlan | undefined> => {
      const balance = await balanceOf(productToken);
      return {
        kind: 'direct',
        payToken: view.token,
        amount,
        needsApproval: false,
        balance: formatUnits(balance, view.token.decimal_count),
        covers: balance >= amountOut,
      };
    };
    const swap = async (token: CheckoutView['token']): Promise<PaymentPlan | undefined> => {
      const tokenIn = getAddress(token.address);
      if (!router || tokenIn === productToken) return undefined;
      const balance = await balanceOf(tokenIn);
      if (balance === 0n) return undefined;
      const [amounts, allowance] = await Promise.all([
        readContract(config, {
          chainId: chain.id,
          address: router,
          abi: routerAbi,
          functionName: 'getAmountsIn',
          args: [amountOut, [tokenIn, productToken]],
        }).catch(() => undefined),
        readContract(config, {
          chainId: chain.id,
          address: tokenIn,
          abi: erc20ReadAbi,
          functionName: 'allowance',
          args: [address, router],
        }),
      ]);
      // No pool, or one too shallow for the amount: this token cannot pay.
      const amountIn = amounts?.[0];
      if (amountIn === undefined) return undefined;
      const max = (amountIn * (10_000n + slippageBps) + 9_999n) / 10_000n;
      return {
        kind: 'swap',
        payToken: token,
        amount,
        spend: formatUnits(amountIn, token.decimal_count),
        spendMax: formatUnits(max, token.decimal_count),
        needsApproval: allowance < max,
        balance: formatUnits(balance, token.decimal_count),
        covers: balance >= max,
      };
    };
    const found = await Promise.all([direct(), ...view.payment_tokens.map(swap)]);
    return found.filter((o): o is PaymentPlan => o !== undefined && (o.kind === 'swap' || o.balance !== '0'));
  }

  /** Asks the wallet to sign and send the payment (after an approval for a swap that needs one). */
  async function send(plan: PaymentPlan, onStep: (step: 'approve' | 'pay') => void): Promise<string> {
    if (plan.kind === 'direct') {
      onStep('pay');
      return writeContract(config, {
        chainId: chain.id,
        account: address,
        address: productToken,
        abi: erc20WriteAbi,
        functionName: 'transfer',
        args: [receiving, parseUnits(plan.amount, view.token.decimal_count)],
      });
    }
    if (!view.router_address || !plan.spendMax) throw new Error('swap without a router');
    const router = getAddress(view.router_address);
    const tokenIn = getAddress(plan.payToken.address);
    const max = parseUnits(plan.spendMax, plan.payToken.decimal_count);
    if (plan.needsApproval) {
      onStep('approve');
      const approval = await writeContract(config, {
        chainId: chain.id,
        account: address,
        address: tokenIn,
        abi: erc20WriteAbi,
        functionName: 'approve',
        args: [router, max],
      });
      const receipt = await waitForTransactionReceipt(config, { chainId: chain.id, hash: approval });
      if (receipt.status !== 'success') throw new Error('The approval was reverted');
      plan.needsApproval = false;
    }
    onStep('pay');
    return writeContract(config, {
      chainId: chain.id,
      account: address,
      address: router,
      abi: routerAbi,
      functionName: 'swapTokensForExactTokens',
      args: [
        parseUnits(plan.amount, view.token.decimal_count),
        max,
        [tokenIn, productToken],
        receiving,
        BigInt(Math.floor(Date.now() / 1000)) + swapDeadlineSeconds,
      ],
    });
  }
}

/** Sorts a wallet or RPC failure into what the shopper can do about it. */
export function classifyWalletError(error: unknown): WalletErrorKind {
  const seen = new Set<unknown>();
  for (let e = error as { name?: string; code?: number; cause?: unknown } | undefined; e && !seen.has(e); ) {
    seen.add(e);
    if (e.code === 4001 || e.name === 'UserRejectedRequestError') return 'rejected';
    if (e.name === 'InsufficientBalanceError') return 'insufficient';
    // viem's InsufficientFundsError is about the chain's coin: the fee (or value) exceeds it.
    if (e.name === 'NoFeeFundsError' || e.name === 'InsufficientFundsError') return 'fee_funds';
    if (
      e.name === 'WrongChainError' ||
      e.name === 'ChainMismatchError' ||
      e.name === 'ConnectorChainMismatchError' ||
      e.name === 'SwitchChainNotSupportedError' ||
      e.code === 4902
    )
      return 'wrong_chain';
    if (
      e.name === 'HttpRequestError' ||
      e.name === 'TimeoutError' ||
      e.name === 'RpcRequestError' ||
      e.name === 'WebSocketRequestError' ||
      e.code === -32603 ||
      e.code === -32005
    )
      return 'rpc';
    e = e.cause as typeof e;
  }
  return 'unknown';
}
