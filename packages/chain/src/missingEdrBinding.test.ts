import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingEdrBinding } from './missingEdrBinding.ts';

const root = mkdtempSync(join(tmpdir(), 'edr-binding-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An install with EDR's manifest and, when `installed` names one, that binding package. */
function install(installed?: string): string {
  const dir = mkdtempSync(join(root, 'install-'));
  const edr = join(dir, 'node_modules', '@nomicfoundation', 'edr');
  mkdirSync(edr, { recursive: true });
  const manifest = join(edr, 'package.json');
  writeFileSync(
    manifest,
    JSON.stringify({
      name: '@nomicfoundation/edr',
      optionalDependencies: {
        '@nomicfoundation/edr-linux-x64-gnu': '0.22.0',
        '@nomicfoundation/edr-linux-x64-musl': '0.22.0',
        '@nomicfoundation/edr-darwin-arm64': '0.22.0',
      },
    }),
  );
  if (installed) {
    const binding = join(dir, 'node_modules', ...installed.split('/'));
    mkdirSync(binding, { recursive: true });
    writeFileSync(join(binding, 'package.json'), JSON.stringify({ name: installed }));
  }
  return manifest;
}

describe('missingEdrBinding', () => {
  it('finds the binding of this install', () => {
    expect(missingEdrBinding()).toBeUndefined();
  });

  it('names the missing binding and the fix', () => {
    const message = missingEdrBinding({
      edrPackageJson: install(),
      platform: 'linux',
      arch: 'x64',
      glibc: true,
    });
    expect(message).toContain('@nomicfoundation/edr-linux-x64-gnu is not installed');
    expect(message).toContain('HHE200');
    expect(message).toContain('Node.js 22');
    expect(message).toContain('npm install');
  });

  it('looks for the binding of the machine: musl or glibc, macOS', () => {
    const musl = install('@nomicfoundation/edr-linux-x64-musl');
    expect(
      missingEdrBinding({ edrPackageJson: musl, platform: 'linux', arch: 'x64', glibc: false }),
    ).toBeUndefined();
    expect(
      missingEdrBinding({ edrPackageJson: musl, platform: 'linux', arch: 'x64', glibc: true }),
    ).toContain('edr-linux-x64-gnu');
    const mac = install('@nomicfoundation/edr-darwin-arm64');
    expect(missingEdrBinding({ edrPackageJson: mac, platform: 'darwin', arch: 'arm64' })).toBeUndefined();
  });

  it('says when EDR has no binding for the platform at all', () => {
    expect(missingEdrBinding({ edrPackageJson: install(), platform: 'freebsd', arch: 'x64' })).toMatch(
      /no native binding for freebsd-x64/,
    );
  });
});
