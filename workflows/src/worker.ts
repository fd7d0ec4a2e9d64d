/** Worker construction, workflow bundling and the process-wide Temporal runtime. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Duration } from '@temporalio/common';
import {
  bundleWorkflowCode,
  DefaultLogger,
  type Logger,
  type LogLevel,
  type NativeConnection,
  Runtime,
  Worker,
} from '@temporalio/worker';
import { type FinalFailure, finalFailureInterceptors } from './finalFailureInterceptor.ts';
import { taskQueue as defaultTaskQueue } from './shared.ts';

/** Absolute path of the module that exports every workflow. */
export const workflowsPath: string = fileURLToPath(new URL('./bundle.workflow.ts', import.meta.url));

let installedRuntime: Runtime | undefined;

/** Options of {@link installRuntime}. */
export interface InstallRuntimeOptions {
  logger?: Logger;
  logLevel?: LogLevel;
}

/**
 * Installs the Temporal runtime without signal handlers, because the hosting process (Koa) owns
 * SIGINT/SIGTERM and stops workers itself. Call before the first NativeConnection or Worker; repeat calls
 * return the live runtime, and a runtime the SDK shut down after its last worker is installed anew.
 */
export function installRuntime(options: InstallRuntimeOptions = {}): Runtime {
  if (installedRuntime !== undefined && Runtime._instance === installedRuntime) return installedRuntime;
  const logger = options.logger ?? new DefaultLogger(options.logLevel ?? 'INFO');
  installedRuntime = Runtime.install({ shutdownSignals: [], logger });
  return installedRuntime;
}

/** Options of {@link createWorker}. */
export interface CreateWorkerOptions {
  connection: NativeConnection;
  activities: object;
  namespace?: string;
  taskQueue?: string;
  workflowBundle?: { codePath: string };
  identity?: string;
  /** How long in-flight activities may finish on shutdown before they are cancelled (they are retried elsewhere). */
  shutdownGraceTime?: Duration;
  /** Called for each activity failure made final (non-retryable), e.g. to count it. */
  onFinalFailure?: (failure: FinalFailure) => void;
  /** When a shutdown that has not finished gives up on the remaining tasks, so a stop always ends. */
  shutdownForceTime?: Duration;
}

/** Creates a worker for the checkout workflows; uses a prebuilt bundle when given, else bundles on start. */
export async function createWorker(options: CreateWorkerOptions): Promise<Worker> {
  const code = options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath };
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace ?? 'default',
    taskQueue: options.taskQueue ?? defaultTaskQueue,
    activities: options.activities,
    interceptors: { activity: [finalFailureInterceptors(options.onFinalFailure)] },
    ...code,
    ...(options.identity === undefined ? {} : { identity: options.identity }),
    // Long watches resume from their heartbeats, so a short grace keeps restarts quick.
    shutdownGraceTime: options.shutdownGraceTime ?? '5s',
    ...(options.shutdownForceTime === undefined ? {} : { shutdownForceTime: options.shutdownForceTime }),
  });
}

/** Result of {@link bundleWorkflows}. */
export interface WorkflowBundleFile {
  codePath: string;
  bytes: number;
}

/** Bundles every workflow into one file that workers load with `workflowBundle: { codePath }`. */
export async function bundleWorkflows(
  outFile: string,
  logger?: Logger,
  options: { interceptorModules?: string[] } = {},
): Promise<WorkflowBundleFile> {
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    ...(options.interceptorModules ? { workflowInterceptorModules: options.interceptorModules } : {}),
    ...(logger === undefined ? {} : { logger }),
  });
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, code);
  return { codePath: outFile, bytes: Buffer.byteLength(code) };
}
