/**
 * The service in a process of its own, for tests that kill it with SIGKILL: `startServiceProcess`
 * spawns this file, which starts the real service from its environment and prints one ready line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const readyMark = 'service-process-ready';

/** A running service process. */
export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** SIGKILL: no shutdown hooks, no goodbye to Temporal. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and wait (bounded). */
  stop(): Promise<void>;
}

async function exited(child: ChildProcess, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await gone;
  }
}

/** Starts the service (API and worker) in a child process configured by `env`; waits for it (bounded). */
export async function startServiceProcess(
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
    env: { ...process.env, ...env, SERVICE_PROCESS_CHILD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service process not ready after ${readyTimeoutMs} ms: ${stderr}`));
    }, readyTimeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith(readyMark));
      if (line) {
        clearTimeout(timer);
        resolve(line.slice(readyMark.length).trim());
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`service process exited (${code ?? signal}) before it was ready: ${stderr}`));
    });
  });
  return {
    url,
    child,
    kill: () => exited(child, 'SIGKILL', 10_000),
    stop: () => exited(child, 'SIGTERM', 15_000),
  };
}

async function main(): Promise<void> {
  const { loadConfig, startService } = await import('@checkout/server');
  // Never outlive the test run.
  setTimeout(() => process.exit(3), 10 * 60_000).unref();
  const bundle = process.env.WORKFLOW_BUNDLE_PATH;
  const service = await startService(loadConfig(process.env), bundle ? { workflowBundlePath: bundle } : {});
  process.on('SIGTERM', () => {
    void service.stop().finally(() => process.exit(0));
  });
  process.stdout.write(`${readyMark} ${service.url}\n`);
}

if (process.env.SERVICE_PROCESS_CHILD === '1' && process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`service process failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
