/**
 * Uniswap-V2-style routers (Uniswap V2, PancakeSwap V2, QuickSwap) as the checkout uses them: the ABI, the
 * quote of a swap with exact output and its bounds. One home for the service and the element's wallet
 * module: only viem, nothing of the server.
 */
import { type Address, type Chain, type Client, parseAbi, type Transport } from 'viem';
import { readContract } from 'viem/actions';

/** The parts of the Uniswap V2 Router02 ABI the checkout uses. */
export const uniswapV2RouterAbi = parseAbi([
  'function factory() view returns (address)',
  'function WETH() view returns (address)',
  'function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
]);

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
