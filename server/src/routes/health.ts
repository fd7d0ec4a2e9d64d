/** Liveness and readiness, and the Prometheus scrape endpoint. */

import { sweepGasOfChain } from '@checkout/db';
import { formatUnits, parseEther } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { watcherHealth } from '../watcherHealth.ts';
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

/** `ok` when `check` succeeds within two seconds. */
async function probe(check: () => Promise<void>): Promise<'ok' | 'unavailable'> {
  return (await within(() => check().then(() => true))) ? 'ok' : 'unavailable';
}

/** A chain's deposit sweeper as /health shows it. */
interface SweeperHealth {
  chain_id: number;
  gas_wallet: string;
  /** The gas wallet's balance in the chain's coin (decimal), null when it could not be read. */
  balance: string | null;
  /** `low` when the balance pays fewer than {@link lowSweeps} sweeps of one deposit at the current gas price. */
  status: 'ok' | 'low' | 'unknown';
  /** Mined sweeps and the gas they cost (in the chain's coin). */
  sweeps: number;
  gas_spent: string;
}

/** Fewer sweeps than this left in the gas wallet is `low`. */
const lowSweeps = 50n;
/** About the gas one deposit address costs in a batched deploy and sweep (docs/checkout.md, "Gas"). */
const gasPerDeposit = 220_000n;

/** The gas wallet of each chain whose deposit addresses are swept. */
async function sweeperHealth(deps: AppDeps): Promise<SweeperHealth[]> {
  const key = deps.config.checkout.sweeperPrivateKey;
  if (!key) return [];
  const wallet = privateKeyToAddress(key);
  return Promise.all(
    deps.config.chains
      .filter((c) => c.depositFactory)
      .map(async (c): Promise<SweeperHealth> => {
        const client = deps.chains.get(c.chainId)?.client;
        const [balance, gasPrice, spent] = await Promise.all([
          client ? within(() => client.getBalance({ address: wallet })) : undefined,
          client ? within(() => client.getGasPrice()) : undefined,
          sweepGasOfChain(deps.db.kysely, c.chainId),
        ]);
        const price =
          gasPrice === undefined || gasPrice > c.sweepMaxGasPriceWei ? c.sweepMaxGasPriceWei : gasPrice;
        return {
          chain_id: c.chainId,
          gas_wallet: wallet,
          balance: balance === undefined ? null : formatUnits(balance, 18),
          status:
            balance === undefined ? 'unknown' : balance < lowSweeps * gasPerDeposit * price ? 'low' : 'ok',
          sweeps: spent.sweeps,
          gas_spent: formatUnits(spent.gasSpent, 18),
        };
      }),
  );
}

/** Workers, backlog and chain watchers, each undefined when its read failed; the gauges are set from them. */
async function readGauges(deps: AppDeps) {
  const temporal = deps.temporal;
  const [pollers, backlog, watchers, sweepers] = await Promise.all([
    temporal ? within(() => temporal.workers()) : undefined,
    within(() => deps.handOver.backlog()),
    within(() => watcherHealth(deps)),
    within(() => sweeperHealth(deps), 4_000),
  ]);
  for (const w of sweepers ?? []) {
    const chain = { chain: String(w.chain_id) };
    if (w.balance !== null) deps.metrics.sweeperBalance.set(chain, Number(parseEther(w.balance)));
    deps.metrics.sweepGasSpent.set(chain, Number(parseEther(w.gas_spent)));
  }
  if (pollers) deps.metrics.workers.set(pollers.workflow);
  for (const w of watchers ?? []) {
    const chain = { chain: String(w.chain_id) };
    if (w.status !== 'starting') deps.metrics.watcherFailing.set(chain, w.status === 'failing' ? 1 : 0);
    if (w.lag_blocks !== null) deps.metrics.watcherLag.set(chain, w.lag_blocks);
    if (w.last_tick_at !== null) {
      deps.metrics.watcherAge.set(chain, (Date.now() - Date.parse(w.last_tick_at)) / 1000);
    }
  }
  if (backlog !== undefined) deps.metrics.backlog.set(backlog);
  return { pollers, backlog, watchers, sweepers };
}

/**
 * GET /health and GET /metrics. /health answers 503 (`unavailable`) only when this process cannot serve:
 * the database or Temporal is down, or no worker polls. A chain fault (a watcher failing, behind or
 * stalled) answers 200 with `degraded`: it is the same for every process, so a load balancer pulling
 * them out of rotation would take down every other chain and route with it.
 */
export function healthRoutes(router: Routes, deps: AppDeps): void {
  router.get(
    '/health',
    {
      summary: 'Database, Temporal, workers and chain watchers',
      responses: {
        '200': {
          description:
            'Serving: `ok`, or `degraded` when a chain watcher is failing, behind or stalled, or a deposit sweeper’s gas wallet runs low',
          content: json(z.looseObject({})),
        },
        '503': {
          description: 'Unavailable: the database or Temporal is down, or no worker polls',
          content: json(z.looseObject({})),
        },
      },
    },
    async (ctx) => {
      const temporal = deps.temporal;
      const [database, workflow, { pollers, backlog, watchers, sweepers }] = await Promise.all([
        probe(() => deps.db.ping()),
        temporal ? probe(() => temporal.check()) : ('disabled' as const),
        readGauges(deps),
      ]);
      // Workers are present when any polled the task queue lately; with none, nothing moves.
      const workers = !temporal
        ? ('disabled' as const)
        : pollers === undefined
          ? ('unknown' as const)
          : pollers.workflow > 0 && pollers.activity > 0
            ? ('ok' as const)
            : ('absent' as const);
      const serving = database === 'ok' && workflow === 'ok' && workers === 'ok';
      // A gas wallet running low is a warning too: deposits would wait at their addresses.
      const chainsOk =
        (watchers ?? []).every((w) => w.status === 'ok' || w.status === 'starting') &&
        (sweepers ?? []).every((w) => w.status !== 'low');
      ctx.status = serving ? 200 : 503;
      ctx.body = {
        status: !serving ? 'unavailable' : chainsOk ? 'ok' : 'degraded',
        database: { status: database, kind: deps.db.kind },
        temporal: { status: workflow, namespace: deps.config.temporal.namespace },
        workers: {
          status: workers,
          task_queue: deps.config.temporal.taskQueue,
          ...(pollers ? { workflow_pollers: pollers.workflow, activity_pollers: pollers.activity } : {}),
        },
        ...(backlog === undefined ? {} : { backlog }),
        ...(watchers ? { chain_watchers: watchers } : {}),
        ...(sweepers && sweepers.length > 0 ? { deposit_sweepers: sweepers } : {}),
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
      await readGauges(deps);
      ctx.type = deps.metrics.registry.contentType;
      ctx.body = await deps.metrics.registry.metrics();
    },
  );
}
