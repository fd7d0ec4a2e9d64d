import { createPublicClient, createTestClient, http, type PublicClient, type TestClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, defineDevChain, getConfirmations, startDevChain } from './index.ts';

let chain: DevChain;
let reader: PublicClient;
let testClient: TestClient;

beforeAll(async () => {
  chain = await startDevChain();
  const devChain = defineDevChain({ chainId: chain.chainId, rpcUrl: chain.rpcUrl });
  reader = createPublicClient({ chain: devChain, transport: http(chain.rpcUrl) });
  testClient = createTestClient({ mode: 'hardhat', chain: devChain, transport: http(chain.rpcUrl) });
});

afterAll(async () => {
  await chain?.stop();
});

describe('getConfirmations', () => {
  it('is 0 for an unmined transaction', async () => {
    expect(await getConfirmations({ client: reader, blockNumber: null })).toBe(0);
    expect(await getConfirmations({ client: reader, blockNumber: undefined })).toBe(0);
  });

  it('counts the latest block as 1 and grows as blocks are mined', async () => {
    await testClient.mine({ blocks: 1 });
    const blockNumber = await reader.getBlockNumber({ cacheTime: 0 });
    expect(await getConfirmations({ client: reader, blockNumber })).toBe(1);
    await testClient.mine({ blocks: 4 });
    expect(await getConfirmations({ client: reader, blockNumber })).toBe(5);
    await testClient.mine({ blocks: 1 });
    expect(await getConfirmations({ client: reader, blockNumber })).toBe(6);
  });

  it('is 0 for a block the node has not reached', async () => {
    const latest = await reader.getBlockNumber({ cacheTime: 0 });
    expect(await getConfirmations({ client: reader, blockNumber: latest + 1n })).toBe(0);
  });

  it('uses a latest block number given instead of asking the node', async () => {
    expect(await getConfirmations({ client: reader, blockNumber: 10n, latestBlockNumber: 19n })).toBe(10);
  });
});
