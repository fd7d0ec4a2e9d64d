/**
 * How each configured chain's watcher is doing, as /health shows it and the console's home reads it: its
 * status, how many blocks it is behind the chain's head, its last tick and its failure.
 */
import { listChainWatchHealth } from '@checkout/db';
import type { AppDeps } from './context.ts';

/** A chain watcher as /health shows it. */
interface WatcherHealth {
  chain_id: number;
  name: string;
  /**
   * `ok`; `failing` while its ticks fail (`error` says why); `behind` when it is more than
   * CHAIN_WATCHER_MAX_LAG_BLOCKS behind the provider's head; `stalled` when it has not ticked for a
   * minute and several intervals; `starting` before its first tick.
   */
  status: 'ok' | 'failing' | 'behind' | 'stalled' | 'starting';
  /** The best head an endpoint gave when last asked (also by a tick that failed), and when that was. */
  head_block: string | null;
  head_seen_at: string | null;
  /** The first block whose logs are not known complete (the newer ones are read again until confirmed). */
  next_block: string | null;
  /**
   * Blocks between the chain's head and the newest block read. The head is the best any endpoint gave;
   * when it was seen more than two scan intervals ago (ticks fail, or take long: slow or rate-limited
   * calls), the blocks the chain made since are added at its block time, and `lag_estimated` is true.
   */
  lag_blocks: number | null;
  lag_estimated: boolean;
  /** When it last recorded progress. */
  last_tick_at: string | null;
  error: { kind: string; message: string; since: string; at: string } | null;
}

/** Each configured chain's watcher: where it is, how far behind the head, whether its ticks fail. */
export async function watcherHealth(deps: AppDeps): Promise<WatcherHealth[]> {
  const rows = new Map((await listChainWatchHealth(deps.db.kysely)).map((r) => [r.chain_id, r]));
  const stallMs = Math.max(60_000, 6 * deps.config.checkout.scanIntervalMs);
  return deps.config.chains.map((chain) => {
    const row = rows.get(chain.chainId);
    const status = row?.status ?? null;
    const head = status?.head_block ?? null;
    const readTo = status?.read_to_block ?? (row?.next_block ? String(BigInt(row.next_block) - 1n) : null);
    const lag = head !== null && readTo !== null ? BigInt(head) - BigInt(readTo) : null;
    const failing = status?.failing_since ?? null;
    const unseenMs = status?.head_at ? Date.now() - status.head_at.getTime() : 0;
    const estimated = lag !== null && unseenMs > 2 * deps.config.checkout.scanIntervalMs;
    const lagBlocks =
      lag === null
        ? null
        : Number(lag > 0n ? lag : 0n) + (estimated ? Math.floor(unseenMs / chain.blockTimeMs) : 0);
    const state: WatcherHealth['status'] = !row
      ? 'starting'
      : failing !== null
        ? 'failing'
        : lagBlocks !== null && lagBlocks > deps.config.chainWatch.maxLagBlocks
          ? 'behind'
          : !row.updated_at || Date.now() - row.updated_at.getTime() > stallMs
            ? row.updated_at
              ? 'stalled'
              : 'starting'
            : 'ok';
    return {
      chain_id: chain.chainId,
      name: chain.name,
      status: state,
      head_block: head,
      head_seen_at: status?.head_at?.toISOString() ?? null,
      next_block: row?.next_block ?? null,
      lag_blocks: lagBlocks,
      lag_estimated: estimated,
      last_tick_at: row?.updated_at?.toISOString() ?? null,
      error:
        failing !== null && status
          ? {
              kind: status.error_kind ?? 'internal',
              message: status.error_message ?? '',
              since: failing.toISOString(),
              at: (status.error_at ?? failing).toISOString(),
            }
          : null,
    };
  });
}
