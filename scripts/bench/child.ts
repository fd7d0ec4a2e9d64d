/** Target processes: started with their own environment, awaited until ready, always stopped. */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ReadyMessage } from './protocol.ts';

const serverScript = fileURLToPath(new URL('./server.ts', import.meta.url));
const live = new Set<ChildProcess>();

// A runner that dies for any reason takes its targets with it (they also exit when stdin closes).
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A running target process. */
export interface TargetProcess<R = ReadyMessage> {
  pid: number;
  ready: R;
  /** Lines the process wrote so far besides its ready line (its warnings and errors). */
  outputLines(): number;
  /** Asks for a clean stop (so --cpu-prof is written), then kills after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL, no clean stop (a crash, as tests of durability need); resolves once the process is gone. */
  kill(): Promise<void>;
}

/** Spawns `node <script>` (default `scripts/bench/server.ts`) and waits for its ready line. */
export async function startTarget<R = ReadyMessage>(options: {
  label: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  script?: string;
  nodeArgs?: string[];
  readyTimeoutMs: number;
}): Promise<TargetProcess<R>> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script ?? serverScript], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  // Writing to a target that already exited must not crash the runner.
  child.stdin.on('error', () => {});
  const exited = new Promise<number | string | null>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve(code ?? signal);
    });
  });

  // Output is passed on to stderr, with a cap so a failing target cannot flood the report.
  let echoed = 0;
  let stderrTail = '';
  const logFile = process.env.BENCH_TARGET_LOG;
  const echo = (line: string) => {
    // BENCH_TARGET_LOG keeps every line of the target's output, for finding out why something stalled.
    if (logFile) appendFileSync(logFile, `[${options.label}] ${line}\n`);
    if (echoed++ < 20) process.stderr.write(`  [${options.label}] ${line.slice(0, 500)}\n`);
    else if (echoed === 22) process.stderr.write(`  [${options.label}] (further output hidden)\n`);
  };
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderrTail = `${stderrTail}\n${line}`.slice(-2000);
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
    const ready = await new Promise<R>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`not ready within ${options.readyTimeoutMs / 1000} s`)),
        options.readyTimeoutMs,
      );
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith('{"bench":"ready"')) {
          clearTimeout(timer);
          resolve(JSON.parse(line) as R);
        } else {
          echo(line);
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`exited (${code}) before it was ready:${stderrTail}`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    const kill = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    };
    return { pid: child.pid ?? -1, ready, outputLines: () => echoed, stop, kill };
  } catch (error) {
    await stop(2_000);
    throw error;
  }
}

/** Kills every target still running (signal handlers and fatal errors). */
export function killAllTargets(): void {
  for (const child of live) child.kill('SIGKILL');
}
