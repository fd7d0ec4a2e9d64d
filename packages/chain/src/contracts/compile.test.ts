import { readFile } from 'node:fs/promises';
import { keccak256, toFunctionSelector } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../artifacts.ts';
import { devAccounts } from '../bootstrap.ts';
import { devMnemonic } from '../devChain.ts';
import { devTokenMintAbi, erc20NoReturnAbi } from '../erc20.ts';
import { uniswapV2InitCodeHash } from '../swap.ts';
import { type CompiledContract, compileContracts } from './compile.ts';

describe('contract artifacts', () => {
  it('match a fresh compilation of the sources (run scripts/compileContracts.ts after editing a .sol)', async () => {
    const compiled = await compileContracts();
    expect(compiled.map((c) => c.contractName)).toEqual([
      'TestToken',
      'NoReturnToken',
      'DepositForwarder',
      'DepositForwarderFactory',
      'OwnedContractWallet',
      'OwnedContractWalletFactory',
    ]);
    for (const fresh of compiled) {
      const committed = JSON.parse(
        await readFile(new URL(`../artifacts/${fresh.contractName}.json`, import.meta.url), 'utf8'),
      ) as CompiledContract;
      expect(committed.bytecode, `${fresh.contractName} bytecode`).toBe(fresh.bytecode);
      expect(committed.abi, `${fresh.contractName} abi`).toEqual(fresh.abi);
      expect(committed.compiler).toEqual(fresh.compiler);
    }
  }, 60_000);

  it('give both tokens the mint that bootstrap calls, and the no-return writes to NoReturnToken', async () => {
    const selectors = async (name: 'TestToken' | 'NoReturnToken') =>
      (await loadArtifact(name)).abi.flatMap((item) =>
        item.type === 'function' ? [toFunctionSelector(item)] : [],
      );
    const mint = toFunctionSelector(devTokenMintAbi[0]);
    expect(await selectors('TestToken')).toContain(mint);
    expect(await selectors('NoReturnToken')).toContain(mint);
    const noReturn = (await loadArtifact('NoReturnToken')).abi.filter(
      (item) => item.type === 'function' && ['transfer', 'transferFrom', 'approve'].includes(item.name),
    );
    expect(noReturn.map((item) => (item.type === 'function' ? item.outputs : null))).toEqual([[], [], []]);
    expect(noReturn.map((item) => (item.type === 'function' ? toFunctionSelector(item) : '')).sort()).toEqual(
      erc20NoReturnAbi.map((item) => toFunctionSelector(item)).sort(),
    );
  });

  it('use the published Uniswap V2 pair, whose init code hash Router02 embeds', async () => {
    const pair = await loadArtifact('UniswapV2Pair');
    expect(keccak256(pair.bytecode)).toBe(uniswapV2InitCodeHash);
    const router = await loadArtifact('UniswapV2Router02');
    expect(router.bytecode).toContain(uniswapV2InitCodeHash.slice(2));
  });
});

describe('devAccounts', () => {
  it('are the accounts of the dev mnemonic, with matching keys', () => {
    expect(devAccounts).toHaveLength(10);
    devAccounts.forEach((account, addressIndex) => {
      expect(privateKeyToAccount(account.privateKey).address).toBe(account.address);
      expect(mnemonicToAccount(devMnemonic, { addressIndex }).address).toBe(account.address);
    });
  });
});
