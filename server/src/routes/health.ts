/** Liveness and readiness, and the Prometheus scrape endpoint. */
import type { Router } from '@koa/router';
import type { AppDeps, AppState } from '../context.ts';
import { type ReconcileBacklog, reconcileBacklog } from '../rampWorkflows.ts';

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

/** Sets the operational gauges from what was just read. */
function recordGauges(
  deps: AppDeps,
  pollers: { workflow: number } | undefined,
  backlog: ReconcileBacklog | undefined,
): void {
  if (pollers) deps.metrics.workers.set(pollers.workflow);
  if (backlog) {
    deps.metrics.backlog.set({ kind: 'pending_hashes' }, backlog.pendingHashes);
    deps.metrics.backlog.set({ kind: 'unattempted_webhooks' }, backlog.unattemptedWebhooks);
  }
}

/** GET /health (503 when the database or Temporal is down) and GET /metrics. */
export function healthRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get('/health', async (ctx) => {
    ctx.state.route = '/health';
    const temporal = deps.temporal;
    const [database, workflow, pollers, backlog] = await Promise.all([
      probe(() => deps.db.ping()),
      temporal ? probe(() => temporal.check()) : Promise.resolve('disabled' as const),
      temporal ? within(() => temporal.workers()) : Promise.resolve(undefined),
      within(() => reconcileBacklog(deps.db.kysely)),
    ]);
    // Workers are present when any polled the task queue lately; with none, nothing moves.
    const workers = !temporal
      ? ('disabled' as const)
      : pollers === undefined
        ? ('unknown' as const)
        : pollers.workflow > 0 && pollers.activity > 0
          ? ('ok' as const)
          : ('absent' as const);
    recordGauges(deps, pollers, backlog);
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
      ...(backlog
        ? {
            backlog: {
              pending_hashes: backlog.pendingHashes,
              unattempted_webhooks: backlog.unattemptedWebhooks,
            },
          }
        : {}),
    };
  });

  router.get('/metrics', async (ctx) => {
    ctx.state.route = '/metrics';
    const temporal = deps.temporal;
    const [pollers, backlog] = await Promise.all([
      temporal ? within(() => temporal.workers()) : Promise.resolve(undefined),
      within(() => reconcileBacklog(deps.db.kysely)),
    ]);
    recordGauges(deps, pollers, backlog);
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });
}
