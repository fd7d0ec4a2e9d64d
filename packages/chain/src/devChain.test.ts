import { spawn } from 'node:child_process';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  maxUint256,
  type PublicClient,
  parseEventLogs,
  parseUnits,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bootstrapDevChain,
  type DevAccount,
  type DevChain,
  type DevDeployment,
  defineDevChain,
  devAccounts,
  devPoolDepth,
  devShopperBalance,
  devTestTokenAddress,
  erc20Abi,
  erc20NoReturnAbi,
  mintTo,
  quoteExactOutput,
  startDevChain,
  swapTokensForExactTokens,
  uniswapV2PairAbi,
  withSlippage,
} from './index.ts';

let chain: DevChain;
let deployment: DevDeployment;
let reader: PublicClient;

// Account #9 is not a shopper: it starts with no tokens, like a merchant's receiving wallet.
const merchant: Address = devAccounts[9]!.address;

function walletOf(account: DevAccount) {
  return createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    chain: defineDevChain({ chainId: chain.chainId, rpcUrl: chain.rpcUrl }),
    transport: http(chain.rpcUrl),
  });
}

function balanceOf(token: Address, owner: Address): Promise<bigint> {
  return reader.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; attempt < 200 && Date.now() < deadline; attempt++) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

beforeAll(async () => {
  chain = await startDevChain();
  reader = createPublicClient({
    chain: defineDevChain({ chainId: chain.chainId, rpcUrl: chain.rpcUrl }),
    transport: http(chain.rpcUrl),
  });
  deployment = await bootstrapDevChain({ rpcUrl: chain.rpcUrl });
});

afterAll(async () => {
  await chain?.stop();
});

describe('dev chain', () => {
  it('serves JSON-RPC on 127.0.0.1 with chain id 97 and the default accounts', async () => {
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(chain.chainId).toBe(97);
    expect(await reader.getChainId()).toBe(97);
    const response = await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] }),
    });
    const { result: accounts } = (await response.json()) as { result: string[] };
    expect(accounts.slice(0, 10).map((a) => a.toLowerCase())).toEqual(
      devAccounts.map((a) => a.address.toLowerCase()),
    );
  });

  it('answers requests that carry no params, as viem sends them', async () => {
    const response = await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId' }),
    });
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: '0x61' });
  });
});

describe('bootstrap', () => {
  it('puts the test BUSD at the default test token address', () => {
    expect(deployment.tokens.BUSD.address).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3');
    expect(devTestTokenAddress).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3');
    expect(deployment.deployer.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  });

  it('deploys tokens with the advertised symbol, name and decimals', async () => {
    const expected = {
      BUSD: ['BUSD', 'BUSD Token', 18],
      USDC: ['USDC', 'USD Coin', 6],
      DAI: ['DAI', 'Dai Stablecoin', 18],
      USDT: ['USDT', 'Tether USD', 6],
    } as const;
    for (const [symbol, [onChainSymbol, name, decimals]] of Object.entries(expected)) {
      const token = deployment.tokens[symbol as keyof typeof expected];
      expect(token.decimals).toBe(decimals);
      const read = (functionName: 'symbol' | 'name' | 'decimals') =>
        reader.readContract({ address: token.address, abi: erc20Abi, functionName });
      expect([await read('symbol'), await read('name'), await read('decimals')]).toEqual([
        onChainSymbol,
        name,
        decimals,
      ]);
    }
    expect(deployment.tokens.USDT.noReturnTransfer).toBe(true);
    expect(deployment.tokens.BUSD.noReturnTransfer).toBeUndefined();
  });

  it('funds shoppers #1..#5 with 10,000 of each token', async () => {
    expect(deployment.shoppers.map((s) => s.address)).toEqual(devAccounts.slice(1, 6).map((a) => a.address));
    for (const shopper of deployment.shoppers.slice(2)) {
      for (const token of Object.values(deployment.tokens)) {
        expect(await balanceOf(token.address, shopper.address)).toBe(
          devShopperBalance * 10n ** BigInt(token.decimals),
        );
      }
    }
  });

  it('seeds every pool 1:1 in value at the depth advertised', async () => {
    for (const [name, pair] of Object.entries(deployment.pairs)) {
      const [a, b] = name.split('/') as [keyof DevDeployment['tokens'], keyof DevDeployment['tokens']];
      const [reserve0, reserve1] = await reader.readContract({
        address: pair,
        abi: uniswapV2PairAbi,
        functionName: 'getReserves',
      });
      const tokenA = deployment.tokens[a];
      const tokenB = deployment.tokens[b];
      const depth = (decimals: number) => devPoolDepth * 10n ** BigInt(decimals);
      const aFirst = tokenA.address.toLowerCase() < tokenB.address.toLowerCase();
      expect(aFirst ? [reserve0, reserve1] : [reserve1, reserve0]).toEqual([
        depth(tokenA.decimals),
        depth(tokenB.decimals),
      ]);
    }
  });

  it('is idempotent: a second run deploys nothing and returns the same addresses', async () => {
    const blockBefore = await reader.getBlockNumber();
    const again = await bootstrapDevChain({ rpcUrl: chain.rpcUrl });
    expect(again).toEqual(deployment);
    expect(await reader.getBlockNumber()).toBe(blockBefore);
  });

  it('mints more of a dev token on request', async () => {
    const someone = devAccounts[8]!.address;
    const before = await balanceOf(deployment.tokens.USDC.address, someone);
    await mintTo({
      rpcUrl: chain.rpcUrl,
      token: deployment.tokens.USDC.address,
      to: someone,
      amount: 5_000_000n,
    });
    expect(await balanceOf(deployment.tokens.USDC.address, someone)).toBe(before + 5_000_000n);
  });
});

describe('payments', () => {
  it('a direct BUSD transfer shopper -> merchant emits exactly one Transfer', async () => {
    const shopper = deployment.shoppers[0]!;
    const busd = deployment.tokens.BUSD.address;
    const amount = parseUnits('12.5', 18);
    const before = await balanceOf(busd, merchant);
    const hash = await walletOf(shopper).writeContract({
      address: busd,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [merchant, amount],
    });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
    expect(receipt.status).toBe('success');
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.address.toLowerCase()).toBe(busd.toLowerCase());
    expect(transfers[0]!.args).toEqual({ from: shopper.address, to: merchant, value: amount });
    expect(await balanceOf(busd, merchant)).toBe(before + amount);
  });

  it('a USDT-style transfer (no return value) succeeds with writeContract', async () => {
    const shopper = deployment.shoppers[1]!;
    const usdt = deployment.tokens.USDT.address;
    const amount = parseUnits('7.25', 6);
    const before = await balanceOf(usdt, merchant);

    // Simulating with the standard ABI fails exactly as against Tether on Ethereum.
    await expect(
      reader.simulateContract({
        account: shopper.address,
        address: usdt,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [merchant, amount],
      }),
    ).rejects.toThrow(/returned no data/);
    await reader.simulateContract({
      account: shopper.address,
      address: usdt,
      abi: erc20NoReturnAbi,
      functionName: 'transfer',
      args: [merchant, amount],
    });

    const hash = await walletOf(shopper).writeContract({
      address: usdt,
      abi: erc20NoReturnAbi,
      functionName: 'transfer',
      args: [merchant, amount],
    });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
    expect(receipt.status).toBe('success');
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
    expect(transfers.map((t) => t.args)).toEqual([{ from: shopper.address, to: merchant, value: amount }]);
    expect(await balanceOf(usdt, merchant)).toBe(before + amount);
  });

  it('a swap with exact output lands exactly 25 BUSD at the merchant, sent by the pair', async () => {
    const shopper = deployment.shoppers[2]!;
    const wallet = walletOf(shopper);
    const { BUSD: busd, DAI: dai } = deployment.tokens;
    const amountOut = parseUnits('25', 18);
    const path = [dai.address, busd.address] as const;

    const approval = await wallet.writeContract({
      address: dai.address,
      abi: erc20Abi,
      functionName: 'approve',
      args: [deployment.router, maxUint256],
    });
    await reader.waitForTransactionReceipt({ hash: approval, pollingInterval: 20, timeout: 10_000 });

    const quote = await quoteExactOutput({ client: reader, router: deployment.router, path, amountOut });
    expect(quote.amounts).toEqual([quote.amountIn, amountOut]);
    // A 1:1 pool with 0.3 % fee: a little over 25 DAI.
    expect(quote.amountIn).toBeGreaterThan(parseUnits('25', 18));
    expect(quote.amountIn).toBeLessThan(parseUnits('25.1', 18));

    const merchantBefore = await balanceOf(busd.address, merchant);
    const shopperDaiBefore = await balanceOf(dai.address, shopper.address);
    const hash = await swapTokensForExactTokens(wallet, {
      router: deployment.router,
      path,
      amountOut,
      amountInMax: withSlippage(quote.amountIn, 50),
      to: merchant,
    });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
    expect(receipt.status).toBe('success');
    expect(receipt.from.toLowerCase()).toBe(shopper.address.toLowerCase());
    expect(receipt.to?.toLowerCase()).toBe(deployment.router.toLowerCase());

    expect(await balanceOf(busd.address, merchant)).toBe(merchantBefore + amountOut);
    expect(await balanceOf(dai.address, shopper.address)).toBe(shopperDaiBefore - quote.amountIn);

    const pair = deployment.pairs['BUSD/DAI'];
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
    const toMerchant = transfers.filter((t) => t.args.to === merchant);
    expect(toMerchant).toHaveLength(1);
    expect(toMerchant[0]!.address.toLowerCase()).toBe(busd.address.toLowerCase());
    // The merchant's Transfer comes from the pool, not the shopper: payers are read from tx.from.
    expect(toMerchant[0]!.args).toEqual({ from: pair, to: merchant, value: amountOut });
    expect(transfers.find((t) => t.args.to === pair)?.args).toEqual({
      from: shopper.address,
      to: pair,
      value: quote.amountIn,
    });
  });
});

describe('stop', () => {
  it('a node whose parent dies exits on its own', async () => {
    const devChainModule = new URL('./devChain.ts', import.meta.url).href;
    const script = `
      const { startDevChain } = await import(${JSON.stringify(devChainModule)});
      const chain = await startDevChain();
      console.log(chain.pid);
      setTimeout(() => {}, 60_000);
    `;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const pid = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no dev chain started')), 30_000);
        parent.stdout.once('data', (data: Buffer) => {
          clearTimeout(timer);
          resolve(Number(data.toString().trim()));
        });
      });
      expect(isAlive(pid)).toBe(true);
      parent.kill('SIGKILL');
      expect(await waitUntilGone(pid, 5_000)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('stop() ends the node process', async () => {
    expect(isAlive(chain.pid)).toBe(true);
    await chain.stop();
    expect(isAlive(chain.pid)).toBe(false);
    await expect(
      fetch(chain.rpcUrl, { method: 'POST', signal: AbortSignal.timeout(2_000) }),
    ).rejects.toThrow();
    await chain.stop();
  });
});
