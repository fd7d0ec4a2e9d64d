/** The service process of one database target: spawned with its environment, awaited, always stopped. */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { CheckoutReady } from './protocol.ts';

const serverScript = fileURLToPath(new URL('./server.ts', import.meta.url));
const live = new Set<ChildProcess>();

process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A running service process. */
export interface ServiceProcess {
  pid: number;
  ready: CheckoutReady;
  /** Lines the process wrote to stderr so far (its warnings and errors). */
  stderrLines(): number;
  /** Closes stdin and sends SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Spawns `node scripts/bench/checkout/server.ts` and waits for its ready line. */
export async function startServiceProcess(options: {
  label: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  readyTimeoutMs: number;
}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [serverScript], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  child.stdin.on('error', () => {});
  const exited = new Promise<number | string | null>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve(code ?? signal);
    });
  });

  // Output goes to stderr with a cap, so a noisy target cannot flood the report.
  let lines = 0;
  let tail = '';
  const logFile = process.env.BENCH_TARGET_LOG;
  const echo = (line: string) => {
    // BENCH_TARGET_LOG keeps every line of the service's output, for finding out why a payment stalled.
    if (logFile) appendFileSync(logFile, `[${options.label}] ${line}\n`);
    lines++;
    if (lines <= 10) process.stderr.write(`  [${options.label}] ${line.slice(0, 400)}\n`);
    else if (lines === 11) process.stderr.write(`  [${options.label}] (further output hidden)\n`);
  };
  createInterface({ input: child.stderr }).on('line', (line) => {
    tail = `${tail}\n${line}`.slice(-2000);
    echo(line);
  });

  const stop = async (graceMs = 15_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, graceMs);
    });
    await Promise.race([exited, killed]);
    clearTimeout(timer);
    await exited;
  };

  try {
    const ready = await new Promise<CheckoutReady>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`not ready within ${options.readyTimeoutMs / 1000} s`)),
        options.readyTimeoutMs,
      );
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith('{"bench":"ready"')) {
          clearTimeout(timer);
          resolve(JSON.parse(line) as CheckoutReady);
        } else {
          echo(line);
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`exited (${code}) before it was ready:${tail}`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return { pid: child.pid ?? -1, ready, stderrLines: () => lines, stop };
  } catch (error) {
    await stop(2_000);
    throw error;
  }
}

/** Kills every service process still running. */
export function killServiceProcesses(): void {
  for (const child of live) child.kill('SIGKILL');
}
