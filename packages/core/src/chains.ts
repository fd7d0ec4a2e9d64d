/** Chains the service accepts payments on, with their stablecoin contracts. */
import { keccak256, toHex } from 'viem';

/** Blockchain names as they appear on the wire. */
export const blockchains = ['ethereum', 'binance-smart-chain', 'polygon'] as const;
export type Blockchain = (typeof blockchains)[number];

export const networks = ['mainnet', 'testnet'] as const;
type Network = (typeof networks)[number];

const tokenSymbols = ['USDC', 'DAI', 'USDT', 'BUSD'] as const;
export type TokenSymbol = (typeof tokenSymbols)[number];

/** A token contract on one chain. `address` is the checksummed contract address. */
export interface TokenInfo {
  symbol: TokenSymbol;
  name: string;
  address: `0x${string}`;
  decimals: number;
  blockchain: Blockchain;
  network: Network;
  chainId: number;
  /** USDT-style tokens whose `transfer` returns no bool. */
  noReturnTransfer?: boolean;
}

/** One chain: its id, wire name and accepted stablecoins. */
export interface ChainInfo {
  chainId: number;
  blockchain: Blockchain;
  network: Network;
  name: string;
  /** Tokens a product may ask for. */
  tokens: TokenInfo[];
  /** Tokens a shopper may pay with (the product tokens plus swap sources). */
  paymentTokens: TokenInfo[];
  /** Uniswap-V2-style router used for swaps with exact output, when the chain has one. */
  router?: `0x${string}`;
}

/** A token of a chain's table: symbol, name, contract address, decimals, and whether `transfer` returns no bool. */
type TokenRow = readonly [TokenSymbol, string, `0x${string}`, number, (boolean | undefined)?];

function token(
  chain: Pick<ChainInfo, 'chainId' | 'blockchain' | 'network'>,
  [symbol, name, address, decimals, noReturnTransfer]: TokenRow,
): TokenInfo {
  const { blockchain, network, chainId } = chain;
  return {
    symbol,
    name,
    address,
    decimals,
    blockchain,
    network,
    chainId,
    ...(noReturnTransfer ? { noReturnTransfer } : {}),
  };
}

/**
 * Mainnet stablecoin contracts (addresses exactly as published, EIP-55 checksummed) and each chain's
 * Uniswap-V2-style router: Uniswap V2 Router02, PancakeSwap V2, QuickSwap.
 */
const mainnetChains: readonly ChainInfo[] = (
  [
    {
      chainId: 1,
      blockchain: 'ethereum',
      name: 'Ethereum',
      router: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
      tokens: [
        ['USDC', 'USD Coin', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 6],
        ['USDT', 'Tether USD', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 6, true],
        ['DAI', 'Dai Stablecoin', '0x6B175474E89094C44Da98b954EedeAC495271d0F', 18],
        ['BUSD', 'Binance USD', '0x4Fabb145d64652a948d72533023f6E7A623C7C53', 18],
      ],
    },
    {
      chainId: 56,
      blockchain: 'binance-smart-chain',
      name: 'BNB Smart Chain',
      router: '0x10ED43C718714eb63d5aA57B78B54704E256024E',
      tokens: [
        ['USDC', 'USD Coin', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 18],
        ['USDT', 'Tether USD', '0x55d398326f99059fF775485246999027B3197955', 18],
        ['DAI', 'Dai Token', '0x1AF3F329e8BE154074D8769D1FFa4eE058B1DBc3', 18],
        ['BUSD', 'BUSD Token', '0xe9e7CEA3DedcA5984780Bafc599bD69ADd087D56', 18],
      ],
    },
    {
      chainId: 137,
      blockchain: 'polygon',
      name: 'Polygon',
      router: '0xa5E0829CaCEd8fFDD4De3c43696c57F7D7A678ff',
      tokens: [
        ['USDC', 'USD Coin', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 6],
        ['USDC', 'USD Coin (PoS)', '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174', 6],
        ['USDT', 'Tether USD (PoS)', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 6],
        ['DAI', 'Dai Stablecoin (PoS)', '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063', 18],
        ['BUSD', 'BUSD Token', '0xdAb529f40E671A1D4bF91361c21bf9f0C9712ab7', 18],
      ],
    },
  ] as const satisfies ReadonlyArray<
    Pick<ChainInfo, 'chainId' | 'blockchain' | 'name' | 'router'> & { tokens: readonly TokenRow[] }
  >
).map((c) => {
  const chain = { ...c, network: 'mainnet' as const };
  const tokens = c.tokens.map((row) => token(chain, row));
  return { ...chain, tokens, paymentTokens: tokens };
});

/**
 * The test networks of the three chains: chain id and name as wallets and explorers know them. Payments
 * on them are test payments (`is_test`).
 */
export const testNetworks = [
  { blockchain: 'binance-smart-chain', chainId: 97, name: 'BNB Smart Chain Testnet' },
  { blockchain: 'ethereum', chainId: 11155111, name: 'Ethereum Sepolia' },
  { blockchain: 'polygon', chainId: 80002, name: 'Polygon Amoy' },
] as const satisfies ReadonlyArray<{ blockchain: Blockchain; chainId: number; name: string }>;

/** Settings of one test network: its chain id and its designated test BUSD contract. */
export interface TestnetConfig {
  /** The chain this is the test network of; BNB Smart Chain when absent. */
  blockchain?: Blockchain;
  /** Display name; the known test network's name by default. */
  name?: string;
  chainId: number;
  testTokenAddress: `0x${string}`;
  /** Other test stablecoins a shopper may pay with through a swap. */
  swapTokens?: ReadonlyArray<
    Pick<TokenInfo, 'symbol' | 'name' | 'address' | 'decimals' | 'noReturnTransfer'>
  >;
  /** The test network's Uniswap-V2-style router. */
  router?: `0x${string}`;
}

/** The token registry: mainnet contracts plus each test network's designated test BUSD and swap tokens. */
export interface TokenRegistry {
  chains: readonly ChainInfo[];
  /** Exact, case-sensitive lookup of an accepted token contract. */
  find(blockchain: string, network: string, address: string): TokenInfo | undefined;
  /** Tokens a product may ask for on one chain. */
  tokensOf(blockchain: string, network: string): TokenInfo[];
  /** The chain with this id. */
  chainById(chainId: number): ChainInfo | undefined;
  /** A token a shopper may pay with on a chain (exact address, any letter case). */
  findPaymentToken(chainId: number, address: string): TokenInfo | undefined;
}

function testChain(testnet: TestnetConfig): ChainInfo {
  const blockchain = testnet.blockchain ?? 'binance-smart-chain';
  const known = testNetworks.find((n) => n.blockchain === blockchain);
  const chain = { chainId: testnet.chainId, blockchain, network: 'testnet' } as const;
  const testBusd = token(chain, ['BUSD', 'BUSD Token', testnet.testTokenAddress, 18]);
  const swapTokens = (testnet.swapTokens ?? []).map((t) =>
    token(chain, [t.symbol, t.name, t.address, t.decimals, t.noReturnTransfer]),
  );
  return {
    chainId: testnet.chainId,
    blockchain,
    network: 'testnet',
    name: testnet.name ?? known?.name ?? `${blockchain} testnet`,
    paymentTokens: [testBusd, ...swapTokens],
    ...(testnet.router ? { router: testnet.router } : {}),
    tokens: [testBusd],
  };
}

/** Builds the registry for a deployment: the mainnets and the given test networks (one per chain). */
export function createTokenRegistry(testnets: TestnetConfig | readonly TestnetConfig[]): TokenRegistry {
  const list: readonly TestnetConfig[] = 'chainId' in testnets ? [testnets] : testnets;
  const chains: ChainInfo[] = [...mainnetChains, ...list.map(testChain)];
  const tokensOf = (blockchain: string, network: string): TokenInfo[] =>
    chains.find((c) => c.blockchain === blockchain && c.network === network)?.tokens ?? [];
  const chainById = (chainId: number) => chains.find((c) => c.chainId === chainId);
  return {
    chains,
    tokensOf,
    chainById,
    find: (blockchain, network, address) => tokensOf(blockchain, network).find((t) => t.address === address),
    findPaymentToken: (chainId, address) =>
      chainById(chainId)?.paymentTokens.find((t) => t.address.toLowerCase() === address.toLowerCase()),
  };
}

const tokenIds = new Map<string, string>();

/**
 * Stable UUID of a token (the same on every deployment and database): a UUIDv8 built from the
 * keccak-256 of `blockchain:network:address`.
 */
export function tokenId(t: { blockchain: string; network: string; address: string }): string {
  const key = `${t.blockchain}:${t.network}:${t.address.toLowerCase()}`;
  const known = tokenIds.get(key);
  if (known) return known;
  const hex = keccak256(toHex(key)).slice(2, 34);
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  // Few distinct tokens exist, and hashing on every product of every listing is measurable.
  if (tokenIds.size < 10_000) tokenIds.set(key, id);
  return id;
}

/** True when payments in this token are test payments (`is_test`). */
export function isTestToken(t: Pick<TokenInfo, 'network'>): boolean {
  return t.network === 'testnet';
}
