/**
 * Swaps with exact output on Uniswap-V2-style routers (Uniswap V2, PancakeSwap V2, QuickSwap): the
 * shopper pays whatever input token they hold and the merchant receives exactly the expected amount.
 */
import {
  type Account,
  type Address,
  type Chain,
  type Client,
  encodePacked,
  getCreate2Address,
  type Hash,
  type Hex,
  keccak256,
  type Transport,
} from 'viem';
import { readContract, writeContract } from 'viem/actions';

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

/** The parts of the Uniswap V2 Factory ABI the checkout uses. */
export const uniswapV2FactoryAbi = [
  {
    type: 'function',
    name: 'getPair',
    stateMutability: 'view',
    inputs: [
      { name: 'tokenA', type: 'address' },
      { name: 'tokenB', type: 'address' },
    ],
    outputs: [{ name: 'pair', type: 'address' }],
  },
] as const;

/** The parts of the Uniswap V2 Pair ABI the checkout uses: reserves and the Swap event. */
export const uniswapV2PairAbi = [
  {
    type: 'function',
    name: 'getReserves',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'reserve0', type: 'uint112' },
      { name: 'reserve1', type: 'uint112' },
      { name: 'blockTimestampLast', type: 'uint32' },
    ],
  },
  {
    type: 'event',
    name: 'Swap',
    inputs: [
      { name: 'sender', type: 'address', indexed: true },
      { name: 'amount0In', type: 'uint256', indexed: false },
      { name: 'amount1In', type: 'uint256', indexed: false },
      { name: 'amount0Out', type: 'uint256', indexed: false },
      { name: 'amount1Out', type: 'uint256', indexed: false },
      { name: 'to', type: 'address', indexed: true },
    ],
  },
] as const;

/**
 * keccak-256 of the published Uniswap V2 pair creation code; Uniswap's Router02 derives pool
 * addresses from it. Forks (PancakeSwap, QuickSwap) use their own value.
 */
export const uniswapV2InitCodeHash: Hex =
  '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f';

/** Address of the pool of two tokens, derived as the factory's CREATE2 would (no RPC call). */
export function pairAddress(
  factory: Address,
  tokenA: Address,
  tokenB: Address,
  initCodeHash: Hex = uniswapV2InitCodeHash,
): Address {
  const [token0, token1] = tokenA.toLowerCase() < tokenB.toLowerCase() ? [tokenA, tokenB] : [tokenB, tokenA];
  return getCreate2Address({
    from: factory,
    salt: keccak256(encodePacked(['address', 'address'], [token0, token1])),
    bytecodeHash: initCodeHash,
  });
}

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

/**
 * Sends `swapTokensForExactTokens` from the client's account: exactly `amountOut` of the last token
 * in `path` goes to `to` (the merchant), paying at most `amountInMax` of `path[0]`, which the
 * account must have approved to the router. The deadline defaults to 20 minutes from now.
 */
export async function swapTokensForExactTokens(
  client: Client<Transport, Chain | undefined, Account>,
  params: {
    router: Address;
    path: readonly Address[];
    amountOut: bigint;
    amountInMax: bigint;
    to: Address;
    deadline?: bigint;
  },
): Promise<Hash> {
  return writeContract(client, {
    address: params.router,
    abi: uniswapV2RouterAbi,
    functionName: 'swapTokensForExactTokens',
    args: [
      params.amountOut,
      params.amountInMax,
      params.path,
      params.to,
      params.deadline ?? deadlineIn(20 * 60),
    ],
    account: client.account,
    chain: client.chain ?? null,
  });
}
