/**
 * How each chain's watcher is doing (`chain_watch_status`): written by every tick, the failed ones too,
 * and read by /health and /metrics with the watcher's position.
 */
import type { Kysely, Selectable } from 'kysely';
import type { ChainWatchStatusTable } from '../checkoutSchema.ts';
import type { Database } from '../schema.ts';

/** A watcher as health sees it: its position (when it ever recorded one) and its status. */
export interface ChainWatchHealthRow {
  chain_id: number;
  /** The next block whose logs are not known complete; null before the first tick that recorded. */
  next_block: string | null;
  /** When the watcher last recorded progress. */
  updated_at: Date | null;
  status: Omit<Selectable<ChainWatchStatusTable>, 'chain_id'> | null;
}

/**
 * Notes a failed tick: its kind and message (URLs already redacted), since when ticks fail, and the
 * provider's head when the tick still learnt it.
 */
export async function recordWatchFailure(
  db: Kysely<Database>,
  input: {
    chainId: number;
    kind: string;
    message: string;
    headBlock?: bigint | undefined;
    /** When an endpoint gave `headBlock` (by default, now). */
    headSeenAt?: Date | undefined;
  },
): Promise<void> {
  const now = new Date();
  const head =
    input.headBlock === undefined
      ? {}
      : { head_block: input.headBlock.toString(), head_at: input.headSeenAt ?? now };
  const error = { error_kind: input.kind, error_message: input.message.slice(0, 2_000), error_at: now };
  await db
    .insertInto('chain_watch_status')
    .values({ chain_id: input.chainId, failing_since: now, ...error, ...head })
    .onConflict((oc) =>
      oc.column('chain_id').doUpdateSet((eb) => ({
        ...error,
        ...head,
        failing_since: eb.fn.coalesce('chain_watch_status.failing_since', eb.val(now)),
      })),
    )
    .execute();
}

/** Every watcher's position and status, by chain id. */
export async function listChainWatchHealth(db: Kysely<Database>): Promise<ChainWatchHealthRow[]> {
  const [positions, statuses] = await Promise.all([
    db.selectFrom('chain_watch').select(['chain_id', 'next_block', 'updated_at']).execute(),
    db.selectFrom('chain_watch_status').selectAll().execute(),
  ]);
  const rows = new Map<number, ChainWatchHealthRow>();
  for (const p of positions) rows.set(p.chain_id, { ...p, status: null });
  for (const { chain_id, ...status } of statuses) {
    const row = rows.get(chain_id) ?? { chain_id, next_block: null, updated_at: null, status: null };
    row.status = status;
    rows.set(chain_id, row);
  }
  return [...rows.values()].sort((a, b) => a.chain_id - b.chain_id);
}

/** The newest block the chain's watcher read (its newest blocks are read again until confirmed), if it read any. */
export async function findReadToBlock(db: Kysely<Database>, chainId: number): Promise<bigint | undefined> {
  const row = await db
    .selectFrom('chain_watch_status')
    .select('read_to_block')
    .where('chain_id', '=', chainId)
    .executeTakeFirst();
  return row?.read_to_block == null ? undefined : BigInt(row.read_to_block);
}
