/**
 * The chain watcher's activity: a tick reads the new blocks once for every checkout and quote waiting
 * on the chain and tells them what arrived (tick.ts, handOver.ts).
 *
 * A tick that fails notes why (its kind, the message with URLs redacted) and the provider's head when it
 * got that far, so /health shows a watcher that cannot read and how far behind it falls.
 */
import { type ChainClients, classifyRpcError } from '@checkout/chain';
import { redactUrlsIn, type TokenRegistry } from '@checkout/core';
import { type Db, recordWatchFailure } from '@checkout/db';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { type Address, BaseError, getAddress } from 'viem';
import { handOverTransfers } from './handOver.ts';
import type { WatchTick } from './shared.ts';
import { readNewBlocks } from './tick.ts';

/** What the watcher needs. */
export interface ChainWatcherActivityDeps {
  db: Db;
  chains: ChainClients;
  tokens: TokenRegistry;
  checkout: {
    pollIntervalMs: number;
    scanIntervalMs?: number;
    /** A session's life without a timer, and the grace after its end during which it may still be paid. */
    sessionTtlMinutes?: number;
    graceMinutes?: number;
  };
}

export function createChainWatcherActivities(deps: ChainWatcherActivityDeps) {
  const db = deps.db.kysely;
  /** The scan window of a session (the checkout's own defaults when unset). */
  const windows = {
    sessionTtlMinutes: deps.checkout.sessionTtlMinutes ?? 1440,
    graceMinutes: deps.checkout.graceMinutes ?? 60,
  };
  const interval = deps.checkout.scanIntervalMs ?? deps.checkout.pollIntervalMs;
  const chainOf = (chainId: number) => {
    const chain = deps.chains.get(chainId);
    const info = deps.tokens.chainById(chainId);
    if (!chain || !info) {
      throw ApplicationFailure.nonRetryable(`chain ${chainId} is not configured`, 'ChainNotConfigured');
    }
    return { chain, tokens: [...new Set(info.paymentTokens.map((t) => getAddress(t.address)))] as Address[] };
  };

  return {
    /** One tick of the chain's watcher: read, record, tell. */
    async watchChainTick(input: { chainId: number }): Promise<WatchTick> {
      const { chain, tokens } = chainOf(input.chainId);
      const seen: { head?: bigint } = {};
      try {
        const done = await readNewBlocks({ db, chain, tokens, windows, seen });
        const activity = Context.current();
        const log = activity.log;
        const signalled = await handOverTransfers(
          {
            db,
            client: activity.client,
            taskQueue: activity.info.taskQueue,
            log: {
              info: (fields, message) => log.info(message, fields as Record<string, unknown>),
              warn: (fields, message) => log.warn(message, fields as Record<string, unknown>),
            },
          },
          input.chainId,
          windows,
        );
        return {
          nextBlock: done.nextBlock.toString(),
          headBlock: done.head.toString(),
          readTo: done.readTo.toString(),
          recorded: done.recorded,
          signalled,
          // Behind the head: the next range at once.
          sleepMs: done.behind ? 1 : interval,
        };
      } catch (error) {
        await noteFailure(input.chainId, error, seen.head);
        throw error;
      }
    },
  };

  /** Notes why a tick failed, for /health; never hides the failure itself. */
  async function noteFailure(chainId: number, error: unknown, head: bigint | undefined): Promise<void> {
    if (error instanceof ApplicationFailure && error.nonRetryable) return;
    const kind = error instanceof BaseError ? classifyRpcError(error).kind : 'internal';
    const message = redactUrlsIn(
      error instanceof BaseError
        ? [error.shortMessage, error.details].filter(Boolean).join(' ')
        : String((error as Error)?.message ?? error),
    );
    await recordWatchFailure(db, { chainId, kind, message, headBlock: head }).catch((e: unknown) =>
      Context.current().log.warn('could not note the watcher’s failure', { chainId, error: String(e) }),
    );
  }
}

export type ChainWatcherActivities = ReturnType<typeof createChainWatcherActivities>;
