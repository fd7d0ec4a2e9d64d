/** Whether Hardhat's native EDR binding for this machine is installed (the dev chain cannot start without it). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where to look: the `@nomicfoundation/edr` manifest to check (the one Hardhat resolves by default). */
export interface MissingEdrBindingOptions {
  edrPackageJson?: string;
  platform?: NodeJS.Platform;
  arch?: string;
  /** True on a glibc Linux, false on musl; read from the process report when absent. */
  glibc?: boolean;
}

/** The binding package EDR loads on this platform, e.g. `@nomicfoundation/edr-linux-x64-gnu`. */
function bindingName(platform: string, arch: string, glibc: boolean): string {
  const abi = platform === 'linux' ? (glibc ? '-gnu' : '-musl') : platform === 'win32' ? '-msvc' : '';
  return `@nomicfoundation/edr-${platform}-${arch}${abi}`;
}

function runsOnGlibc(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime !== undefined;
}

/**
 * Undefined when the native binding resolves; otherwise what is missing and how to fix it. npm skips the
 * binding without a word when `npm install` runs on Node.js older than 22 (its `engines`), and Hardhat
 * then fails with the opaque `HHE200: Plugin "builtin:node" is not installed`.
 */
export function missingEdrBinding(options: MissingEdrBindingOptions = {}): string | undefined {
  const require = createRequire(import.meta.url);
  let manifestPath = options.edrPackageJson;
  if (manifestPath === undefined) {
    try {
      const hardhat = createRequire(require.resolve('hardhat/package.json'));
      // EDR's `exports` hide its package.json; its entry sits beside it.
      manifestPath = join(dirname(hardhat.resolve('@nomicfoundation/edr')), 'package.json');
    } catch {
      return 'Hardhat or @nomicfoundation/edr is not installed: run `npm install` with Node.js 22.';
    }
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    optionalDependencies?: Record<string, string>;
  };
  const platform = options.platform ?? process.platform;
  const arch = options.arch ?? process.arch;
  const name = bindingName(platform, arch, options.glibc ?? (platform === 'linux' && runsOnGlibc()));
  if (manifest.optionalDependencies?.[name] === undefined) {
    return `Hardhat's EDR has no native binding for ${platform}-${arch}: the dev chain cannot run here; set RPC_URL_BINANCE_SMART_CHAIN_TESTNET to a chain of your own.`;
  }
  try {
    createRequire(manifestPath).resolve(`${name}/package.json`);
    return undefined;
  } catch {
    return [
      `Hardhat's native EDR binding ${name} is not installed, so the dev chain cannot start`,
      `(Hardhat would say: HHE200: Plugin "builtin:node" is not installed).`,
      `npm leaves it out when \`npm install\` runs on Node.js older than 22 (this is ${process.version}).`,
      `Fix: put Node.js 22 first on PATH (see README, Quick start) and run \`npm install\` again`,
      `in ${dirname(dirname(dirname(dirname(manifestPath))))}.`,
    ].join('\n');
  }
}
