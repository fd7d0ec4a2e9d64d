/**
 * The test networks: BNB Smart Chain's always (the spec's designated test BUSD), Ethereum's and Polygon's
 * when their RPC URL is set, each with its test token, router and the stablecoins a shopper may swap from.
 */
import { devDeployment } from '@checkout/chain';
import { EvmAddress, type TestnetConfig } from '@checkout/core';
import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import { ConfigError, optional } from './shared.ts';

export const testnetsEnv = {
  TESTNET_CHAIN_ID: z.coerce.number().int().positive().default(97),
  TEST_TOKEN_ADDRESS: EvmAddress.default('0x5FbDB2315678afecb367f032d93F642f64180aa3').transform((a) =>
    getAddress(a),
  ),
  TESTNET_ROUTER_ADDRESS: optional(EvmAddress),
  TESTNET_SWAP_TOKENS: optional(z.string()),
  CHAIN_ID_ETHEREUM_TESTNET: z.coerce.number().int().positive().default(11155111),
  CHAIN_ID_POLYGON_TESTNET: z.coerce.number().int().positive().default(80002),
  TEST_TOKEN_ADDRESS_ETHEREUM_TESTNET: optional(EvmAddress),
  TEST_TOKEN_ADDRESS_POLYGON_TESTNET: optional(EvmAddress),
  ROUTER_ADDRESS_ETHEREUM_TESTNET: optional(EvmAddress),
  ROUTER_ADDRESS_POLYGON_TESTNET: optional(EvmAddress),
  SWAP_TOKENS_ETHEREUM_TESTNET: optional(z.string()),
  SWAP_TOKENS_POLYGON_TESTNET: optional(z.string()),
};
type TestnetsEnv = z.infer<z.ZodObject<typeof testnetsEnv>> & {
  RPC_URL_ETHEREUM_TESTNET?: readonly string[] | undefined;
  RPC_URL_POLYGON_TESTNET?: readonly string[] | undefined;
};

/** A test stablecoin a shopper may swap from on the test network. */
type SwapToken = {
  symbol: 'USDC' | 'DAI' | 'USDT' | 'BUSD';
  name: string;
  address: `0x${string}`;
  decimals: number;
  noReturnTransfer?: boolean;
};

/**
 * The test networks. Each defaults to the contracts the local dev chain deploys, which are the same on
 * every chain id; the Ethereum and Polygon settings default to BNB Smart Chain's.
 */
export function testnetsOf(c: TestnetsEnv): TestnetConfig[] {
  const bsc: TestnetConfig = {
    blockchain: 'binance-smart-chain',
    chainId: c.TESTNET_CHAIN_ID,
    testTokenAddress: c.TEST_TOKEN_ADDRESS as `0x${string}`,
    // Default: the router the local dev chain deploys, like TEST_TOKEN_ADDRESS's default.
    router: getAddress(c.TESTNET_ROUTER_ADDRESS ?? devDeployment(c.TESTNET_CHAIN_ID).router),
    swapTokens: parseSwapTokens(c.TESTNET_SWAP_TOKENS, 'TESTNET_SWAP_TOKENS'),
  };
  const others = (
    [
      ['ethereum', 'ETHEREUM', c.RPC_URL_ETHEREUM_TESTNET, c.CHAIN_ID_ETHEREUM_TESTNET],
      ['polygon', 'POLYGON', c.RPC_URL_POLYGON_TESTNET, c.CHAIN_ID_POLYGON_TESTNET],
    ] as const
  ).flatMap(([blockchain, key, rpcUrl, chainId]): TestnetConfig[] => {
    if (!rpcUrl) return [];
    const token = c[`TEST_TOKEN_ADDRESS_${key}_TESTNET`];
    const router = c[`ROUTER_ADDRESS_${key}_TESTNET`];
    const swaps = c[`SWAP_TOKENS_${key}_TESTNET`];
    return [
      {
        blockchain,
        chainId,
        testTokenAddress: token ? getAddress(token) : bsc.testTokenAddress,
        ...(router || bsc.router ? { router: getAddress(router ?? bsc.router!) } : {}),
        swapTokens:
          swaps !== undefined ? parseSwapTokens(swaps, `SWAP_TOKENS_${key}_TESTNET`) : bsc.swapTokens!,
      },
    ];
  });
  const all = [bsc, ...others];
  const ids = [1, 56, 137, ...all.map((t) => t.chainId)];
  const clash = ids.find((id, i) => ids.indexOf(id) !== i);
  if (clash !== undefined) {
    throw new ConfigError(`chain id ${clash} is given to two chains; each needs its own`);
  }
  return all;
}

/**
 * `TESTNET_SWAP_TOKENS` (or a test network's `SWAP_TOKENS_*`): comma-separated
 * `SYMBOL:address:decimals[:noreturn]`; by default the USDC, DAI and USDT that the local dev chain deploys.
 */
function parseSwapTokens(value: string | undefined, name: string): SwapToken[] {
  if (value === undefined) {
    const dev = devDeployment(97).tokens;
    return (['USDC', 'DAI', 'USDT'] as const).map((symbol) => ({
      symbol,
      name: dev[symbol].name,
      address: dev[symbol].address,
      decimals: dev[symbol].decimals,
      ...(dev[symbol].noReturnTransfer ? { noReturnTransfer: true } : {}),
    }));
  }
  return value
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const [symbol, address, decimals, flag] = part.trim().split(':');
      if (
        !symbol ||
        !['USDC', 'DAI', 'USDT', 'BUSD'].includes(symbol) ||
        !address ||
        !isAddress(address) ||
        !/^\d+$/.test(decimals ?? '')
      ) {
        throw new ConfigError(`${name}: "${part}" is not SYMBOL:address:decimals[:noreturn]`);
      }
      return {
        symbol: symbol as SwapToken['symbol'],
        name: `Test ${symbol}`,
        address: getAddress(address),
        decimals: Number(decimals),
        ...(flag === 'noreturn' ? { noReturnTransfer: true } : {}),
      };
    });
}
