/** bench:scale's payment burst: payments from every shopper while a worker process is SIGKILLed and restarted. */
import type pg from 'pg';
import type { ScaleBurst } from './report.ts';
import { pool, type startReceiver } from './support.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pays `size` payments, kills a worker a quarter of the way in, and counts every payment's resolutions and deliveries. */
export async function runBurst(deps: {
  size: number;
  lanes: number;
  pay: (lane: number) => Promise<{ expectedPaymentId: string }>;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  stats: pg.Client;
  progress: (message: string) => void;
  killAndRestart: () => Promise<void>;
}): Promise<ScaleBurst> {
  const none = { payments: 0, resolved: 0, lost: 0, doubled: 0, duplicatedDeliveries: 0, kills: 0 };
  if (deps.size <= 0) return none;
  const { receiver } = deps;
  deps.progress(`payment burst of ${deps.size} with a worker killed`);
  const sent: string[] = [];
  let killed = false;
  await pool(
    Array.from({ length: deps.size }, (_, i) => i),
    deps.lanes,
    async (i) => {
      const paid = await deps.pay(i % deps.lanes);
      sent.push(paid.expectedPaymentId);
      if (!killed && sent.length >= Math.ceil(deps.size / 4)) {
        killed = true;
        deps.progress('SIGKILL worker-1');
        await deps.killAndRestart();
        deps.progress('worker-1 restarted');
      }
    },
  );
  await Promise.all(sent.map((id) => receiver.waitFor(id, 240_000).catch(() => undefined)));
  // A quiet spell, so a late duplicate would still be counted.
  await sleep(10_000);
  const { rows } = await deps.stats.query<{ expected_payment_id: string; n: string }>(
    'select expected_payment_id, count(*)::text as n from resolved_payments where expected_payment_id = any($1::uuid[]) group by expected_payment_id',
    [sent],
  );
  const resolvedCount = new Map(rows.map((r) => [r.expected_payment_id, Number(r.n)]));
  return {
    payments: sent.length,
    resolved: sent.filter((id) => (resolvedCount.get(id) ?? 0) >= 1).length,
    lost: sent.filter((id) => !resolvedCount.get(id) || !receiver.firstArrival.has(id)).length,
    doubled: sent.filter((id) => (resolvedCount.get(id) ?? 0) > 1).length,
    duplicatedDeliveries: sent.filter((id) => (receiver.deliveries.get(id)?.size ?? 0) > 1).length,
    kills: killed ? 1 : 0,
  };
}
