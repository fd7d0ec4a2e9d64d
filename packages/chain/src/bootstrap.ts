/**
 * Puts the checkout's world on a fresh dev chain: stablecoins (the test BUSD first, so it lands at the
 * service's default test token address), Uniswap V2 with deep 1:1 pools, and funded shopper wallets.
 */
import type { TokenSymbol } from '@checkout/core';
import {
  type Account,
  type Address,
  type Chain,
  type Client,
  createClient,
  getContractAddress,
  type Hash,
  type Hex,
  http,
  maxUint256,
  type Transport,
  zeroAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  deployContract,
  getChainId,
  getCode,
  getTransactionCount,
  readContract,
  waitForTransactionReceipt,
  writeContract,
} from 'viem/actions';
import { type DevContractName, loadArtifact } from './artifacts.ts';
import { defineDevChain } from './devChain.ts';
import { devTokenMintAbi, erc20Abi, erc20NoReturnAbi } from './erc20.ts';
import { pairAddress, uniswapV2FactoryAbi, uniswapV2RouterAbi } from './swap.ts';

/** A Hardhat default account: publicly known keys, for local chains only. */
export interface DevAccount {
  address: Address;
  privateKey: Hex;
}

/** Hardhat's default accounts #0..#9 (mnemonic `test test … junk`), each holding 10,000 ETH on a dev chain. */
export const devAccounts: readonly DevAccount[] = [
  {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  },
  {
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  },
  {
    address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    privateKey: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  },
  {
    address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
    privateKey: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  },
  {
    address: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
    privateKey: '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  },
  {
    address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    privateKey: '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  },
  {
    address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    privateKey: '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  },
  {
    address: '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
    privateKey: '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  },
  {
    address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    privateKey: '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
  },
];

/** Account #0 deploys everything and owns the tokens' mint; it keeps the undeployed supply as a treasury. */
export const devDeployer: DevAccount = devAccounts[0]!;

/** Accounts #1..#5: shoppers holding `devShopperBalance` of every dev token. */
export const devShoppers: readonly DevAccount[] = devAccounts.slice(1, 6);

/** The test BUSD: the deployer's first contract (nonce 0), the service's default TEST_TOKEN_ADDRESS. */
export const devTestTokenAddress: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

/** Whole tokens on each side of every pool: deep enough that checkout-sized swaps barely move the price. */
export const devPoolDepth = 1_000_000n;

/** Whole tokens of every dev token each shopper starts with. */
export const devShopperBalance = 10_000n;

/** Whole tokens of every dev token minted to the deployer before pools are seeded. */
export const devTreasurySupply = 10_000_000n;

/** A stablecoin on the dev chain. */
export interface DevToken {
  symbol: TokenSymbol;
  name: string;
  address: Address;
  decimals: number;
  /** USDT-style: `transfer`/`transferFrom`/`approve` return nothing. */
  noReturnTransfer?: true;
}

/** The four pools, named `A/B` after their tokens. */
export const devPools = [
  ['BUSD', 'USDC'],
  ['BUSD', 'DAI'],
  ['BUSD', 'USDT'],
  ['USDC', 'DAI'],
] as const satisfies readonly (readonly [TokenSymbol, TokenSymbol])[];

/** Name of a dev pool, e.g. `BUSD/DAI`. */
export type DevPoolName = `${(typeof devPools)[number][0]}/${(typeof devPools)[number][1]}`;

/** Everything a bootstrapped dev chain holds. */
export interface DevDeployment {
  chainId: number;
  tokens: Readonly<Record<TokenSymbol, DevToken>>;
  weth: Address;
  factory: Address;
  router: Address;
  /** The deposit forwarders' factory (`DepositForwarderFactory`). */
  depositFactory: Address;
  pairs: Readonly<Record<DevPoolName, Address>>;
  deployer: DevAccount;
  shoppers: readonly DevAccount[];
}

interface TokenSpec {
  symbol: TokenSymbol;
  name: string;
  decimals: number;
  contract: Extract<DevContractName, 'TestToken' | 'NoReturnToken'>;
}

// Deployment order is the deployer's nonce order, which fixes every address below.
const tokenSpecs: readonly TokenSpec[] = [
  { symbol: 'BUSD', name: 'BUSD Token', decimals: 18, contract: 'TestToken' },
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, contract: 'TestToken' },
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, contract: 'TestToken' },
  { symbol: 'USDT', name: 'Tether USD', decimals: 6, contract: 'NoReturnToken' },
];
const wethNonce = 4;
const factoryNonce = 5;
const routerNonce = 6;
const depositFactoryNonce = 7;

const receiptTimeoutMs = 30_000;
const receiptPollMs = 20;

function deployedAt(nonce: number): Address {
  return getContractAddress({ from: devDeployer.address, nonce: BigInt(nonce) });
}

/** The addresses a bootstrap produces on any chain id (they depend only on the deployer's nonces). */
export function devDeployment(chainId: number): DevDeployment {
  const tokens = Object.fromEntries(
    tokenSpecs.map((spec, nonce): [TokenSymbol, DevToken] => [
      spec.symbol,
      {
        symbol: spec.symbol,
        name: spec.name,
        address: deployedAt(nonce),
        decimals: spec.decimals,
        ...(spec.contract === 'NoReturnToken' ? { noReturnTransfer: true as const } : {}),
      },
    ]),
  ) as Record<TokenSymbol, DevToken>;
  const factory = deployedAt(factoryNonce);
  const pairs = Object.fromEntries(
    devPools.map(([a, b]) => [`${a}/${b}`, pairAddress(factory, tokens[a].address, tokens[b].address)]),
  ) as Record<DevPoolName, Address>;
  return {
    chainId,
    tokens,
    weth: deployedAt(wethNonce),
    factory,
    router: deployedAt(routerNonce),
    depositFactory: deployedAt(depositFactoryNonce),
    pairs,
    deployer: devDeployer,
    shoppers: devShoppers,
  };
}

type SigningClient = Client<Transport, Chain, Account>;

async function signingClient(rpcUrl: string, signer: DevAccount = devDeployer): Promise<SigningClient> {
  const chainId = await getChainId(createClient({ transport: http(rpcUrl) }));
  return createClient({
    chain: defineDevChain({ chainId, rpcUrl }),
    transport: http(rpcUrl),
    account: privateKeyToAccount(signer.privateKey),
    pollingInterval: receiptPollMs,
  });
}

/** Waits for a sent transaction's receipt; a revert throws, naming `what` was sent. */
async function confirm(client: SigningClient, sent: Promise<Hash>, what: string) {
  const hash = await sent;
  const receipt = await waitForTransactionReceipt(client, {
    hash,
    timeout: receiptTimeoutMs,
    pollingInterval: receiptPollMs,
  });
  if (receipt.status !== 'success') throw new Error(`${what} reverted (tx ${hash})`);
  return receipt;
}

/**
 * Deploys the dev tokens, WETH9, Uniswap V2 (Factory, Router02) and the deposit forwarders' factory
 * from account #0, seeds the four pools with `devPoolDepth` per side and gives each shopper `devShopperBalance` of every token.
 * Needs a fresh chain (deployer nonce 0). On a chain it already bootstrapped it deploys nothing and
 * returns the same addresses.
 */
export async function bootstrapDevChain(options: { rpcUrl: string }): Promise<DevDeployment> {
  const client = await signingClient(options.rpcUrl);
  const deployment = devDeployment(client.chain.id);

  const existing = await getCode(client, { address: devTestTokenAddress });
  if (existing !== undefined && existing !== '0x') {
    await assertComplete(client, deployment);
    return deployment;
  }
  const nonce = await getTransactionCount(client, { address: devDeployer.address });
  if (nonce !== 0) {
    throw new Error(
      `dev chain is not fresh: ${devDeployer.address} has sent ${nonce} transactions, so the test BUSD ` +
        `could not land at ${devTestTokenAddress}; bootstrap a new chain`,
    );
  }

  for (const [index, spec] of tokenSpecs.entries()) {
    await deploy(client, spec.contract, [spec.name, spec.symbol, spec.decimals], index);
  }
  await deploy(client, 'WETH9', [], wethNonce);
  await deploy(client, 'UniswapV2Factory', [devDeployer.address], factoryNonce);
  await deploy(client, 'UniswapV2Router02', [deployment.factory, deployment.weth], routerNonce);
  await deploy(client, 'DepositForwarderFactory', [], depositFactoryNonce);

  const tokens = Object.values(deployment.tokens);
  for (const token of tokens) {
    await mint(client, token, devDeployer.address, devTreasurySupply);
    const approval = writeContract(client, {
      address: token.address,
      abi: token.noReturnTransfer ? erc20NoReturnAbi : erc20Abi,
      functionName: 'approve',
      args: [deployment.router, maxUint256],
    });
    await confirm(client, approval, `${token.symbol} approval`);
  }
  for (const shopper of devShoppers) {
    for (const token of tokens) await mint(client, token, shopper.address, devShopperBalance);
  }
  // The USDC/DAI pool comes last: its existence marks a complete bootstrap.
  for (const [a, b] of devPools) {
    const [tokenA, tokenB] = [deployment.tokens[a], deployment.tokens[b]];
    const amountA = devPoolDepth * 10n ** BigInt(tokenA.decimals);
    const amountB = devPoolDepth * 10n ** BigInt(tokenB.decimals);
    const liquidity = writeContract(client, {
      address: deployment.router,
      abi: uniswapV2RouterAbi,
      functionName: 'addLiquidity',
      args: [
        tokenA.address,
        tokenB.address,
        amountA,
        amountB,
        amountA,
        amountB,
        devDeployer.address,
        maxUint256,
      ],
    });
    await confirm(client, liquidity, `${a}/${b} liquidity`);
  }
  await assertComplete(client, deployment);
  return deployment;
}

async function assertComplete(client: SigningClient, deployment: DevDeployment): Promise<void> {
  const marker = await readContract(client, {
    address: deployment.factory,
    abi: uniswapV2FactoryAbi,
    functionName: 'getPair',
    args: [deployment.tokens.USDC.address, deployment.tokens.DAI.address],
  }).catch(() => zeroAddress);
  if (marker !== deployment.pairs['USDC/DAI']) {
    throw new Error(
      `dev chain has a test BUSD at ${devTestTokenAddress} but no complete bootstrap; start a fresh chain`,
    );
  }
}

async function deploy(
  client: SigningClient,
  name: DevContractName,
  args: readonly unknown[],
  nonce: number,
): Promise<void> {
  const { abi, bytecode } = await loadArtifact(name);
  const sent = deployContract(client, { abi, bytecode, args, nonce });
  const receipt = await confirm(client, sent, `${name} deployment`);
  const expected = deployedAt(nonce);
  if (receipt.contractAddress?.toLowerCase() !== expected.toLowerCase()) {
    throw new Error(`${name} landed at ${receipt.contractAddress}, expected ${expected}`);
  }
}

async function mint(client: SigningClient, token: DevToken, to: Address, wholeTokens: bigint): Promise<void> {
  const sent = writeContract(client, {
    address: token.address,
    abi: devTokenMintAbi,
    functionName: 'mint',
    args: [to, wholeTokens * 10n ** BigInt(token.decimals)],
  });
  await confirm(client, sent, `${token.symbol} mint`);
}

/** Mints `amount` base units of a dev token to `to`, signed by the deployer (the tokens' owner). */
export async function mintTo(params: {
  rpcUrl: string;
  token: Address;
  to: Address;
  amount: bigint;
}): Promise<Hash> {
  const client = await signingClient(params.rpcUrl);
  const sent = writeContract(client, {
    address: params.token,
    abi: devTokenMintAbi,
    functionName: 'mint',
    args: [params.to, params.amount],
  });
  return (await confirm(client, sent, 'mint')).transactionHash;
}
