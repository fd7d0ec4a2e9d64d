/**
 * The checkout service under test in its own process, so the load generator never shares its event
 * loop: the real service (API + Temporal worker) configured from the environment, plus one merchant
 * API key (for `BENCH_MERCHANT_ADDRESS`, else a random address). `BENCH_WORKFLOW_BUNDLE` names a prebuilt
 * workflow bundle. Prints one ready line (protocol.ts)
 * on stdout and stops when stdin closes or on SIGTERM, so it never outlives the runner.
 */
import { randomBytes } from 'node:crypto';
import { createApiKey } from '@checkout/db';
import { loadConfig, type RunningService, startService } from '@checkout/server';
import type { CheckoutReady } from './protocol.ts';

async function main(): Promise<void> {
  const maxSeconds = Number(process.env.BENCH_MAX_SECONDS ?? 1800);
  setTimeout(() => {
    console.error(`checkout bench target: still running after ${maxSeconds} s; exiting`);
    process.exit(3);
  }, maxSeconds * 1000).unref();

  let service: RunningService | undefined;
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await service?.stop();
    } catch (error) {
      console.error(`checkout bench target: stop failed: ${(error as Error).message}`);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.stdin.on('end', () => void shutdown());
  process.stdin.on('error', () => void shutdown());
  process.stdin.resume();

  const bundle = process.env.BENCH_WORKFLOW_BUNDLE;
  service = await startService(loadConfig(process.env), bundle ? { workflowBundlePath: bundle } : {});
  const merchant = await createApiKey(service.deps.db.kysely, {
    // A caller that must pay from the receiving wallet (a refund) names an address whose key it holds.
    address: process.env.BENCH_MERCHANT_ADDRESS || `0x${randomBytes(20).toString('hex')}`,
    label: 'checkout bench',
  });
  const ready: CheckoutReady = {
    bench: 'ready',
    url: service.url,
    database: service.deps.db.kind,
    merchant: { key: merchant.key, address: merchant.address },
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

main().catch((error: unknown) => {
  console.error(`checkout bench target failed: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
});
