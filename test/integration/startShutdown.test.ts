/**
 * `npm start` as a developer runs it: the whole system on embedded defaults, nine checkout sessions
 * running, then Ctrl-C — a SIGINT to the whole foreground process group, as a terminal sends it. The
 * worker must drain while the Temporal dev server is still up: quick, and without connection errors.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { devAccounts, devDeployment } from '@checkout/chain';
import { checkoutWorkflowId, findFreePort } from '@checkout/workflows';
import { Client, Connection } from '@temporalio/client';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { waitFor as readUntil } from '../support/waitFor.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sessions = 9;

/** Resolves when `output()` matches `pattern`, or rejects when the process exits or the time is up. */
async function waitFor(
  child: ChildProcess,
  output: () => string,
  pattern: RegExp,
  ms: number,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pattern.test(output())) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// One run is enough: it does not depend on the database the project is testing.
describe.skipIf(inject('databaseKind') !== 'pglite')('npm start shutdown', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-start-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops within 5 s of Ctrl-C with running checkouts, and the worker never loses the server', async () => {
    const [port, temporalPort, uiPort, chainPort, smtpPort] = await Promise.all(
      Array.from({ length: 5 }, () => findFreePort()),
    );
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) {
      if (/^(TEMPORAL_|DATABASE_URL|RPC_URL_|PUBLIC_RPC_URL_|SMTP_URL|DEV_|ROLE|RUN_WORKER)/.test(name))
        delete env[name];
    }
    Object.assign(env, {
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      PORT: String(port),
      DEV_TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      DEV_CHAIN_PORT: String(chainPort),
      DEV_SMTP_PORT: String(smtpPort),
    });
    let output = '';
    // Its own process group, like a shell job: the group gets the SIGINT, as from a terminal.
    child = spawn(process.execPath, ['scripts/start.ts'], { cwd: root, env, detached: true });
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    await waitFor(child, () => output, /Ctrl-C stops everything/, 150_000);

    const api = `http://127.0.0.1:${port}`;
    const busd = devDeployment(97).tokens.BUSD.address;
    const expectedIds: string[] = [];
    for (let i = 0; i < sessions; i++) {
      const demo = await (await fetch(`${api}/demo`)).text();
      const match = /<crypto-checkout slug="([^"]+)" expected-payment="([0-9a-f-]{36})">/.exec(demo);
      expect(match, demo).not.toBeNull();
      const res = await fetch(`${api}/api/v1/checkout/${match![1]}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          expected_payment_id: match![2],
          email: `shopper${i}@example.com`,
          custom_fields: { full_name: `Shopper ${i}` },
          sender_address: devAccounts[1]!.address,
          token_address: busd,
        }),
      });
      expect(res.status, await res.text()).toBe(200);
      expectedIds.push(match![2]!);
    }
    // The sessions' checkouts are in flight: each workflow has run its first task and waits on the chain.
    const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
    try {
      const temporal = new Client({ connection });
      await Promise.all(
        expectedIds.map((id) =>
          readUntil(
            // Not found until the hand-over has started it.
            () =>
              temporal.workflow
                .getHandle(checkoutWorkflowId(id))
                .describe()
                .catch(() => undefined),
            (d) => d?.status.name === 'RUNNING' && d.historyLength >= 4,
            `checkout ${id} never ran`,
          ),
        ),
      );
    } finally {
      await connection.close();
    }
    const before = output.length;

    const started = performance.now();
    process.kill(-child.pid!, 'SIGINT');
    const code = await exited;
    const elapsedMs = performance.now() - started;
    const after = output.slice(before);

    console.info(`npm start: SIGINT → exit ${Math.round(elapsedMs)} ms with ${sessions} running checkouts`);
    expect(code, after).toBe(0);
    expect(after).toMatch(/stopped in \d+\.\d s/);
    expect(after.match(/connection refused/gi) ?? [], after).toEqual([]);
    expect(after.match(/"level":(40|50)/g) ?? [], after).toEqual([]);
    expect(elapsedMs, after).toBeLessThan(5_000);
  }, 240_000);
});
