import { describe, expect, it } from 'vitest';
import { createTokenRegistry, isTestToken, tokenId } from './chains.ts';

const registry = createTokenRegistry({
  chainId: 97,
  testTokenAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
});

describe('token registry', () => {
  it('knows the four stablecoins on each mainnet with their decimals', () => {
    const usdcEth = registry.find('ethereum', 'mainnet', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48');
    expect(usdcEth).toMatchObject({ symbol: 'USDC', decimals: 6, chainId: 1 });
    expect(
      registry.find('binance-smart-chain', 'mainnet', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d')?.decimals,
    ).toBe(18);
    expect(registry.find('polygon', 'mainnet', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F')?.symbol).toBe(
      'USDT',
    );
    for (const chain of ['ethereum', 'binance-smart-chain', 'polygon']) {
      expect(new Set(registry.tokensOf(chain, 'mainnet').map((t) => t.symbol))).toEqual(
        new Set(['USDC', 'DAI', 'USDT', 'BUSD']),
      );
    }
  });

  it('matches addresses case-sensitively', () => {
    expect(
      registry.find('ethereum', 'mainnet', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'),
    ).toBeUndefined();
  });

  it('does not accept a contract on the wrong chain', () => {
    expect(registry.find('polygon', 'mainnet', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48')).toBeUndefined();
  });

  it('has only the configured test BUSD on binance-smart-chain testnet, and nothing on other testnets', () => {
    expect(registry.tokensOf('binance-smart-chain', 'testnet').map((t) => t.address)).toEqual([
      '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    ]);
    expect(registry.tokensOf('ethereum', 'testnet')).toEqual([]);
    const test = registry.find(
      'binance-smart-chain',
      'testnet',
      '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    );
    expect(test && isTestToken(test)).toBe(true);
  });

  it('gives tokens stable, well-formed UUIDs', () => {
    const t = {
      blockchain: 'ethereum',
      network: 'mainnet',
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    };
    expect(tokenId(t)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tokenId(t)).toBe(tokenId({ ...t }));
    expect(tokenId(t)).not.toBe(tokenId({ ...t, blockchain: 'polygon' }));
  });
});
