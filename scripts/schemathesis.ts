/**
 * `npm run schemathesis`: Schemathesis (PyPI) against the live `/openapi.json` of the whole system on
 * embedded defaults (`npm start` in a scratch data directory, on free ports), with every check and both
 * positive and negative data: an answer must match the document, and the server must accept what the
 * document allows and refuse what it does not. `scripts/schemathesis.toml` names the few operations whose
 * registry or cross-field rules the document can only describe (docs/api-decisions.md). Exits with
 * Schemathesis's status.
 *
 * The binary is `SCHEMATHESIS_BIN`, else `.tools/schemathesis/bin/schemathesis` (CI installs it there:
 * `python3 -m venv .tools/schemathesis && .tools/schemathesis/bin/pip install schemathesis==4.32.5`).
 * `SCHEMATHESIS_MAX_EXAMPLES` (default 50) bounds the examples per operation.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const binary = process.env.SCHEMATHESIS_BIN || join(root, '.tools', 'schemathesis', 'bin', 'schemathesis');
const maxExamples = process.env.SCHEMATHESIS_MAX_EXAMPLES || '50';

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: 'inherit', env, cwd: tmpdir() });
    child.once('exit', (code) => done(code ?? 1));
  });
}

async function main(): Promise<number> {
  if (!existsSync(binary)) {
    console.error(
      `schemathesis not found at ${binary}: python3 -m venv .tools/schemathesis && .tools/schemathesis/bin/pip install schemathesis==4.32.5`,
    );
    return 1;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'schemathesis-data-'));
  const [port, chainPort, smtpPort, temporalPort, uiPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    // Three local chains take this port and the next two.
    DEV_CHAIN_PORT: String(chainPort),
    DEV_SMTP_PORT: String(smtpPort),
    DEV_TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    LOG_LEVEL: 'error',
  };
  const system: ChildProcess = spawn(process.execPath, [join(root, 'scripts', 'start.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let banner = '';
  const stop = async () => {
    if (system.exitCode === null && system.pid !== undefined) {
      process.kill(-system.pid, 'SIGINT');
      await new Promise((done) => system.once('exit', done));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error('the system did not start within 180 s')), 180_000);
      system.stdout!.on('data', (chunk: Buffer) => {
        banner += chunk.toString('utf8');
        if (banner.includes('Ctrl-C stops everything')) {
          clearTimeout(timer);
          ready();
        }
      });
      system.once('exit', (code) => fail(new Error(`the system exited during start (code ${code})`)));
    });
    const url = /API\s+(http:\/\/\S+)/.exec(banner)?.[1];
    const key = /API key\s+(\S+)/.exec(banner)?.[1];
    const wallet = /Wallet\s+(0x[0-9a-fA-F]{40})/.exec(banner)?.[1];
    if (!url || !key || !wallet)
      throw new Error(`could not read the API URL, key and wallet from:\n${banner}`);
    return await run(
      binary,
      [
        '--config-file',
        join(root, 'scripts', 'schemathesis.toml'),
        'run',
        `${url}/openapi.json`,
        '-H',
        `Authorization: Bearer ${key}`,
        '-H',
        `X-ADDRESS: ${wallet}`,
        '--checks',
        'all',
        '--mode',
        'all',
        '--max-examples',
        maxExamples,
        '--request-timeout',
        '20',
        // An event stream stays open by design; its 404 and error answers are covered by the other checks.
        '--exclude-path-regex',
        '/events$',
      ],
      env,
    );
  } finally {
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
