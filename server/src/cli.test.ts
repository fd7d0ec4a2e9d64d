/** The command line as an operator runs it: a real process, its output and exit code. */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'checkout-cli-')), DATABASE_URL: '' };
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('cli', () => {
  it('prints its usage for --help and -h, and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = await run(flag);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^usage:/);
      expect(stdout).toContain('api-keys revoke <api-key-id>');
      expect(stderr).toBe('');
    }
  });

  it('answers an unknown option or command with what is wrong and the usage', async () => {
    const unknown = await run('--verbose');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--verbose'/);
    expect(unknown.stderr).toContain('usage:');
    const nothing = await run('api-keys', 'rotate');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/^usage:/);
  });

  it('refuses a key id that is not a UUID in words, before opening any database', async () => {
    const { code, stdout, stderr } = await run('api-keys', 'revoke', 'not-a-uuid');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      '"not-a-uuid" is not an API key id: ids are UUIDs, as api-keys list shows them',
    );
    const address = await run('api-keys', 'create', '--address', '0x1234');
    expect(address.code).toBe(1);
    expect(address.stderr.trim()).toBe('--address must be a valid EVM address');
  });
});
