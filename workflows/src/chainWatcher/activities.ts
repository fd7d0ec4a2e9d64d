/**
 * The chain watcher's activities: a tick reads the new blocks once for every checkout and quote waiting
 * on the chain, records what arrived and hands it to the reactions (tick.ts, handOver.ts; what follows
 * each fact: workflows/src/reactions.ts); while a shopper pays from a phone, the
 * watcher then waits for the chain's next block, asking for the head about once a block time, so the
 * payment is seen within a block or two of being mined, at a cost that follows blocks, not sessions.
 *
 * A tick that fails notes why (its kind, the message with URLs redacted) and the provider's head when it
 * got that far, so /health shows a watcher that cannot read and how far behind it falls.
 */
import { classifyRpcError } from '@checkout/chain';
import { redactUrlsIn } from '@checkout/core';
import { hasPayerlessSessionWaiting, recordWatchFailure } from '@checkout/db';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { type Address, BaseError, getAddress } from 'viem';
import { getBlockNumber } from 'viem/actions';
import { withQueuedCalls } from '../handOver/fromActivity.ts';
import type { WorkerResources } from '../resources.ts';
import type { ChainReactions } from './facts.ts';
import { handOverTransfers } from './handOver.ts';
import type { WatchTick } from './shared.ts';
import { readNewBlocks } from './tick.ts';

/** What the watcher needs. */
export interface ChainWatcherActivityDeps extends Pick<WorkerResources, 'db' | 'chains' | 'tokens'> {
  checkout: {
    pollIntervalMs: number;
    scanIntervalMs?: number;
    /** A session's life without a timer, and the grace after its end during which it may still be paid. */
    sessionTtlMinutes?: number;
    graceMinutes?: number;
  };
}

/** The block time of a chain whose block time is not configured, while following it. */
const defaultBlockTimeMs = 1_000;
/** The shortest time between two asks for the head while following a chain. */
const minPollMs = 100;

/** Builds the watcher's activities; `reactions` are what follows the facts it records (workflows/src/reactions.ts). */
export function createChainWatcherActivities(deps: ChainWatcherActivityDeps, reactions: ChainReactions) {
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
      const seen: { head?: bigint; headAt?: Date } = {};
      try {
        // The reactions to the transfers read queue their workflow calls: made once both steps are over.
        const { done, signalled } = await withQueuedCalls(db, async () => {
          const done = await readNewBlocks({ db, chain, tokens, windows, seen, reactions });
          return { done, signalled: await handOverTransfers(db, reactions, input.chainId) };
        });
        const follow =
          !done.behind &&
          (chain.blockTimeMs ?? defaultBlockTimeMs) < interval &&
          (await hasPayerlessSessionWaiting(db, { chainId: input.chainId, ...windows }));
        return {
          nextBlock: done.nextBlock.toString(),
          headBlock: done.head.toString(),
          readTo: done.readTo.toString(),
          recorded: done.recorded,
          signalled,
          // Behind the head: the next range at once.
          sleepMs: done.behind ? 1 : interval,
          follow,
        };
      } catch (error) {
        await noteFailure(input.chainId, error, seen.head, seen.headAt);
        throw error;
      }
    },

    /** The reactions to the blocks a tick recorded (`blocks.read`): run after each tick. */
    async reactToBlocksRead(input: { chainId: number }): Promise<void> {
      await reactions.blocksRead(input.chainId);
    },

    /**
     * Waits (up to `maxMs`) for a block after `after`, asking for the head (`eth_blockNumber`) in step with
     * the chain: from `lastSeenAt` (when the previous block was seen) it waits most of a block time, then
     * asks every fifth of one until the block is there — about two calls a block once in step, however many
     * sessions wait. Returns early when asking fails (the next tick notes the failure).
     */
    async awaitNewBlock(input: {
      chainId: number;
      after: string;
      maxMs: number;
      lastSeenAt?: number;
    }): Promise<{ head: string | null; seenAt: number | null }> {
      const { chain } = chainOf(input.chainId);
      const context = Context.current();
      const blockTime = chain.blockTimeMs ?? defaultBlockTimeMs;
      const often = Math.max(minPollMs, Math.round(blockTime / 5));
      const after = BigInt(input.after);
      const deadline = Date.now() + input.maxMs;
      let next =
        input.lastSeenAt === undefined
          ? Date.now() + often
          : Math.max(Date.now() + minPollMs, input.lastSeenAt + Math.round(blockTime * 0.75));
      for (;;) {
        const wait = Math.min(next, deadline) - Date.now();
        if (wait > 0) await context.sleep(wait);
        context.heartbeat();
        if (Date.now() >= deadline) return { head: null, seenAt: null };
        let head: bigint;
        try {
          head = await getBlockNumber(chain.client, { cacheTime: 0 });
        } catch {
          return { head: null, seenAt: null };
        }
        if (head > after) return { head: head.toString(), seenAt: Date.now() };
        next = Date.now() + often;
      }
    },
  };

  /** Notes why a tick failed, for /health; never hides the failure itself. */
  async function noteFailure(
    chainId: number,
    error: unknown,
    head: bigint | undefined,
    headSeenAt: Date | undefined,
  ): Promise<void> {
    if (error instanceof ApplicationFailure && error.nonRetryable) return;
    const kind = error instanceof BaseError ? classifyRpcError(error).kind : 'internal';
    const message = redactUrlsIn(
      error instanceof BaseError
        ? [error.shortMessage, error.details].filter(Boolean).join(' ')
        : String((error as Error)?.message ?? error),
    );
    await recordWatchFailure(db, { chainId, kind, message, headBlock: head, headSeenAt }).catch(
      (e: unknown) =>
        Context.current().log.warn('could not note the watcher’s failure', { chainId, error: String(e) }),
    );
  }
}

export type ChainWatcherActivities = ReturnType<typeof createChainWatcherActivities>;
