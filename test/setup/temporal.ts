/**
 * Vitest global setup: one headless, in-memory Temporal dev server and one workflow bundle per test run,
 * shared by every test file through `inject()`.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflows, startTemporalDevServer, type TemporalDevServer } from '@checkout/workflows';
import { DefaultLogger } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { temporalBinaries } from '../../scripts/fetchTemporal.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** host:port of the shared dev server's gRPC frontend. */
    temporalAddress: string;
    /** File holding the prebuilt workflow bundle. */
    workflowBundlePath: string;
    /** Path of the time-skipping test server binary. */
    temporalTestServerPath: string;
  }
}

interface SharedTemporal {
  server: TemporalDevServer;
  bundleDir: string;
  bundlePath: string;
}

interface SharedState {
  resources: Promise<SharedTemporal> | undefined;
  users: number;
}

// Vitest loads this module once per project that lists it; a process-global slot keeps it to one server per run.
const stateKey = Symbol.for('checkout.test.temporal');
const globals = globalThis as typeof globalThis & { [stateKey]?: SharedState };
globals[stateKey] ??= { resources: undefined, users: 0 };
const state: SharedState = globals[stateKey];

async function start(): Promise<SharedTemporal> {
  const { cli, testServer } = temporalBinaries();
  for (const binary of [cli, testServer]) {
    if (!existsSync(binary)) throw new Error(`${binary} is missing; run \`npm run tools\` to fetch it`);
  }
  const bundleDir = await mkdtemp(join(tmpdir(), 'checkout-workflows-'));
  const [server, bundle] = await Promise.allSettled([
    startTemporalDevServer({ binary: cli, uiPort: false }),
    bundleWorkflows(join(bundleDir, 'workflows.js'), new DefaultLogger('WARN')),
  ]);
  if (server.status === 'fulfilled' && bundle.status === 'fulfilled') {
    return { server: server.value, bundleDir, bundlePath: bundle.value.codePath };
  }
  // Whichever half succeeded must not outlive the failed setup.
  if (server.status === 'fulfilled') await server.value.stop();
  await rm(bundleDir, { recursive: true, force: true });
  throw server.status === 'rejected' ? server.reason : (bundle as PromiseRejectedResult).reason;
}

/** Starts the shared Temporal resources and provides their locations; the returned teardown stops them. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  state.resources ??= start().catch((error: unknown) => {
    state.resources = undefined;
    throw error;
  });
  const { server, bundlePath } = await state.resources;
  state.users += 1;
  project.provide('temporalAddress', server.address);
  project.provide('workflowBundlePath', bundlePath);
  project.provide('temporalTestServerPath', temporalBinaries().testServer);
  return async () => {
    state.users -= 1;
    if (state.users > 0 || state.resources === undefined) return;
    const done = state.resources;
    state.resources = undefined;
    const { server: running, bundleDir } = await done;
    await running.stop();
    await rm(bundleDir, { recursive: true, force: true });
  };
}
