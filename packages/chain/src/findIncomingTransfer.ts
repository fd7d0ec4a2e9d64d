/**
 * Finds a payment by its ERC-20 Transfer log when the shopper paid but never reported the transaction
 * hash (closed tab, lost connection), scanning the chain in bounded block windows.
 */
import {
  type Address,
  type Chain,
  type Client,
  getAbiItem,
  getAddress,
  type Hash,
  TransactionNotFoundError,
  type Transport,
} from 'viem';
import { getBlockNumber, getLogs, getTransaction } from 'viem/actions';
import { erc20Abi } from './erc20.ts';

/** A Transfer log that matched. `from` is the log's sender: for a swap that is the pool, not the payer. */
export interface FoundTransfer {
  txHash: Hash;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hash;
  from: Address;
  amount: bigint;
}

/** Where to look and what counts as a match. */
export interface FindIncomingTransferParameters {
  client: Client<Transport, Chain | undefined>;
  token: Address;
  /** The receiving address. */
  to: Address;
  /** The payer: matches the log's sender, or the transaction's sender when a DEX pool sent the tokens. */
  from?: Address;
  fromBlock: bigint;
  /** Defaults to the latest block. */
  toBlock?: bigint;
  /** Ignore transfers below this many base units. */
  minAmount?: bigint;
  /** Most blocks per `eth_getLogs` call; public RPCs refuse wide ranges (often 1,000–10,000 blocks). */
  maxBlockRange?: number;
  /** Give up (throw) when the scan takes longer, rather than hold a worker indefinitely. */
  timeoutMs?: number;
  /** Transfers to pass over (e.g. ones that already pay something else). */
  skip?: (transfer: { txHash: Hash; logIndex: number }) => boolean;
}

const defaultMaxBlockRange = 2000;
const defaultTimeoutMs = 60_000;
const transferEvent = getAbiItem({ abi: erc20Abi, name: 'Transfer' });

/** The first Transfer of `token` into `to` in the block range that fits the filters, or undefined. */
export async function findIncomingTransfer(
  params: FindIncomingTransferParameters,
): Promise<FoundTransfer | undefined> {
  const [first] = await listIncomingTransfers({ ...params, limit: 1 });
  return first;
}

/**
 * Every Transfer of `token` into `to` in the block range that fits the filters, in chain order (at most
 * `limit`, by default all).
 */
export async function listIncomingTransfers(
  params: FindIncomingTransferParameters & { limit?: number },
): Promise<FoundTransfer[]> {
  const { client, token, to, from, minAmount } = params;
  const limit = params.limit ?? Number.POSITIVE_INFINITY;
  const found: FoundTransfer[] = [];
  const maxBlockRange = params.maxBlockRange ?? defaultMaxBlockRange;
  if (!Number.isSafeInteger(maxBlockRange) || maxBlockRange < 1) {
    throw new RangeError('maxBlockRange must be a positive integer');
  }
  if (params.fromBlock < 0n) throw new RangeError('fromBlock must not be negative');
  const deadline = Date.now() + (params.timeoutMs ?? defaultTimeoutMs);
  const toBlock = params.toBlock ?? (await getBlockNumber(client, { cacheTime: 0 }));
  if (params.fromBlock > toBlock) return found;

  const range = BigInt(maxBlockRange);
  const windows = (toBlock - params.fromBlock) / range + 1n;
  const senders = new Map<Hash, Address | undefined>();

  for (let window = 0n; window < windows; window++) {
    const start = params.fromBlock + window * range;
    checkDeadline(start);
    const end = start + range - 1n < toBlock ? start + range - 1n : toBlock;
    // Only `to` goes into the filter: a swap's Transfer comes from the pool, so `from` is checked below.
    const logs = await getLogs(client, {
      address: token,
      event: transferEvent,
      args: { to },
      fromBlock: start,
      toBlock: end,
      strict: true,
    });
    for (const log of logs) {
      if (log.removed || log.blockNumber === null || log.transactionHash === null) continue;
      if (log.logIndex === null || log.blockHash === null) continue;
      if (minAmount !== undefined && log.args.value < minAmount) continue;
      if (params.skip?.({ txHash: log.transactionHash, logIndex: log.logIndex })) continue;
      if (from !== undefined && !(await sentBy(log.args.from, log.transactionHash, log.blockNumber)))
        continue;
      found.push({
        txHash: log.transactionHash,
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        blockHash: log.blockHash,
        from: log.args.from,
        amount: log.args.value,
      });
      if (found.length >= limit) return found;
    }
  }
  return found;

  /** Throws once the time limit has passed, saying how far the scan got so a caller can resume there. */
  function checkDeadline(nextBlock: bigint): void {
    if (Date.now() < deadline) return;
    throw new Error(
      `the transfer scan timed out: scanned blocks ${params.fromBlock}..${nextBlock - 1n} of ..${toBlock}`,
    );
  }

  /** True when the payer sent the tokens directly or sent the transaction that made a pool send them. */
  async function sentBy(logFrom: Address, txHash: Hash, blockNumber: bigint): Promise<boolean> {
    if (from === undefined || sameAddress(logFrom, from)) return true;
    if (!senders.has(txHash)) {
      // A busy receiving address can need one lookup per log, so the time limit applies here too.
      checkDeadline(blockNumber);
      const sender = await getTransaction(client, { hash: txHash }).then(
        (tx) => getAddress(tx.from),
        (error: unknown) => {
          // The block holding the log was reorganised away since the log was read.
          if (error instanceof TransactionNotFoundError) return undefined;
          throw error;
        },
      );
      senders.set(txHash, sender);
    }
    const sender = senders.get(txHash);
    return sender !== undefined && sameAddress(sender, from);
  }
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
