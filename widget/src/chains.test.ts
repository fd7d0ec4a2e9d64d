import { describe, expect, it } from 'vitest';
import { chainName, explorerOf } from './chains.ts';

const hash = `0x${'ab'.repeat(32)}`;
const remote = 'https://rpc.example';

describe('chains', () => {
  it('links each public chain to its explorer', () => {
    expect(explorerOf({ chain_id: 1, rpc_url: remote }, hash)).toEqual({
      name: 'Etherscan',
      url: `https://etherscan.io/tx/${hash}`,
    });
    expect(explorerOf({ chain_id: 56, rpc_url: null }, hash)?.url).toBe(`https://bscscan.com/tx/${hash}`);
    expect(explorerOf({ chain_id: 97, rpc_url: remote }, hash)?.url).toBe(
      `https://testnet.bscscan.com/tx/${hash}`,
    );
    expect(explorerOf({ chain_id: 137, rpc_url: remote }, hash)).toEqual({
      name: 'PolygonScan',
      url: `https://polygonscan.com/tx/${hash}`,
    });
    expect(explorerOf({ chain_id: 11155111, rpc_url: remote }, hash)?.url).toBe(
      `https://sepolia.etherscan.io/tx/${hash}`,
    );
    expect(explorerOf({ chain_id: 80002, rpc_url: remote }, hash)?.url).toBe(
      `https://amoy.polygonscan.com/tx/${hash}`,
    );
  });

  it('links no local or unknown chain, and nothing but a transaction hash', () => {
    expect(explorerOf({ chain_id: 97, rpc_url: 'http://127.0.0.1:8545' }, hash)).toBeNull();
    expect(explorerOf({ chain_id: 97, rpc_url: 'http://localhost:8545' }, hash)).toBeNull();
    expect(explorerOf({ chain_id: 1, rpc_url: 'http://[::1]:8545' }, hash)).toBeNull();
    expect(explorerOf({ chain_id: 31337, rpc_url: remote }, hash)).toBeNull();
    expect(explorerOf({ chain_id: 1, rpc_url: remote }, '0x12/../../evil')).toBeNull();
  });

  it('names chains for shoppers', () => {
    expect(chainName({ blockchain: 'binance-smart-chain', network: 'testnet', chain_id: 97 })).toBe(
      'BNB Smart Chain Testnet',
    );
    expect(chainName({ blockchain: 'ethereum', network: 'testnet', chain_id: 11155111 })).toBe(
      'Ethereum Sepolia',
    );
    expect(chainName({ blockchain: 'polygon', network: 'testnet', chain_id: 80002 })).toBe('Polygon Amoy');
    expect(chainName({ blockchain: 'other', network: 'x', chain_id: 5 })).toBe('chain 5');
  });
});
