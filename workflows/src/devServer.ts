/** Runs `temporal server start-dev` as a child process for development and tests. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { Connection } from '@temporalio/client';
import {
  type defineSearchAttributeKey,
  type SearchAttributeType,
  TypedSearchAttributes,
} from '@temporalio/common';
import { searchAttributeKeys } from './shared.ts';

/** A search attribute key of any type; the SDK's package root does not export this type by name. */
export type AnySearchAttributeKey = ReturnType<typeof defineSearchAttributeKey<SearchAttributeType>>;

/** Log levels the Temporal CLI accepts. */
export type DevServerLogLevel = 'debug' | 'info' | 'warn' | 'error' | 'never';

/** Options of {@link startTemporalDevServer}. */
export interface DevServerOptions {
  /** Path of the Temporal CLI binary. */
  binary: string;
  /** SQLite file for durable state; in-memory when absent. */
  dbFilename?: string;
  ip?: string;
  /** gRPC frontend port; a free port when absent. */
  port?: number;
  /** Web UI port; a free port when absent, no UI when false. */
  uiPort?: number | false;
  namespace?: string;
  searchAttributes?: readonly AnySearchAttributeKey[];
  logLevel?: DevServerLogLevel;
  /** How long to wait for the frontend to answer, in ms. */
  startTimeoutMs?: number;
  /**
   * Runs the server in its own process group, so a terminal's Ctrl-C reaches only the parent, which
   * stops the server itself once the workers have drained (`npm start`).
   */
  detached?: boolean;
}

/** A running dev server. */
export interface TemporalDevServer {
  /** host:port of the gRPC frontend. */
  address: string;
  namespace: string;
  uiUrl: string | undefined;
  /** Milliseconds from spawn until the frontend answered with every search attribute registered. */
  startupMs: number;
  /** Sends SIGTERM, waits for exit, and escalates to SIGKILL after 10 s. */
  stop(): Promise<void>;
}

const pollIntervalMs = 100;
const killAfterMs = 10_000;
const outputLimit = 64 * 1024;

/** Asks the OS for a free TCP port on `ip`. */
export async function findFreePort(ip = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, ip, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port was assigned'))));
    });
  });
}

async function portIsFree(ip: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, ip, () => server.close(() => resolve(true)));
  });
}

/** Starts a dev server with the checkout search attributes and waits until its frontend is usable. */
export async function startTemporalDevServer(options: DevServerOptions): Promise<TemporalDevServer> {
  const ip = options.ip ?? '127.0.0.1';
  const namespace = options.namespace ?? 'default';
  // A taken port would let the readiness probe reach some other server and report success.
  for (const wanted of [options.port, options.uiPort]) {
    if (typeof wanted === 'number' && !(await portIsFree(ip, wanted))) {
      throw new Error(`Temporal dev server cannot start: ${ip}:${wanted} is already in use`);
    }
  }
  const port = options.port ?? (await findFreePort(ip));
  const uiPort = options.uiPort === false ? false : (options.uiPort ?? (await findFreePort(ip)));
  const searchAttributes = options.searchAttributes ?? searchAttributeKeys;
  const address = `${ip}:${port}`;

  const args = [
    'server',
    'start-dev',
    '--ip',
    ip,
    '--port',
    String(port),
    '--log-level',
    options.logLevel ?? 'warn',
    // The dev server would otherwise report its version to temporal.io on start.
    '--dynamic-config-value',
    'frontend.enableServerVersionCheck=false',
  ];
  if (options.dbFilename !== undefined) args.push('--db-filename', options.dbFilename);
  if (uiPort === false) args.push('--headless');
  else args.push('--ui-port', String(uiPort), '--ui-disable-news-fetch');
  if (namespace !== 'default') args.push('--namespace', namespace);
  for (const key of searchAttributes) {
    args.push('--search-attribute', `${key.name}=${TypedSearchAttributes.toMetadataType(key.type)}`);
  }

  const started = performance.now();
  const child = spawn(options.binary, args, {
    env: { ...process.env, TEMPORAL_VERSION_CHECK_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  const capture = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-outputLimit);
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(`exited with ${signal ?? `code ${code}`}`));
    child.once('error', (error) => resolve(`failed to spawn: ${error.message}`));
  });
  // A crashed or killed parent must not leave an orphaned server holding the port.
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);

  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    await stopChild(child, exited);
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  const gaveUp = new AbortController();
  const failure = await Promise.race([
    waitUntilReady(address, namespace, searchAttributes, deadline, gaveUp.signal),
    exited.then((how) => new Error(`temporal server ${how}`)),
  ]);
  gaveUp.abort();
  if (failure !== undefined) {
    await stop();
    throw new Error(
      `Temporal dev server did not come up on ${address}: ${failure.message}\n--- server output ---\n${output}`,
    );
  }
  return {
    address,
    namespace,
    uiUrl: uiPort === false ? undefined : `http://${ip}:${uiPort}`,
    startupMs: Math.round(performance.now() - started),
    stop,
  };
}

async function stopChild(child: ChildProcess, exited: Promise<string>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const escalate = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, killAfterMs);
  });
  await Promise.race([exited, escalate]);
  clearTimeout(timer);
  await exited;
}

/** Resolves with undefined once the frontend answers and lists every search attribute, else with the last error. */
async function waitUntilReady(
  address: string,
  namespace: string,
  searchAttributes: readonly AnySearchAttributeKey[],
  deadline: number,
  signal: AbortSignal,
): Promise<Error | undefined> {
  let lastError = new Error('timed out before the first attempt');
  while (Date.now() < deadline && !signal.aborted) {
    if (await portAccepts(address)) {
      const connectTimeout = Math.min(2_000, Math.max(100, deadline - Date.now()));
      const connection = Connection.lazy({ address, connectTimeout });
      try {
        await connection.ensureConnected();
        const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
        const missing = searchAttributes.filter((key) => customAttributes[key.name] === undefined);
        if (missing.length === 0) return undefined;
        lastError = new Error(
          `search attributes not registered yet: ${missing.map((k) => k.name).join(', ')}`,
        );
      } catch (error) {
        lastError = error instanceof Error ? error : new Error(String(error));
      } finally {
        await connection.close();
      }
    } else {
      lastError = new Error('frontend port is not accepting connections');
    }
    await delay(pollIntervalMs);
  }
  return new Error(`timed out; last error: ${lastError.message}`);
}

async function portAccepts(address: string): Promise<boolean> {
  const separator = address.lastIndexOf(':');
  const host = address.slice(0, separator);
  const port = Number(address.slice(separator + 1));
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

async function delay(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}
