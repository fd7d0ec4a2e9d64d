/**
 * Reads the ERC-20 Transfer logs of several tokens over a block range: into watched addresses, with the
 * sender of each log's transaction (the payer of a swap, whose tokens a pool sends), which a chain's
 * watcher records once for every open checkout; and out of watched addresses to known ones, which it
 * reads to recognise the refunds merchants' wallets pay.
 */
import { type Address, getAbiItem, getAddress, type Hash } from 'viem';
import { getLogs, getTransaction } from 'viem/actions';
import type { AnyClient } from './chainReads.ts';
import { erc20Abi } from './erc20.ts';
import type { IncomingTransfer } from './verifyPayment.ts';

/** One Transfer log out of a watched address (`token` is the log's address, checksummed). */
export interface OutgoingTransferLog extends IncomingTransfer {
  txHash: Hash;
  blockNumber: bigint;
  blockHash: Hash;
}

/** One Transfer log into a watched address. */
export interface TransferLog extends OutgoingTransferLog {
  /** The transaction's sender. */
  txFrom: Address;
  /** The transaction's input, lowercase hex without `0x`: where a checkout's reference is found. */
  txInput: string;
}

/** A transaction read before: its sender and input (lowercase hex without `0x`). */
export interface KnownTransaction {
  from: Address;
  input: string;
}

const transferEvent = getAbiItem({ abi: erc20Abi, name: 'Transfer' });

/** Most addresses per topic of one `eth_getLogs` filter (an OR of topics); providers cap the filter's size. */
const addressesPerTopic = 100;

/** `list` in chunks of `addressesPerTopic`; one empty chunk (no filter on that topic) for `undefined`. */
function chunks(list: readonly Address[] | undefined): (Address[] | undefined)[] {
  if (list === undefined) return [undefined];
  const out: Address[][] = [];
  for (let i = 0; i < list.length; i += addressesPerTopic) out.push(list.slice(i, i + addressesPerTopic));
  return out;
}

/**
 * The mined Transfer logs of `tokens` in `[fromBlock, toBlock]` from one of `from` (any sender when left
 * out) to one of `to`, in chain order: one `eth_getLogs` per chunk of 100 senders and 100 receivers.
 */
async function transferLogs(
  client: AnyClient,
  filter: { tokens: readonly Address[]; from?: readonly Address[]; to: readonly Address[] },
  fromBlock: bigint,
  toBlock: bigint,
): Promise<OutgoingTransferLog[]> {
  const found: OutgoingTransferLog[] = [];
  for (const from of chunks(filter.from)) {
    for (const to of chunks(filter.to)) {
      const logs = await getLogs(client, {
        address: [...filter.tokens],
        event: transferEvent,
        args: from === undefined ? { to } : { from, to },
        fromBlock,
        toBlock,
        strict: true,
      });
      for (const log of logs) {
        if (log.removed || log.blockNumber === null || log.transactionHash === null) continue;
        if (log.logIndex === null || log.blockHash === null) continue;
        found.push({
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
          token: getAddress(log.address),
          from: log.args.from,
          to: log.args.to,
          amount: log.args.value,
        });
      }
    }
  }
  return found.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
}

/**
 * Every Transfer of `tokens` into `to` in `[fromBlock, toBlock]`, in chain order. One `eth_getLogs` per
 * window of `maxBlockRange` blocks and chunk of 100 addresses (an endpoint that refuses the window is
 * asked in smaller parts by its transport), and one `eth_getTransactionByHash` per transaction found
 * that is not in `known` (transactions read before, by lowercase hash), for its sender and input.
 */
export async function readTransfers(params: {
  client: AnyClient;
  tokens: readonly Address[];
  to: readonly Address[];
  fromBlock: bigint;
  toBlock: bigint;
  maxBlockRange?: number;
  known?: ReadonlyMap<string, KnownTransaction>;
}): Promise<TransferLog[]> {
  const { client, tokens, to } = params;
  if (tokens.length === 0 || to.length === 0 || params.fromBlock > params.toBlock) return [];
  const range = BigInt(params.maxBlockRange ?? 2000);
  const found: TransferLog[] = [];
  const read = new Map<Hash, KnownTransaction>();
  for (let start = params.fromBlock; start <= params.toBlock; start += range) {
    const end = start + range - 1n < params.toBlock ? start + range - 1n : params.toBlock;
    for (const log of await transferLogs(client, { tokens, to }, start, end)) {
      let tx = read.get(log.txHash) ?? params.known?.get(log.txHash.toLowerCase());
      if (tx === undefined) {
        const fetched = await getTransaction(client, { hash: log.txHash });
        tx = { from: getAddress(fetched.from), input: fetched.input.slice(2).toLowerCase() };
        read.set(log.txHash, tx);
      }
      found.push({ ...log, txFrom: tx.from, txInput: tx.input });
    }
  }
  return found;
}

/**
 * Every Transfer of `tokens` from one of `from` to one of `to` in `[fromBlock, toBlock]`, in chain order
 * (the filter takes every pair, so a caller matches pairs itself). An endpoint that refuses the range is
 * asked in smaller parts by its transport.
 */
export async function readOutgoingTransfers(params: {
  client: AnyClient;
  tokens: readonly Address[];
  from: readonly Address[];
  to: readonly Address[];
  fromBlock: bigint;
  toBlock: bigint;
}): Promise<OutgoingTransferLog[]> {
  const { tokens, from, to } = params;
  if (tokens.length === 0 || from.length === 0 || to.length === 0 || params.fromBlock > params.toBlock) {
    return [];
  }
  return transferLogs(params.client, { tokens, from, to }, params.fromBlock, params.toBlock);
}
