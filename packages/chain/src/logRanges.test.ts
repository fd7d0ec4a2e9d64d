import { InvalidInputRpcError, LimitExceededRpcError, numberToHex, RpcRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { getLogsInParts, type LogRangeMemory } from './logRanges.ts';

const refusal = (code: number, message: string) => {
  const cause = new RpcRequestError({ url: 'http://x', body: {}, error: { code, message } });
  return code === -32005 ? new LimitExceededRpcError(cause) : new InvalidInputRpcError(cause);
};

/** An endpoint that serves `eth_getLogs` over at most `maxBlocks` blocks (or `maxLogs` results): one log per block. */
function endpoint(limits: { maxBlocks?: number; maxLogs?: number; statesLimit?: boolean }) {
  const asked: Array<[number, number]> = [];
  const send = async (filter: Record<string, unknown>) => {
    const from = Number(BigInt(filter.fromBlock as string));
    const to = Number(BigInt(filter.toBlock as string));
    asked.push([from, to]);
    if (limits.maxBlocks !== undefined && to - from + 1 > limits.maxBlocks) {
      throw refusal(
        -32000,
        limits.statesLimit ? `exceed maximum block range: ${limits.maxBlocks}` : 'block range is too wide',
      );
    }
    if (limits.maxLogs !== undefined && to - from + 1 > limits.maxLogs) {
      throw refusal(-32005, `query returned more than ${limits.maxLogs} results`);
    }
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  };
  return { asked, send };
}

const range = (from: number, to: number) => ({
  fromBlock: numberToHex(from),
  toBlock: numberToHex(to),
  address: [],
});

describe('getLogsInParts', () => {
  it('asks for the whole range while nothing is refused', async () => {
    const { asked, send } = endpoint({});
    const memory: LogRangeMemory = { answered: 0 };
    expect(await getLogsInParts(range(10, 1_999), memory, send)).toHaveLength(1_990);
    expect(asked).toEqual([[10, 1_999]]);
    expect(memory.size).toBeUndefined();
  });

  it('takes a stated range limit at once and keeps it for the next calls', async () => {
    const { asked, send } = endpoint({ maxBlocks: 100, statesLimit: true });
    const memory: LogRangeMemory = { answered: 0 };
    const logs = await getLogsInParts(range(0, 449), memory, send);
    expect(logs).toEqual(Array.from({ length: 450 }, (_, i) => i));
    expect(asked).toEqual([
      [0, 449],
      [0, 99],
      [100, 199],
      [200, 299],
      [300, 399],
      [400, 449],
    ]);
    expect(memory).toMatchObject({ size: 100n });
    asked.length = 0;
    await getLogsInParts(range(450, 649), memory, send);
    expect(asked).toEqual([
      [450, 549],
      [550, 649],
    ]);
  });

  it('halves an unstated limit until it is served, and tries a stated one again only once per run of parts', async () => {
    const { asked, send } = endpoint({ maxBlocks: 300 });
    const memory: LogRangeMemory = { answered: 0 };
    expect(await getLogsInParts(range(0, 999), memory, send)).toHaveLength(1_000);
    // 1000 refused, 500 refused, then parts of 250.
    expect(asked.slice(0, 3)).toEqual([
      [0, 999],
      [0, 499],
      [0, 249],
    ]);
    expect(memory.size).toBe(250n);
    const stated = endpoint({ maxBlocks: 40, statesLimit: true });
    const kept: LogRangeMemory = { answered: 0 };
    for (let i = 0; i < 40; i++) await getLogsInParts(range(i * 80, i * 80 + 79), kept, stated.send);
    expect([40n, 80n]).toContain(kept.size);
    // 80 parts of 40 answered: the first call refused, then one more try of 80 after each run of 16.
    expect(stated.asked.filter(([from, to]) => to - from + 1 > 40).length).toBeLessThanOrEqual(1 + 80 / 16);
  });

  it('grows a size learnt from a result cap again once parts are answered', async () => {
    let cap = 50;
    const asked: Array<[number, number]> = [];
    const send = async (filter: Record<string, unknown>) => {
      const from = Number(BigInt(filter.fromBlock as string));
      const to = Number(BigInt(filter.toBlock as string));
      asked.push([from, to]);
      if (to - from + 1 > cap) throw refusal(-32005, 'query returned more than 10000 results');
      return [];
    };
    const memory: LogRangeMemory = { answered: 0 };
    await getLogsInParts(range(0, 99), memory, send);
    expect(memory.size).toBe(50n);
    // The busy stretch has passed: after a run of answered parts the size doubles again.
    cap = 10_000;
    for (let i = 0; i < 20; i++) await getLogsInParts(range(100 + i * 100, 199 + i * 100), memory, send);
    expect(memory.size).toBeGreaterThanOrEqual(100n);
  });

  it('throws what is not a limit, and a refused single block', async () => {
    const memory: LogRangeMemory = { answered: 0 };
    await expect(
      getLogsInParts(range(0, 9), memory, async () => {
        throw refusal(-32000, 'header not found');
      }),
    ).rejects.toThrow(/header not found/);
    await expect(
      getLogsInParts(range(5, 6), memory, async () => {
        throw refusal(-32005, 'query returned more than 10000 results');
      }),
    ).rejects.toThrow(/more than 10000 results/);
  });

  it('leaves a block-hash filter and tags alone', async () => {
    const { asked, send } = endpoint({});
    const calls: unknown[] = [];
    await getLogsInParts({ blockHash: '0xabc' }, { answered: 0 }, async (f) => {
      calls.push(f);
      return [];
    });
    await getLogsInParts({ fromBlock: '0x1', toBlock: 'latest' }, { answered: 0 }, async (f) => {
      calls.push(f);
      return [];
    });
    expect(calls).toEqual([{ blockHash: '0xabc' }, { fromBlock: '0x1', toBlock: 'latest' }]);
    expect(asked).toEqual([]);
    void send;
  });
});
