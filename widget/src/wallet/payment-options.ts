/** The ways a wallet can pay an exact amount: each accepted stablecoin it holds, direct or through a swap. */

import { quoteExactOutput, withSlippage } from '@checkout/core/uniswapV2Router';
import { type Config, getClient, readContract } from '@wagmi/core';
import { type Address, type Chain, erc20Abi, formatUnits, getAddress, parseUnits } from 'viem';
import type { Holding, PaymentPlan, PaymentTarget } from './types.ts';

/** 0.5 % slippage ceiling on a swap's spend. */
const slippageBps = 50n;

/** A connected wallet on the product's chain. */
export interface WalletContext {
  config: Config;
  chain: Chain;
  address: Address;
  view: PaymentTarget;
}

/** What the wallet holds of `token`, in base units. */
export function balanceOf({ config, chain, address }: WalletContext, token: Address): Promise<bigint> {
  return readContract(config, {
    chainId: chain.id,
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });
}

/** The ways to pay, and what the wallet holds of each accepted stablecoin (the product token first). */
export interface PaymentOptions {
  options: PaymentPlan[];
  holdings: Holding[];
}

/**
 * Every accepted token the wallet holds, read in parallel: the product token as a direct payment, and
 * (for `swappable` products) each other stablecoin with the router's quote for the exact amount.
 */
export async function paymentOptions(ctx: WalletContext, amount: string): Promise<PaymentOptions> {
  const { view } = ctx;
  const productToken = getAddress(view.token.address);
  const amountOut = parseUnits(amount, view.token.decimal_count);
  const router = view.swappable && view.router_address ? getAddress(view.router_address) : undefined;
  const holdings: Holding[] = [];
  const held = async (token: PaymentTarget['token'], index: number) => {
    const balance = await balanceOf(ctx, getAddress(token.address));
    holdings[index] = { symbol: token.symbol, balance: formatUnits(balance, token.decimal_count) };
    return balance;
  };
  const direct = async (): Promise<PaymentPlan> => {
    const balance = await held(view.token, 0);
    return {
      kind: 'direct',
      payToken: view.token,
      amount,
      needsApproval: false,
      balance: formatUnits(balance, view.token.decimal_count),
      covers: balance >= amountOut,
    };
  };
  const swap = async (token: PaymentTarget['token'], index: number): Promise<PaymentPlan | undefined> => {
    const tokenIn = getAddress(token.address);
    if (tokenIn === productToken) return undefined;
    const balance = await held(token, index + 1);
    if (!router || balance === 0n) return undefined;
    const client = getClient(ctx.config, { chainId: ctx.chain.id });
    const [quote, allowance] = await Promise.all([
      client
        ? quoteExactOutput({ client, router, path: [tokenIn, productToken], amountOut }).catch(
            () => undefined,
          )
        : undefined,
      readContract(ctx.config, {
        chainId: ctx.chain.id,
        address: tokenIn,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [ctx.address, router],
      }),
    ]);
    // No pool, or one too shallow for the amount: this token cannot pay.
    if (!quote) return undefined;
    const max = withSlippage(quote.amountIn, slippageBps);
    return {
      kind: 'swap',
      payToken: token,
      amount,
      spend: formatUnits(quote.amountIn, token.decimal_count),
      spendMax: formatUnits(max, token.decimal_count),
      needsApproval: allowance < max,
      balance: formatUnits(balance, token.decimal_count),
      covers: balance >= max,
    };
  };
  const found = await Promise.all([direct(), ...view.payment_tokens.map(swap)]);
  return {
    options: found.filter(
      (o): o is PaymentPlan => o !== undefined && (o.kind === 'swap' || o.balance !== '0'),
    ),
    holdings: holdings.filter((h) => h !== undefined),
  };
}
