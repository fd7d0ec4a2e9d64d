/**
 * Uniswap-V2-style routers (Uniswap V2, PancakeSwap V2, QuickSwap) as the checkout uses them: the ABI, the
 * quote of a swap with exact output and its bounds. One home for the service and the element's wallet
 * module: only viem, nothing of the server.
 */
import type { Address, Chain, Client, Transport } from 'viem';
import { readContract } from 'viem/actions';

/** The parts of the Uniswap V2 Router02 ABI the checkout uses. */
export const uniswapV2RouterAbi = [
  {
    type: 'function',
    name: 'factory',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'WETH',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
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
    name: 'getAmountsOut',
    stateMutability: 'view',
    inputs: [
      { name: 'amountIn', type: 'uint256' },
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
  {
    type: 'function',
    name: 'addLiquidity',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'tokenA', type: 'address' },
      { name: 'tokenB', type: 'address' },
      { name: 'amountADesired', type: 'uint256' },
      { name: 'amountBDesired', type: 'uint256' },
      { name: 'amountAMin', type: 'uint256' },
      { name: 'amountBMin', type: 'uint256' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [
      { name: 'amountA', type: 'uint256' },
      { name: 'amountB', type: 'uint256' },
      { name: 'liquidity', type: 'uint256' },
    ],
  },
] as const;

/** What a swap with exact output costs: `amountIn` of `path[0]`, and the amount at every hop. */
export interface ExactOutputQuote {
  amountIn: bigint;
  amounts: readonly bigint[];
}

/** Quotes the input needed so that exactly `amountOut` of the last token in `path` comes out. */
export async function quoteExactOutput(params: {
  client: Client<Transport, Chain | undefined>;
  router: Address;
  path: readonly Address[];
  amountOut: bigint;
}): Promise<ExactOutputQuote> {
  if (params.path.length < 2) throw new RangeError('a swap path needs at least two tokens');
  if (params.amountOut <= 0n) throw new RangeError('amountOut must be positive');
  const amounts = await readContract(params.client, {
    address: params.router,
    abi: uniswapV2RouterAbi,
    functionName: 'getAmountsIn',
    args: [params.amountOut, params.path],
  });
  const amountIn = amounts[0];
  if (amountIn === undefined) throw new Error('router returned no amounts');
  return { amountIn, amounts };
}

const bpsDenominator = 10_000n;

/**
 * Raises `amount` by `bps` basis points (50 = 0.5 %), rounding up so the bound is never below the
 * requested tolerance: the `amountInMax` to send with a quote.
 */
export function withSlippage(amount: bigint, bps: number | bigint): bigint {
  const points = BigInt(bps);
  if (typeof bps === 'number' && !Number.isInteger(bps)) throw new RangeError('bps must be an integer');
  if (points < 0n || points > bpsDenominator) throw new RangeError('bps must be between 0 and 10000');
  if (amount < 0n) throw new RangeError('amount must not be negative');
  const scaled = amount * (bpsDenominator + points);
  return (scaled + bpsDenominator - 1n) / bpsDenominator;
}

/** Unix time `seconds` from now, as a router `deadline`. */
export function deadlineIn(seconds: number, now: Date = new Date()): bigint {
  return BigInt(Math.floor(now.getTime() / 1000) + seconds);
}
