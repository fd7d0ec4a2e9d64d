/**
 * Swaps with exact output on Uniswap-V2-style routers (Uniswap V2, PancakeSwap V2, QuickSwap): the
 * shopper pays whatever input token they hold and the merchant receives exactly the expected amount.
 */
import { deadlineIn, uniswapV2RouterAbi } from '@checkout/core/uniswapV2Router';
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
import { writeContract } from 'viem/actions';

export {
  deadlineIn,
  type ExactOutputQuote,
  quoteExactOutput,
  uniswapV2RouterAbi,
  withSlippage,
} from '@checkout/core/uniswapV2Router';

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
