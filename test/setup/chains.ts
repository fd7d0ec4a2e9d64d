/**
 * Vitest global setup: a lender of bootstrapped dev chains, shared by every test file through `inject()`.
 *
 * Starting a dev chain and deploying its tokens, pools and factories costs seconds; a test file only needs a
 * chain in that state. The lender keeps each chain it started once it is given back, and lends it again
 * reverted to the snapshot taken right after its bootstrap (`evm_revert`, then a new `evm_snapshot`, since a
 * revert uses its snapshot up), with automatic mining on and interval mining off. A file borrows with
 * `startTestChain` (`test/support/chain.ts`) and gives the chain back with its `stop()`; two files running
 * at once never share a chain. The chains live in this process, so a test process that dies cannot leak
 * one: the teardown stops every chain the lender started.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bootstrapDevChain, type DevChain, type DevDeployment, startDevChain } from '@checkout/chain';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the dev-chain lender (`POST /lend?chain_id=97`, `POST /return?pid=…`). */
    chainLenderUrl: string;
  }
}

/** What a borrower receives. */
export interface LentChain {
  rpcUrl: string;
  chainId: number;
  pid: number;
  deployment: DevDeployment;
}

interface KeptChain {
  chain: DevChain;
  deployment: DevDeployment;
  /** The snapshot taken right after the bootstrap (renewed at each lending). */
  snapshot: string;
  lent: boolean;
}

interface Lender {
  server: Server;
  url: string;
  chains: Set<KeptChain>;
}

interface SharedState {
  lender: Promise<Lender> | undefined;
  users: number;
}

// Vitest loads this module once per project that lists it; a process-global slot keeps one lender per run.
const stateKey = Symbol.for('checkout.test.chains');
const globals = globalThis as typeof globalThis & { [stateKey]?: SharedState };
globals[stateKey] ??= { lender: undefined, users: 0 };
const state: SharedState = globals[stateKey];

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function startKept(chainId: number): Promise<KeptChain> {
  const chain = await startDevChain({ chainId });
  try {
    const deployment = await bootstrapDevChain({ rpcUrl: chain.rpcUrl });
    const snapshot = String(await rpc(chain.rpcUrl, 'evm_snapshot'));
    return { chain, deployment, snapshot, lent: true };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

/** Brings a chain given back to the state right after its bootstrap. */
async function reset(kept: KeptChain): Promise<void> {
  const url = kept.chain.rpcUrl;
  await rpc(url, 'evm_setIntervalMining', [0]);
  await rpc(url, 'evm_setAutomine', [true]);
  if ((await rpc(url, 'evm_revert', [kept.snapshot])) !== true) {
    throw new Error(`evm_revert to ${kept.snapshot} was refused`);
  }
  kept.snapshot = String(await rpc(url, 'evm_snapshot'));
}

async function lend(chains: Set<KeptChain>, chainId: number): Promise<KeptChain> {
  for (const kept of chains) {
    if (kept.lent || kept.chain.chainId !== chainId) continue;
    kept.lent = true;
    try {
      await reset(kept);
      return kept;
    } catch {
      // A chain that cannot be reset is not lent again.
      chains.delete(kept);
      await kept.chain.stop();
    }
  }
  const started = await startKept(chainId);
  chains.add(started);
  return started;
}

async function startLender(): Promise<Lender> {
  const chains = new Set<KeptChain>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://lender');
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'POST' && url.pathname === '/lend') {
      const chainId = Number(url.searchParams.get('chain_id'));
      if (!Number.isSafeInteger(chainId) || chainId <= 0) return answer(400, { error: 'chain_id' });
      lend(chains, chainId).then(
        (kept) =>
          answer(200, {
            rpcUrl: kept.chain.rpcUrl,
            chainId: kept.chain.chainId,
            pid: kept.chain.pid,
            deployment: kept.deployment,
          } satisfies LentChain),
        (error: unknown) => answer(500, { error: String(error) }),
      );
      return;
    }
    if (request.method === 'POST' && url.pathname === '/return') {
      const pid = Number(url.searchParams.get('pid'));
      for (const kept of chains) if (kept.chain.pid === pid) kept.lent = false;
      return answer(200, {});
    }
    answer(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, chains };
}

/** Starts the shared lender and provides its URL; the returned teardown stops it and every chain it started. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  state.lender ??= startLender();
  const { url } = await state.lender;
  state.users += 1;
  project.provide('chainLenderUrl', url);
  return async () => {
    state.users -= 1;
    if (state.users > 0 || state.lender === undefined) return;
    const done = state.lender;
    state.lender = undefined;
    const { server, chains } = await done;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all([...chains].map((kept) => kept.chain.stop()));
  };
}
