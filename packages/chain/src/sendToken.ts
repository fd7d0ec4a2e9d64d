/**
 * Treasury token sends for onramps, built for exactly-once delivery: the transaction is signed first
 * and its hash returned, so the caller records the hash before broadcasting; a retry rebroadcasts the
 * same signed bytes, which the chain can include at most once (one nonce, one hash).
 */
import {
  type Address,
  Eip1559FeesNotSupportedError,
  encodeFunctionData,
  type Hash,
  type Hex,
  keccak256,
  type LocalAccount,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  estimateFeesPerGas,
  estimateGas,
  getChainId,
  getTransaction,
  getTransactionCount,
  getTransactionReceipt,
  sendRawTransaction,
} from 'viem/actions';
import { type AnyClient, unlessError } from './chainReads.ts';
import { erc20Abi, erc20NoReturnAbi } from './erc20.ts';

/** A signed, not yet broadcast token transfer. */
export interface PreparedTokenTransfer {
  /** The signed transaction, to broadcast (and rebroadcast) as is. */
  serialized: Hex;
  /** keccak-256 of `serialized`: the hash the chain will know it by. */
  hash: Hash;
  nonce: number;
  from: Address;
  chainId: number;
}

/** What a treasury send needs. */
export interface PrepareTokenTransferParameters {
  client: AnyClient;
  /** A private key, or any local signer (e.g. one backed by a key vault). */
  account: Hex | LocalAccount;
  token: Address;
  to: Address;
  /** In the token's base units. */
  amount: bigint;
  /** USDT-style token whose `transfer` returns nothing. */
  noReturnTransfer?: boolean;
  /** Reuse a nonce, e.g. to replace a stuck transaction; defaults to the account's next pending nonce. */
  nonce?: number;
  /** Fixed gas limit; by default the estimate plus a margin. */
  gas?: bigint;
}

/** Headroom over the estimate: token transfers cost more when the recipient's balance slot is still empty. */
const gasMarginPercent = 25n;

/** Builds and signs an ERC-20 `transfer` with nonce, gas and fees read from the chain, without sending it. */
export async function prepareTokenTransfer(
  params: PrepareTokenTransferParameters,
): Promise<PreparedTokenTransfer> {
  const { client, token, to, amount } = params;
  if (amount <= 0n) throw new RangeError('amount must be positive');
  const account = typeof params.account === 'string' ? privateKeyToAccount(params.account) : params.account;
  const data = encodeFunctionData({
    abi: params.noReturnTransfer === true ? erc20NoReturnAbi : erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  });

  const [chainId, nonce, gas, fees] = await Promise.all([
    getChainId(client),
    params.nonce ?? getTransactionCount(client, { address: account.address, blockTag: 'pending' }),
    params.gas ??
      estimateGas(client, { account: account.address, to: token, data }).then(
        (estimate) => (estimate * (100n + gasMarginPercent) + 99n) / 100n,
      ),
    feesFor(client),
  ]);
  // Signing for the RPC's chain while the client claims another would send treasury funds on the wrong network.
  if (client.chain !== undefined && client.chain.id !== chainId) {
    throw new Error(`RPC serves chain ${chainId} but the client is configured for chain ${client.chain.id}`);
  }

  const base = { chainId, nonce, gas, to: token, data, value: 0n } as const;
  const serialized = await account.signTransaction(
    'gasPrice' in fees
      ? { ...base, type: 'legacy', gasPrice: fees.gasPrice }
      : { ...base, type: 'eip1559', ...fees },
  );
  return { serialized, hash: keccak256(serialized), nonce, from: account.address, chainId };
}

/** EIP-1559 fees where the chain has a base fee, else a legacy gas price. */
async function feesFor(
  client: AnyClient,
): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint }> {
  try {
    return await estimateFeesPerGas(client, { chain: client.chain, type: 'eip1559' });
  } catch (error) {
    if (!(error instanceof Eip1559FeesNotSupportedError)) throw error;
    return estimateFeesPerGas(client, { chain: client.chain, type: 'legacy' });
  }
}

/** Node messages that mean "this exact transaction is already in my pool". */
const alreadyKnownPattern = /already known|known transaction|already imported|already exists/i;

/**
 * Broadcasts a signed transaction and returns its hash. Sending it again is harmless: when the node
 * refuses because it already has this transaction (pooled or mined, e.g. "already known", "nonce too
 * low"), that is success; any other refusal is rethrown unless the node can show the transaction.
 */
export async function broadcastSignedTransaction(params: {
  client: AnyClient;
  serialized: Hex;
}): Promise<Hash> {
  const { client, serialized } = params;
  const hash = keccak256(serialized);
  try {
    const sent = await sendRawTransaction(client, { serializedTransaction: serialized });
    if (sent.toLowerCase() !== hash.toLowerCase()) {
      throw new Error(`node reports hash ${sent} for a transaction whose hash is ${hash}`);
    }
    return hash;
  } catch (error) {
    if (error instanceof Error && alreadyKnownPattern.test(error.message)) return hash;
    // "nonce too low" may come from this very transaction, mined; a rival at the same nonce is not found.
    const known = await getTransaction(client, { hash }).then(
      () => true,
      () => false,
    );
    if (known) return hash;
    throw error;
  }
}

/** Where a transaction is: never seen, waiting in a pool, mined successfully, or mined and reverted. */
export type TransactionState = 'unknown' | 'pending' | 'mined' | 'reverted';

/** Looks a transaction up by hash; mined means at least one confirmation, not finality. */
export async function getTransactionState(params: {
  client: AnyClient;
  hash: Hash;
}): Promise<TransactionState> {
  const { client, hash } = params;
  const [receipt, transaction] = await Promise.all([
    getTransactionReceipt(client, { hash }).catch(unlessError(TransactionReceiptNotFoundError)),
    getTransaction(client, { hash }).catch(unlessError(TransactionNotFoundError)),
  ]);
  if (receipt !== undefined) return receipt.status === 'success' ? 'mined' : 'reverted';
  return transaction === undefined ? 'unknown' : 'pending';
}
