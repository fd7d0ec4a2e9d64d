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
  parseAbi,
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
export const uniswapV2FactoryAbi = parseAbi([
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
]);

/** The parts of the Uniswap V2 Pair ABI the checkout uses: reserves and the Swap event. */
export const uniswapV2PairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
]);

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
    /** Bytes appended to the call (a checkout session's reference): the router ignores them. */
    dataSuffix?: Hex;
  },
): Promise<Hash> {
  return writeContract(client, {
    ...(params.dataSuffix ? { dataSuffix: params.dataSuffix } : {}),
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
