/**
 * What the sandbox's outcome moves share: their dependencies, the refusal of objects on live networks, the
 * wait for what a move sets off, and the shape of a transaction they sent.
 */
import type { ChainClient, ChainClients } from '@checkout/chain';
import { ApiError, type SandboxTransaction, type TokenRegistry } from '@checkout/core';
import type { Database, SecretBox } from '@checkout/db';
import type { Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import type { Hex, TransactionReceipt } from 'viem';

/** What the sandbox's moves use. */
export interface SandboxDeps {
  db: Kysely<Database>;
  chains: ChainClients;
  tokens: TokenRegistry;
  /** Absent when the service runs without Temporal: moves that need a workflow answer 503. */
  temporal: Client | undefined;
  taskQueue: string;
  secrets: SecretBox;
  publicBaseUrl: string;
  /** The wallet that pays on a public test network (`SANDBOX_PAYER_PRIVATE_KEY`); a dev chain needs none. */
  payerKey: Hex | undefined;
}

/** Refuses an object on a live network: the sandbox makes outcomes happen on test networks only. */
export function refuseLiveNetwork(what: string, token: { network: string; blockchain: string }): void {
  if (token.network === 'testnet') return;
  throw new ApiError(
    'conflict',
    `This ${what} is on a live network (${token.blockchain} ${token.network}): the sandbox makes outcomes happen on test networks only`,
  );
}

/** The configured chain `chainId`, or a 409 saying it has no RPC endpoint here. */
export function chainOf(deps: Pick<SandboxDeps, 'chains'>, chainId: number): ChainClient {
  const chain = deps.chains.get(chainId);
  if (!chain) throw new ApiError('conflict', `Chain ${chainId} has no RPC endpoint on this service`);
  return chain;
}

/** How long a move waits for what it set off (a resolution, a refund's transfer recognised). */
const settleTimeoutMs = 120_000;
const settlePollMs = 100;

/**
 * Reads until `done` holds; a 409 naming `what` when it does not within the bound (the move's
 * transactions stand: the outcome may still come).
 */
export async function settled<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  const deadline = Date.now() + settleTimeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new ApiError('conflict', `${what} did not happen within ${settleTimeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, settlePollMs));
  }
}

/** A mined transaction as the sandbox reports it. */
export function sentTransaction(receipt: TransactionReceipt): SandboxTransaction {
  return {
    tx_hash: receipt.transactionHash.toLowerCase(),
    block_number: receipt.blockNumber.toString(),
    block_hash: receipt.blockHash.toLowerCase(),
    status: receipt.status,
  };
}
