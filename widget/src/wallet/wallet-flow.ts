/** Wallet and chain work of a payment: loaded with `import()` only when the shopper starts paying. */
import { type Config, connect, createConfig, getBalance, getConnection, http, injected } from '@wagmi/core';
import { type Address, type Chain, custom, formatUnits, getAddress, parseUnits } from 'viem';
import { chainOf, ensureChain } from './chain.ts';
import { InsufficientBalanceError, NoFeeFundsError } from './errors.ts';
import { balanceOf, paymentOptions, type WalletContext } from './payment-options.ts';
import { sendPayment } from './send-payment.ts';
import type { ChainTarget, PaymentPlan, WalletFlow, WalletFlowOptions } from './types.ts';

export { classifyWalletError } from './errors.ts';

/**
 * A wagmi config for the target's chain (a dapp's own when it knows the chain) and the wallet connected
 * to it; the wallet stays on whatever chain it is on.
 */
async function connected(
  options: Pick<WalletFlowOptions, 'wallet' | 'config'> & { view: ChainTarget },
): Promise<{ config: Config; chain: Chain; address: Address }> {
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

  const current = getConnection(config);
  if (shared && current.status === 'connected' && current.address)
    return { config, chain, address: current.address };
  const result = await connect(config, {
    connector: injected({
      target: { id: wallet.id, name: wallet.name || 'Injected', provider: () => wallet.provider as never },
    }),
  });
  const first = result.accounts[0];
  if (!first) throw new Error('The wallet returned no account');
  return { config, chain, address: first };
}

/** Connects the chosen wallet, moves it to the product's chain and returns the payment operations. */
export async function startWalletFlow(options: WalletFlowOptions): Promise<WalletFlow> {
  const { view } = options;
  const { config, chain, address } = await connected(options);
  await ensureChain(config, chain);
  const ctx: WalletContext = { config, chain, address, view };

  /** A wallet without any of the chain's coin cannot pay a fee: say so before it is asked to sign. */
  const ensureFeeFunds = async () => {
    const { value } = await getBalance(config, { chainId: chain.id, address });
    if (value === 0n) throw new NoFeeFundsError(`no ${chain.nativeCurrency.symbol} for the network fee`);
  };

  return {
    address,
    async options(amount: string): Promise<PaymentPlan[]> {
      const { options, holdings } = await paymentOptions(ctx, amount);
      if (!options.some((o) => o.covers))
        throw new InsufficientBalanceError(`balance below ${amount} ${view.token.symbol}`, holdings);
      await ensureFeeFunds();
      return options;
    },

    async pay(reviewed, order, onStep): Promise<string> {
      await ensureChain(config, chain);
      const amount = order.expected_token_amount;
      let plan = reviewed;
      // A swap buys the order's exact amount: quoted again when the session holds another than the review's.
      if (plan.kind === 'swap' && amount !== plan.amount) {
        const { options } = await paymentOptions(ctx, amount);
        plan = options.find((o) => o.payToken.address === reviewed.payToken.address) ?? plan;
      }
      // The balance may have moved since the plan: a transfer it cannot cover would only revert on chain.
      const needed =
        plan.kind === 'direct'
          ? parseUnits(amount, view.token.decimal_count)
          : parseUnits(plan.spendMax ?? amount, plan.payToken.decimal_count);
      if ((await balanceOf(ctx, getAddress(plan.payToken.address))) < needed) {
        // Spent elsewhere since the review: say what the wallet holds now.
        const { holdings } = await paymentOptions(ctx, amount);
        throw new InsufficientBalanceError(
          `balance below ${formatUnits(needed, plan.payToken.decimal_count)}`,
          holdings,
        );
      }
      await ensureFeeFunds();
      return sendPayment(ctx, plan, order, onStep);
    },
  };
}
