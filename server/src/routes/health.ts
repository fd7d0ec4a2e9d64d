/** Liveness and readiness, and the Prometheus scrape endpoint. */

import { listChainWatches } from '@checkout/db';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Routes } from './declare.ts';
import { json } from './docs.ts';

/** `check`'s answer within `timeoutMs`, or undefined when it failed or took longer. */
async function within<T>(check: () => Promise<T>, timeoutMs = 2_000): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

async function probe(check: () => Promise<void>, timeoutMs = 2_000): Promise<'ok' | 'unavailable'> {
  const done = await within(async () => {
    await check();
    return true;
  }, timeoutMs);
  return done ? 'ok' : 'unavailable';
}

/** A chain watcher as /health shows it. */
interface WatcherHealth {
  chain_id: number;
  name: string;
  /** `ok`; `stalled` when it has not ticked for a minute and several intervals; `starting` before its first tick. */
  status: 'ok' | 'stalled' | 'starting';
  head_block: string | null;
  next_block: string | null;
  lag_blocks: number | null;
  last_tick_at: string | null;
}

/** Each configured chain's watcher: where it is, how far behind the head, when it last ticked. */
async function watcherHealth(deps: AppDeps): Promise<WatcherHealth[]> {
  const rows = new Map((await listChainWatches(deps.db.kysely)).map((r) => [r.chain_id, r]));
  const stallMs = Math.max(60_000, 6 * deps.config.checkout.scanIntervalMs);
  return deps.config.chains.map((chain) => {
    const row = rows.get(chain.chainId);
    if (!row) {
      return {
        chain_id: chain.chainId,
        name: chain.name,
        status: 'starting',
        head_block: null,
        next_block: null,
        lag_blocks: null,
        last_tick_at: null,
      };
    }
    const lag = BigInt(row.head_block) - BigInt(row.next_block) + 1n;
    return {
      chain_id: chain.chainId,
      name: chain.name,
      status: Date.now() - row.updated_at.getTime() > stallMs ? 'stalled' : 'ok',
      head_block: row.head_block,
      next_block: row.next_block,
      lag_blocks: Number(lag > 0n ? lag : 0n),
      last_tick_at: row.updated_at.toISOString(),
    };
  });
}

/** Sets the operational gauges from what was just read. */
function recordGauges(
  deps: AppDeps,
  pollers: { workflow: number } | undefined,
  backlog: number | undefined,
  watchers?: WatcherHealth[] | undefined,
): void {
  if (pollers) deps.metrics.workers.set(pollers.workflow);
  for (const w of watchers ?? []) {
    if (w.lag_blocks === null || w.last_tick_at === null) continue;
    deps.metrics.watcherLag.set({ chain: String(w.chain_id) }, w.lag_blocks);
    deps.metrics.watcherAge.set(
      { chain: String(w.chain_id) },
      (Date.now() - Date.parse(w.last_tick_at)) / 1000,
    );
  }
  if (backlog !== undefined) deps.metrics.backlog.set(backlog);
}

/** GET /health (503 when the database or Temporal is down) and GET /metrics. */
export function healthRoutes(router: Routes, deps: AppDeps): void {
  router.get(
    '/health',
    {
      summary: 'Database, Temporal, workers and chain watchers',
      responses: {
        '200': { description: 'Healthy', content: json(z.looseObject({})) },
        '503': {
          description: 'The database or Temporal is down, or no worker polls',
          content: json(z.looseObject({})),
        },
      },
    },
    async (ctx) => {
      const temporal = deps.temporal;
      const [database, workflow, pollers, backlog, watchers] = await Promise.all([
        probe(() => deps.db.ping()),
        temporal ? probe(() => temporal.check()) : Promise.resolve('disabled' as const),
        temporal ? within(() => temporal.workers()) : Promise.resolve(undefined),
        within(() => deps.handOver.backlog()),
        within(() => watcherHealth(deps)),
      ]);
      // Workers are present when any polled the task queue lately; with none, nothing moves.
      const workers = !temporal
        ? ('disabled' as const)
        : pollers === undefined
          ? ('unknown' as const)
          : pollers.workflow > 0 && pollers.activity > 0
            ? ('ok' as const)
            : ('absent' as const);
      recordGauges(deps, pollers, backlog, watchers);
      const ok = database === 'ok' && workflow === 'ok' && workers === 'ok';
      ctx.status = ok ? 200 : 503;
      ctx.body = {
        status: ok ? 'ok' : 'degraded',
        database: { status: database, kind: deps.db.kind },
        temporal: { status: workflow, namespace: deps.config.temporal.namespace },
        workers: {
          status: workers,
          task_queue: deps.config.temporal.taskQueue,
          ...(pollers ? { workflow_pollers: pollers.workflow, activity_pollers: pollers.activity } : {}),
        },
        ...(backlog === undefined ? {} : { backlog }),
        ...(watchers ? { chain_watchers: watchers } : {}),
      };
    },
  );

  router.get(
    '/metrics',
    {
      summary: 'Prometheus metrics of this process',
      responses: { '200': { description: 'Metrics', content: { 'text/plain': { schema: z.string() } } } },
    },
    async (ctx) => {
      const temporal = deps.temporal;
      const [pollers, backlog, watchers] = await Promise.all([
        temporal ? within(() => temporal.workers()) : Promise.resolve(undefined),
        within(() => deps.handOver.backlog()),
        within(() => watcherHealth(deps)),
      ]);
      recordGauges(deps, pollers, backlog, watchers);
      ctx.type = deps.metrics.registry.contentType;
      ctx.body = await deps.metrics.registry.metrics();
    },
  );
}
