/** Area A: the console's home — the wallet's payments over a window, and how far each chain's watcher is behind. */
import { PaymentSummaryQuery, PaymentSummaryResponse } from '@checkout/core';
import { walletPaymentSummary } from '@checkout/workflows';
import type { AppDeps } from '../context.ts';
import { watcherHealth } from '../watcherHealth.ts';
import type { Routes } from './declare.ts';
import { areaA, errors, ok, walletHeader } from './docs.ts';
import { walletScope } from './loaders.ts';

const dayMs = 86_400_000;

/** Registers the payment summary route on the authenticated Area A router. */
export function paymentSummaryRoutes(router: Routes, deps: AppDeps): void {
  router.get(
    '/payment_summary',
    areaA('payments:read', {
      summary:
        "The wallet's standing payments (not failed, not reversed) from `since` (by default 30 days before `until`) until `until` (by default now): their count, the exact sum per chain and token, the count per day (UTC); and each chain watcher's lag behind the chain's head, as /health shows it",
      requestParams: { header: walletHeader, query: PaymentSummaryQuery },
      responses: { ...ok('The summary', PaymentSummaryResponse), ...errors(400, 401, 403, 422) },
    }),
    async (ctx) => {
      const { query } = ctx.state;
      const until = query.until ? new Date(query.until) : new Date();
      const since = query.since ? new Date(query.since) : new Date(until.getTime() - 30 * dayMs);
      const [payments, watchers] = await Promise.all([
        walletPaymentSummary(ctx.state.db, walletScope(ctx.state), { since, until, mode: query.mode }),
        watcherHealth(deps),
      ]);
      ctx.body = {
        payment_summary: {
          since: since.toISOString(),
          until: until.toISOString(),
          ...payments,
          chain_watchers: watchers.map((w) => ({
            chain_id: w.chain_id,
            name: w.name,
            status: w.status,
            lag_blocks: w.lag_blocks,
            lag_estimated: w.lag_estimated,
            last_tick_at: w.last_tick_at,
          })),
        },
      };
    },
  );
}
