/**
 * `eth_getLogs` over a block range an endpoint may refuse as too wide or too rich in results: the range is
 * asked in parts, a refused part is split (to the size the endpoint states or suggests, else in half), and
 * what worked is remembered for the endpoint's next calls. After a run of answered parts the size is
 * doubled again: a result cap passes with the chain's busy stretch, and a provider's limit may be raised
 * (a stated limit costs one refused call per run of parts at it, and only while a range wider than it is read).
 */
import { type Hex, hexToBigInt, numberToHex } from 'viem';
import { classifyRpcError } from './rpcErrors.ts';

/** What an endpoint served so far. */
export interface LogRangeMemory {
  /** The range asked at once now; undefined while nothing was refused (the whole range in one call). */
  size?: bigint;
  /** Parts answered in a row at `size`. */
  answered: number;
}

/** Parts answered in a row before the size is doubled again. */
const growAfter = 16;

type Filter = { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown } & Record<string, unknown>;

const isBlockNumber = (value: unknown): value is Hex =>
  typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value);

/**
 * The logs of `filter`, asked through `send` in parts `memory` allows. Throws what is not a range or
 * result limit, and a refusal of a single block.
 */
export async function getLogsInParts(
  filter: Filter,
  memory: LogRangeMemory,
  send: (filter: Filter) => Promise<unknown[]>,
): Promise<unknown[]> {
  if (filter.blockHash !== undefined || !isBlockNumber(filter.fromBlock) || !isBlockNumber(filter.toBlock)) {
    return send(filter);
  }
  const to = hexToBigInt(filter.toBlock);
  let start = hexToBigInt(filter.fromBlock);
  if (start > to) return send(filter);
  const logs: unknown[] = [];
  while (start <= to) {
    const span = to - start + 1n;
    const size = memory.size !== undefined && memory.size < span ? memory.size : span;
    const end = start + size - 1n;
    let part: unknown[];
    try {
      part = await send({ ...filter, fromBlock: numberToHex(start), toBlock: numberToHex(end) });
    } catch (error) {
      const fault = classifyRpcError(error);
      if (fault.kind !== 'log_range' && fault.kind !== 'log_results') throw error;
      if (size === 1n) throw error;
      let next = fault.suggestedBlocks ?? fault.maxBlocks ?? size / 2n;
      if (next >= size) next = size / 2n;
      memory.size = next < 1n ? 1n : next;
      memory.answered = 0;
      continue;
    }
    logs.push(...part);
    start = end + 1n;
    if (memory.size !== undefined && size === memory.size && ++memory.answered >= growAfter) {
      memory.size *= 2n;
      memory.answered = 0;
    }
  }
  return logs;
}
