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

  it('has each configured test network with its test BUSD for products and its swap tokens for shoppers', () => {
    const busd = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const usdc = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
    const all = createTokenRegistry([
      { chainId: 97, testTokenAddress: busd },
      {
        blockchain: 'ethereum',
        chainId: 11155111,
        testTokenAddress: busd,
        swapTokens: [{ symbol: 'USDC', name: 'USD Coin', address: usdc, decimals: 6 }],
      },
      { blockchain: 'polygon', chainId: 80002, testTokenAddress: busd },
    ]);
    expect(all.chainById(11155111)).toMatchObject({
      blockchain: 'ethereum',
      network: 'testnet',
      name: 'Ethereum Sepolia',
    });
    expect(all.chainById(80002)).toMatchObject({
      blockchain: 'polygon',
      network: 'testnet',
      name: 'Polygon Amoy',
    });
    expect(all.find('ethereum', 'testnet', busd)).toMatchObject({
      symbol: 'BUSD',
      chainId: 11155111,
      network: 'testnet',
    });
    expect(all.find('polygon', 'testnet', busd)?.chainId).toBe(80002);
    // A swap source is a payment token only, never a product's token.
    expect(all.find('ethereum', 'testnet', usdc)).toBeUndefined();
    expect(all.findPaymentToken(11155111, usdc.toLowerCase())).toMatchObject({ symbol: 'USDC', decimals: 6 });
    expect(all.findPaymentToken(80002, usdc)).toBeUndefined();
    // The mainnet contracts are unchanged beside them.
    expect(all.tokensOf('polygon', 'mainnet')).toEqual(registry.tokensOf('polygon', 'mainnet'));
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
