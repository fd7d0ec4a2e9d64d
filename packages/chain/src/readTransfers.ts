/**
 * Reads the ERC-20 Transfer logs of several tokens into several addresses over a block range, with the
 * sender of each log's transaction (the payer of a swap, whose tokens a pool sends): what a chain's
 * watcher records once for every open checkout.
 */
import {
  type Address,
  type Chain,
  type Client,
  getAbiItem,
  getAddress,
  type Hash,
  type Transport,
} from 'viem';
import { getLogs, getTransaction } from 'viem/actions';
import { erc20Abi } from './erc20.ts';

/** One Transfer log into a watched address. */
export interface TransferLog {
  txHash: Hash;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hash;
  token: Address;
  from: Address;
  /** The transaction's sender. */
  txFrom: Address;
  to: Address;
  amount: bigint;
}

const transferEvent = getAbiItem({ abi: erc20Abi, name: 'Transfer' });

/** Most addresses per `eth_getLogs` filter (an OR of topics); providers cap the filter's size. */
const addressesPerCall = 100;

/**
 * Every Transfer of `tokens` into `to` in `[fromBlock, toBlock]`, in chain order. One `eth_getLogs` per
 * window of `maxBlockRange` blocks and chunk of 100 addresses (an endpoint that refuses the window is
 * asked in smaller parts by its transport), and one `eth_getTransactionByHash` per transaction found
 * whose sender is not in `knownSenders` (transactions read before, by lowercase hash).
 */
export async function readTransfers(params: {
  client: Client<Transport, Chain | undefined>;
  tokens: readonly Address[];
  to: readonly Address[];
  fromBlock: bigint;
  toBlock: bigint;
  maxBlockRange?: number;
  knownSenders?: ReadonlyMap<string, Address>;
}): Promise<TransferLog[]> {
  const { client, tokens, to } = params;
  if (tokens.length === 0 || to.length === 0 || params.fromBlock > params.toBlock) return [];
  const range = BigInt(params.maxBlockRange ?? 2000);
  const found: TransferLog[] = [];
  const senders = new Map<Hash, Address>();
  for (let start = params.fromBlock; start <= params.toBlock; start += range) {
    const end = start + range - 1n < params.toBlock ? start + range - 1n : params.toBlock;
    for (let i = 0; i < to.length; i += addressesPerCall) {
      const logs = await getLogs(client, {
        address: [...tokens],
        event: transferEvent,
        args: { to: to.slice(i, i + addressesPerCall) as Address[] },
        fromBlock: start,
        toBlock: end,
        strict: true,
      });
      for (const log of logs) {
        if (log.removed || log.blockNumber === null || log.transactionHash === null) continue;
        if (log.logIndex === null || log.blockHash === null) continue;
        let txFrom =
          senders.get(log.transactionHash) ?? params.knownSenders?.get(log.transactionHash.toLowerCase());
        if (txFrom === undefined) {
          txFrom = getAddress((await getTransaction(client, { hash: log.transactionHash })).from);
          senders.set(log.transactionHash, txFrom);
        }
        found.push({
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
          token: getAddress(log.address),
          from: log.args.from,
          txFrom,
          to: log.args.to,
          amount: log.args.value,
        });
      }
    }
  }
  found.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  return found;
}
