/**
 * The local EVM node that stands in for the real chains in development and tests: Hardhat's
 * `hardhat node` (EDR) in a child process, configured from a throwaway project directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Chain, defineChain } from 'viem';
import { missingEdrBinding } from './missingEdrBinding.ts';

/** Mnemonic of Hardhat's default accounts; the dev chain funds its first 20 with 10,000 ETH each. */
export const devMnemonic = 'test test test test test test test test test test test junk';

/** Chain id the dev chain reports unless told otherwise: BNB Smart Chain testnet, where the test BUSD lives. */
export const defaultDevChainId = 97;

/** How to start the dev chain. */
export interface DevChainOptions {
  /** TCP port; 0 or absent lets the system pick a free one. */
  port?: number;
  /** Chain id reported by `eth_chainId` and used for signing. Defaults to 97. */
  chainId?: number;
  /** Interface to bind; the default keeps the node private to this machine. */
  host?: string;
  /** How long to wait for the node to answer before giving up, in milliseconds. */
  startTimeoutMs?: number;
  /** Receives every line the node prints (its request log), e.g. to forward it to a dev console. */
  onLog?: (line: string) => void;
  /**
   * Runs the node in its own process group, so a terminal's Ctrl-C reaches only the parent, which stops
   * the node after the service that uses it (`npm start`); the node still exits when its parent is gone.
   */
  detached?: boolean;
}

/** A running dev chain. */
export interface DevChain {
  /** HTTP JSON-RPC endpoint, e.g. `http://127.0.0.1:8545`. */
  rpcUrl: string;
  chainId: number;
  /** Process id of the node. */
  pid: number;
  /** Ends the node and removes its scratch directory; safe to call more than once. */
  stop(): Promise<void>;
}

const defaultStartTimeoutMs = 20_000;
const stopGraceMs = 5_000;
const pollIntervalMs = 50;
const keptOutputLines = 40;
const listeningPattern = /JSON-RPC server at http:\/\/\S*?:(\d+)\//;

/** Starts `hardhat node` with the given chain id and resolves once it answers `eth_chainId`. */
export async function startDevChain(options: DevChainOptions = {}): Promise<DevChain> {
  const chainId = options.chainId ?? defaultDevChainId;
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const timeoutMs = options.startTimeoutMs ?? defaultStartTimeoutMs;
  const deadline = Date.now() + timeoutMs;

  // A missing native binding would surface as Hardhat's opaque HHE200; say what is missing instead.
  const missing = missingEdrBinding();
  if (missing !== undefined) throw new Error(missing);

  const dir = await mkdtemp(join(tmpdir(), 'checkout-devchain-'));
  const cli = await writeHardhatProject(dir, chainId).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });

  const child = spawn(process.execPath, [cli, 'node', '--hostname', host, '--port', String(port)], {
    cwd: dir,
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });

  const output: string[] = [];
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  // Every call after the first shares the first call's promise.
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= terminate(child, exit, () => exited).then(() => rm(dir, { recursive: true, force: true })));

  try {
    const listeningPort = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(startError(`did not start within ${timeoutMs} ms`, output)),
        timeoutMs,
      );
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        reject(startError(`exited during start (code ${code}, signal ${signal})`, output));
      });
      // Both streams are always drained: a full pipe would block the node mid-request.
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on('line', (line) => {
          output.push(line);
          if (output.length > keptOutputLines) output.shift();
          options.onLog?.(line);
          const match = listeningPattern.exec(line);
          if (match?.[1] !== undefined) {
            clearTimeout(timer);
            resolve(Number(match[1]));
          }
        });
      }
    });
    const rpcUrl = `http://${host.includes(':') ? `[${host}]` : host}:${listeningPort}`;
    const reported = await waitForChainId(rpcUrl, deadline, () => exited);
    if (reported !== chainId) throw startError(`reports chain id ${reported}, expected ${chainId}`, output);
    if (child.pid === undefined) throw startError('has no process id', output);
    return { rpcUrl, chainId, pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Writes a minimal Hardhat project (ESM package, config, link to the installed Hardhat) and returns
 * the path of Hardhat's CLI. Hardhat refuses a config whose directory cannot resolve `hardhat`, and
 * it creates `artifacts/` and `cache/` beside the config, so the project lives in a scratch directory.
 */
async function writeHardhatProject(dir: string, chainId: number): Promise<string> {
  const require = createRequire(import.meta.url);
  const packageJsonPath = require.resolve('hardhat/package.json');
  const hardhatDir = dirname(packageJsonPath);
  const manifest = JSON.parse(await readFile(packageJsonPath, 'utf8')) as { bin?: { hardhat?: string } };
  const bin = manifest.bin?.hardhat;
  if (bin === undefined) throw new Error(`hardhat at ${hardhatDir} has no CLI entry`);

  const network = { type: 'edr-simulated', chainId, accounts: { mnemonic: devMnemonic } };
  const config = [
    `import { rmSync } from 'node:fs';`,
    `// The node exits on its own when the process that started it is gone, so crashed runs leave no node behind.`,
    `const parentPid = ${process.pid};`,
    `setInterval(() => {`,
    `  if (process.ppid === parentPid) return;`,
    `  rmSync(${JSON.stringify(dir)}, { recursive: true, force: true });`,
    `  process.exit(0);`,
    `}, 1000).unref();`,
    // No solidity section: the node never compiles, so Hardhat never fetches a compiler.
    `export default { networks: { node: ${JSON.stringify(network)} } };`,
    '',
  ].join('\n');

  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ type: 'module', private: true })}\n`);
  await writeFile(join(dir, 'hardhat.config.js'), config);
  await mkdir(join(dir, 'node_modules'));
  await symlink(hardhatDir, join(dir, 'node_modules', 'hardhat'), 'junction');
  return join(hardhatDir, bin);
}

/** Polls `eth_chainId` until the node answers, the node dies, or the deadline passes. */
async function waitForChainId(rpcUrl: string, deadline: number, hasExited: () => boolean): Promise<number> {
  let lastError: unknown;
  const maxAttempts = Math.ceil((deadline - Date.now()) / pollIntervalMs) + 1;
  for (let attempt = 0; attempt < maxAttempts && Date.now() < deadline && !hasExited(); attempt++) {
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        signal: AbortSignal.timeout(Math.max(1, Math.min(2_000, deadline - Date.now()))),
      });
      const body = (await response.json()) as { result?: unknown };
      if (typeof body.result === 'string') return Number(BigInt(body.result));
      lastError = new Error(`unexpected eth_chainId answer: ${JSON.stringify(body)}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
  throw new Error(`dev chain at ${rpcUrl} did not answer eth_chainId`, { cause: lastError });
}

/** Asks the node to exit, and kills it if it has not gone after a grace period. */
async function terminate(child: ChildProcess, exit: Promise<void>, hasExited: () => boolean): Promise<void> {
  // A process that never spawned (no pid) emits no exit event to wait for.
  if (child.pid === undefined || hasExited() || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (await exitsWithin(exit, stopGraceMs)) return;
  child.kill('SIGKILL');
  if (!(await exitsWithin(exit, stopGraceMs))) throw new Error(`dev chain process ${child.pid} did not exit`);
}

/** Whether the node exits within `ms`; the timer holds no process open. */
function exitsWithin(exit: Promise<void>, ms: number): Promise<boolean> {
  return Promise.race([exit.then(() => true), sleep(ms, false, { ref: false })]);
}

function startError(reason: string, output: readonly string[]): Error {
  const tail = output.length > 0 ? `\n${output.join('\n')}` : '';
  return new Error(`dev chain ${reason}${tail}`);
}

/** A viem chain description of a dev chain, for clients that sign locally. */
export function defineDevChain(params: { chainId: number; rpcUrl: string }): Chain {
  return defineChain({
    id: params.chainId,
    name: `Dev chain ${params.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [params.rpcUrl] } },
    testnet: true,
  });
}
