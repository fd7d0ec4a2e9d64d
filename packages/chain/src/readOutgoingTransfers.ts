/**
 * Reads the ERC-20 Transfer logs of several tokens out of several addresses to several others over a block
 * range: what a chain's watcher reads once a tick to recognise the refunds merchants' wallets pay.
 */
import { type Address, type Chain, type Client, getAbiItem, type Hash, type Transport } from 'viem';
import { getLogs } from 'viem/actions';
import { erc20Abi } from './erc20.ts';

/** One Transfer log out of a watched address. */
export interface OutgoingTransferLog {
  txHash: Hash;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hash;
  token: Address;
  from: Address;
  to: Address;
  amount: bigint;
}

const transferEvent = getAbiItem({ abi: erc20Abi, name: 'Transfer' });

/** Most addresses per topic of one `eth_getLogs` filter; providers cap the filter's size. */
const addressesPerTopic = 100;

/**
 * Every Transfer of `tokens` from one of `from` to one of `to` in `[fromBlock, toBlock]`, in chain order
 * (the filter takes every pair, so a caller matches pairs itself). One `eth_getLogs` per chunk of 100
 * senders and 100 receivers; an endpoint that refuses the range is asked in smaller parts by its transport.
 */
export async function readOutgoingTransfers(params: {
  client: Client<Transport, Chain | undefined>;
  tokens: readonly Address[];
  from: readonly Address[];
  to: readonly Address[];
  fromBlock: bigint;
  toBlock: bigint;
}): Promise<OutgoingTransferLog[]> {
  const { client, tokens, from, to } = params;
  if (tokens.length === 0 || from.length === 0 || to.length === 0 || params.fromBlock > params.toBlock) {
    return [];
  }
  const found: OutgoingTransferLog[] = [];
  for (let i = 0; i < from.length; i += addressesPerTopic) {
    for (let j = 0; j < to.length; j += addressesPerTopic) {
      const logs = await getLogs(client, {
        address: [...tokens],
        event: transferEvent,
        args: {
          from: from.slice(i, i + addressesPerTopic) as Address[],
          to: to.slice(j, j + addressesPerTopic) as Address[],
        },
        fromBlock: params.fromBlock,
        toBlock: params.toBlock,
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
          token: log.address,
          from: log.args.from,
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
