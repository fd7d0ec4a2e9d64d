/** Helpers for tests that run workflows against the shared dev server or a time-skipping server. */
import { randomUUID } from 'node:crypto';
import {
  createSmokeActivities,
  createWorker,
  installRuntime,
  Summary,
  searchAttributeKeys,
} from '@checkout/workflows';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { SearchAttributeType } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { inject } from 'vitest';

/** Connection to the dev server started by the global setup. */
export interface TestTemporal {
  env: TestWorkflowEnvironment;
  client: Client;
  nativeConnection: NativeConnection;
  address: string;
  /** Closes the connections; the server keeps running for other files. */
  teardown(): Promise<void>;
}

/** Installs the runtime the way the service does, with quiet logs for test output. */
function installTestRuntime(): void {
  installRuntime({ logLevel: 'WARN' });
}

/** Connects to the shared dev server. */
export async function connectTestTemporal(): Promise<TestTemporal> {
  installTestRuntime();
  const address = inject('temporalAddress');
  const env = await TestWorkflowEnvironment.createFromExistingServer({ address });
  return {
    env,
    client: env.client,
    nativeConnection: env.nativeConnection,
    address,
    teardown: () => env.teardown(),
  };
}

/** Options of {@link startTestWorker}. */
export interface TestWorkerOptions {
  connection: NativeConnection;
  /** Activities to serve; the real ones built without dependencies when absent. */
  activities?: object;
  /** Task queue name; a unique one when absent so test files never steal each other's tasks. */
  taskQueue?: string;
  namespace?: string;
}

/** A worker on its own task queue. */
export interface TestWorker {
  worker: Worker;
  taskQueue: string;
  /** Runs the worker while `fn` runs, then shuts it down and returns what `fn` returned. */
  run<T>(fn: () => Promise<T>): Promise<T>;
}

/** Creates a worker from the prebuilt bundle. */
export async function startTestWorker(options: TestWorkerOptions): Promise<TestWorker> {
  const taskQueue = options.taskQueue ?? `test-${randomUUID()}`;
  const worker = await createWorker({
    connection: options.connection,
    activities: options.activities ?? createSmokeActivities(),
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
  });
  return { worker, taskQueue, run: (fn) => worker.runUntil(fn) };
}

type IndexedValueType = NonNullable<
  Parameters<
    TestWorkflowEnvironment['connection']['operatorService']['addSearchAttributes']
  >[0]['searchAttributes']
>[string];

// Proto enum values of temporal.api.enums.v1.IndexedValueType.
const indexedValueTypes: Record<SearchAttributeType, number> = {
  TEXT: 1,
  KEYWORD: 2,
  INT: 3,
  DOUBLE: 4,
  BOOL: 5,
  DATETIME: 6,
  KEYWORD_LIST: 7,
};

/** Starts a private time-skipping test server from the fetched binary; call `teardown()` when done. */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  installTestRuntime();
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: inject('temporalTestServerPath') } },
  });
  // Unlike the dev server, it starts without custom search attributes, and upserting one it lacks fails the workflow task.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      searchAttributeKeys.map((key) => [key.name, indexedValueTypes[key.type] as IndexedValueType]),
    ),
  });
  return env;
}

/**
 * What the Temporal UI shows of where a workflow stands: its `Summary` search attribute (the list's column)
 * and its current details, which the UI reads with the SDK's metadata query (a worker must answer it).
 */
export async function shownStatus(
  handle: WorkflowHandle,
): Promise<{ summary: string | undefined; details: string }> {
  const [description, metadata] = await Promise.all([
    handle.describe(),
    handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata'),
  ]);
  return { summary: description.typedSearchAttributes.get(Summary), details: metadata.currentDetails ?? '' };
}

/** Reads what the UI shows of the workflow (bounded) until its Summary line ends with `status` (or holds it). */
export async function shownOnceAt(
  handle: WorkflowHandle,
  status: string,
  timeoutMs = 30_000,
  within = false,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const shown = await shownStatus(handle).catch(() => undefined);
    if (shown?.summary?.endsWith(` · ${status}`)) return shown;
    if (within && shown?.summary?.includes(` · ${status} · `)) return shown;
    if (Date.now() > deadline) throw new Error(`${handle.workflowId} shows ${JSON.stringify(shown)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
