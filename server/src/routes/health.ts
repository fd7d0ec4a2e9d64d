/** Liveness and readiness, and the Prometheus scrape endpoint. */
import type { Router } from '@koa/router';
import type { AppDeps, AppState } from '../context.ts';

async function probe(check: () => Promise<void>, timeoutMs = 2_000): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/** GET /health (503 when the database or Temporal is down) and GET /metrics. */
export function healthRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get('/health', async (ctx) => {
    ctx.state.route = '/health';
    const temporal = deps.temporal;
    const [database, workflow] = await Promise.all([
      probe(() => deps.db.ping()),
      temporal ? probe(() => temporal.check()) : Promise.resolve('disabled' as const),
    ]);
    const ok = database === 'ok' && workflow === 'ok';
    ctx.status = ok ? 200 : 503;
    ctx.body = {
      status: ok ? 'ok' : 'degraded',
      database: { status: database, kind: deps.db.kind },
      temporal: { status: workflow, namespace: deps.config.temporal.namespace },
    };
  });

  router.get('/metrics', async (ctx) => {
    ctx.state.route = '/metrics';
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });
}
