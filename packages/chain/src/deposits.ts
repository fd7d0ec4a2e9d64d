/**
 * What one transaction brought to a deposit address: the token's Transfers into it, summed, and the
 * account to return them to. The quote family reads the transactions its chain's watcher recorded (or a
 * direct read found) with it, and the execute endpoint reads one reported transaction. Only confirmed
 * transfers count.
 */
import {
  type Address,
  getAddress,
  type Hash,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  zeroAddress,
} from 'viem';
import { getBlock, getBlockNumber, getTransactionReceipt } from 'viem/actions';
import { type AnyClient, erc20Transfers, sameHex, unlessError } from './chainReads.ts';
import { getConfirmations } from './confirmations.ts';

/** The quote token that one transaction brought to the deposit address. */
export interface DepositTransfer {
  /** Lower-case transaction hash. */
  txHash: string;
  /** Token base units: every Transfer of the token into the address in this transaction. */
  amount: bigint;
  /**
   * Where the tokens go back: the sender of the first Transfer, or the transaction's sender when a
   * pool sent them in a swap that sender paid for with another token.
   */
  returnAddress: Address;
  blockNumber: bigint;
}

/** The deposit a mined transaction made into `to` in `token`; undefined when it made none (or reverted). */
export function depositOfReceipt(
  receipt: TransactionReceipt,
  token: Address,
  to: Address,
): DepositTransfer | undefined {
  if (receipt.status !== 'success') return undefined;
  const transfers = erc20Transfers(receipt);
  const incoming = transfers.filter((t) => sameHex(t.address, token) && sameHex(t.args.to, to));
  const first = incoming[0];
  if (!first) return undefined;
  const amount = incoming.reduce((sum, t) => sum + t.args.value, 0n);
  const sender = receipt.from;
  // A swap straight into the address: the pool sends the tokens, the transaction's sender pays it another.
  const swap =
    !sameHex(first.args.from, sender) &&
    transfers.some((t) => sameHex(t.args.from, sender) && !sameHex(t.address, token));
  const returnAddress = getAddress(swap ? sender : first.args.from);
  // Minted tokens have no sender to return them to.
  if (amount <= 0n || sameHex(returnAddress, zeroAddress)) return undefined;
  return {
    txHash: receipt.transactionHash.toLowerCase(),
    amount,
    returnAddress,
    blockNumber: receipt.blockNumber,
  };
}

/** What one reported transaction brought to the deposit address. */
export type DepositReading =
  | { status: 'confirmed'; deposit: DepositTransfer }
  | { status: 'pending'; confirmations: number }
  /** Not mined (or unknown), reverted, or no Transfer of the token into the address. */
  | { status: 'none' };

/** Reads one transaction: its deposit into `to`, once it has `confirmations` (the block counting as one). */
export async function readDeposit(params: {
  client: AnyClient;
  token: Address;
  to: Address;
  txHash: Hash;
  confirmations: number;
}): Promise<DepositReading> {
  const receipt = await getTransactionReceipt(params.client, { hash: params.txHash }).catch(
    unlessError(TransactionReceiptNotFoundError),
  );
  if (!receipt) return { status: 'none' };
  const confirmations = await getConfirmations({ client: params.client, blockNumber: receipt.blockNumber });
  if (confirmations < Math.max(1, params.confirmations)) return { status: 'pending', confirmations };
  const deposit = depositOfReceipt(receipt, params.token, params.to);
  return deposit ? { status: 'confirmed', deposit } : { status: 'none' };
}

/** The first block whose timestamp is at or after `time` (latest + 1 when none is yet). */
export async function firstBlockAtOrAfter(client: AnyClient, time: Date): Promise<bigint> {
  const target = BigInt(Math.floor(time.getTime() / 1000));
  const latest = await getBlockNumber(client, { cacheTime: 0 });
  const stamp = async (n: bigint) => (await getBlock(client, { blockNumber: n })).timestamp;
  if ((await stamp(latest)) < target) return latest + 1n;
  let lo = 0n;
  let hi = latest;
  // At most ~64 lookups: the range halves each time.
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if ((await stamp(mid)) < target) lo = mid + 1n;
    else hi = mid;
  }
  return lo;
}
