/**
 * The sandbox's funded wallet: the key `SANDBOX_PAYER_PRIVATE_KEY` names on a public test network, and on a
 * dev chain its last funded shopper (account #5, holding every dev token). It pays as a shopper's wallet
 * does: it signs the transaction itself and broadcasts it; its sends are one at a time per chain.
 */
import { broadcastSignedTransaction, type ChainClient, devShoppers } from '@checkout/chain';
import { ApiError } from '@checkout/core';
import type { Address, Hex, PrivateKeyAccount, TransactionReceipt } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  estimateFeesPerGas,
  estimateGas,
  getTransactionCount,
  waitForTransactionReceipt,
} from 'viem/actions';
import { isDevChain } from './devChain.ts';
import type { SandboxDeps } from './shared.ts';

/** The wallet that pays on `chain`, or a 409 saying how to give the sandbox one. */
export async function sandboxPayer(
  deps: Pick<SandboxDeps, 'payerKey'>,
  chain: ChainClient,
): Promise<PrivateKeyAccount> {
  if (deps.payerKey) return privateKeyToAccount(deps.payerKey);
  if (await isDevChain(chain)) return privateKeyToAccount(devShoppers[devShoppers.length - 1]!.privateKey);
  throw new ApiError(
    'conflict',
    `The sandbox has no wallet on ${chain.name} (chain id ${chain.chainId}): set SANDBOX_PAYER_PRIVATE_KEY to a wallet funded with its test tokens`,
  );
}

/** The last send on each chain: the next waits for it (one pending nonce at a time). */
const sending = new Map<number, Promise<unknown>>();

/**
 * Signs and broadcasts `transaction` from `payer`, and waits for it to be mined; with `gas` given it is
 * sent as is (a transaction meant to revert is mined, not refused by an estimate).
 */
export function sendFromPayer(
  chain: ChainClient,
  payer: PrivateKeyAccount,
  transaction: { to: Address; data: Hex; gas?: bigint },
): Promise<TransactionReceipt> {
  const client = chain.client;
  const send = async () => {
    const [nonce, fees, gas] = await Promise.all([
      getTransactionCount(client, { address: payer.address, blockTag: 'pending' }),
      estimateFeesPerGas(client),
      transaction.gas ??
        estimateGas(client, { account: payer.address, to: transaction.to, data: transaction.data }),
    ]);
    const serialized = await payer.signTransaction({
      chainId: chain.chainId,
      type: 'eip1559',
      nonce,
      gas,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      to: transaction.to,
      data: transaction.data,
      value: 0n,
    });
    const hash = await broadcastSignedTransaction({ client, serialized });
    return waitForTransactionReceipt(client, { hash, timeout: 120_000, pollingInterval: 100 });
  };
  const next = (sending.get(chain.chainId) ?? Promise.resolve()).then(send, send);
  sending.set(
    chain.chainId,
    next.catch(() => undefined),
  );
  return next;
}
