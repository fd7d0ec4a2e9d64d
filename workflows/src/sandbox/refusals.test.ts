/**
 * The sandbox refuses what is on a live network before it sends or asks anything: a session's or refund's
 * token on a mainnet, and mining on a mainnet's chain id (its RPC URL is never called).
 */
import { createChainClients } from '@checkout/chain';
import { ApiError, createTokenRegistry } from '@checkout/core';
import { describe, expect, it } from 'vitest';
import { mineTestChain } from './mine.ts';
import { refuseLiveNetwork } from './shared.ts';

describe('the sandbox on live networks', () => {
  it('refuses an object on a live network, naming it, and lets a test network through', () => {
    expect(() =>
      refuseLiveNetwork('checkout session', { network: 'mainnet', blockchain: 'polygon' }),
    ).toThrow(/live network \(polygon mainnet\)/);
    expect(() => refuseLiveNetwork('refund', { network: 'testnet', blockchain: 'polygon' })).not.toThrow();
  });

  it('mines on a test network only: a live chain id is a 409, one without an endpoint a 404', async () => {
    const tokens = createTokenRegistry({
      chainId: 97,
      testTokenAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    });
    // An address nothing listens on: the refusal must come before any call.
    const chains = createChainClients([
      { chainId: 56, name: 'BNB Smart Chain', rpcUrls: ['http://127.0.0.1:9/'], confirmations: 15 },
    ]);
    const live = await mineTestChain({ chains, tokens }, 56, 5).catch((e: unknown) => e);
    expect(live).toBeInstanceOf(ApiError);
    expect((live as ApiError).status).toBe(409);
    expect((live as ApiError).message).toContain('live network');
    const absent = await mineTestChain({ chains, tokens }, 97, 5).catch((e: unknown) => e);
    expect((absent as ApiError).status).toBe(404);
  });
});
