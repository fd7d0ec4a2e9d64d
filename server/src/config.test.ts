import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devAccounts, devDeployment, devDepositMnemonic, devMnemonic } from '@checkout/chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

let dir: string;
const base = () => ({ NODE_ENV: 'test', DATA_DIR: dir });

/** A self-signed certificate and its key, written as PEM files named `<name>.crt` and `<name>.key`. */
function certificate(name: string): { crt: string; key: string } {
  const crt = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    // biome-ignore format: one openssl command line
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', `/CN=${name}`, '-keyout', key, '-out', crt],
    { stdio: 'ignore' },
  );
  return { crt, key };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'config-test-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('ROLE', () => {
  it('runs the API and the worker by default', () => {
    expect(loadConfig(base()).role).toBe('all');
  });

  it('takes api, worker or all', () => {
    for (const role of ['api', 'worker', 'all'] as const) {
      expect(loadConfig({ ...base(), ROLE: role }).role).toBe(role);
    }
    expect(() => loadConfig({ ...base(), ROLE: 'scheduler' })).toThrow(/ROLE/);
  });

  it('keeps RUN_WORKER=false as the older spelling of ROLE=api', () => {
    expect(loadConfig({ ...base(), RUN_WORKER: 'false' }).role).toBe('api');
    expect(loadConfig({ ...base(), RUN_WORKER: 'true' }).role).toBe('all');
    expect(loadConfig({ ...base(), RUN_WORKER: 'false', ROLE: 'api' }).role).toBe('api');
    expect(loadConfig({ ...base(), RUN_WORKER: 'true', ROLE: 'worker' }).role).toBe('worker');
  });

  it('refuses a RUN_WORKER that contradicts ROLE', () => {
    expect(() => loadConfig({ ...base(), RUN_WORKER: 'false', ROLE: 'worker' })).toThrow(
      /RUN_WORKER: false contradicts ROLE=worker/,
    );
    expect(() => loadConfig({ ...base(), RUN_WORKER: 'true', ROLE: 'api' })).toThrow(ConfigError);
  });
});

describe('Temporal connection', () => {
  let client: { crt: string; key: string };
  let other: { crt: string; key: string };
  beforeAll(() => {
    client = certificate('client');
    other = certificate('other');
  });

  it('is plain gRPC without TLS settings', () => {
    const config = loadConfig({ ...base(), TEMPORAL_ADDRESS: 'temporal:7233' });
    expect(config.temporal.tls).toBeUndefined();
    expect(config.temporal.apiKey).toBeUndefined();
  });

  it('reads the mTLS pair, the server CA and the server name', () => {
    const config = loadConfig({
      ...base(),
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      TEMPORAL_TLS_CERT: client.crt,
      TEMPORAL_TLS_KEY: client.key,
      TEMPORAL_TLS_CA: other.crt,
      TEMPORAL_TLS_SERVER_NAME: 'frontend.temporal.internal',
    });
    const tls = config.temporal.tls!;
    expect(tls.clientCertPair?.crt.toString()).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(tls.clientCertPair?.key.toString()).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(tls.serverRootCACertificate?.toString()).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(tls.serverNameOverride).toBe('frontend.temporal.internal');
  });

  it('turns TLS on for an API key alone (Temporal Cloud)', () => {
    const config = loadConfig({
      ...base(),
      TEMPORAL_ADDRESS: 'eu-west-1.aws.api.temporal.io:7233',
      TEMPORAL_NAMESPACE: 'shop.a1b2c',
      TEMPORAL_API_KEY: 'eyJhbGciOi.key',
    });
    expect(config.temporal.tls).toEqual({});
    expect(config.temporal.apiKey).toBe('eyJhbGciOi.key');
  });

  it('turns TLS on with TEMPORAL_TLS=true and nothing else (a server with a public certificate)', () => {
    const config = loadConfig({ ...base(), TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_TLS: 'true' });
    expect(config.temporal.tls).toEqual({});
  });

  it('refuses a certificate without its key, and a key of another certificate', () => {
    expect(() =>
      loadConfig({ ...base(), TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_TLS_CERT: client.crt }),
    ).toThrow(/TEMPORAL_TLS_KEY: is required with TEMPORAL_TLS_CERT/);
    expect(() =>
      loadConfig({
        ...base(),
        TEMPORAL_ADDRESS: 'temporal:7233',
        TEMPORAL_TLS_CERT: client.crt,
        TEMPORAL_TLS_KEY: other.key,
      }),
    ).toThrow(/TEMPORAL_TLS_KEY: does not belong to the certificate/);
  });

  it('names unreadable and malformed files', () => {
    const garbage = join(dir, 'garbage.pem');
    writeFileSync(garbage, 'not a certificate');
    expect(() =>
      loadConfig({ ...base(), TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_TLS_CA: join(dir, 'missing.pem') }),
    ).toThrow(/TEMPORAL_TLS_CA: cannot read .*missing\.pem \(ENOENT\)/);
    let error: unknown;
    try {
      loadConfig({
        ...base(),
        TEMPORAL_ADDRESS: 'temporal:7233',
        TEMPORAL_TLS_CERT: garbage,
        TEMPORAL_TLS_KEY: garbage,
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('TEMPORAL_TLS_CERT: is not a PEM certificate');
    expect((error as Error).message).toContain('TEMPORAL_TLS_KEY: is not a PEM private key');
  });

  it('refuses TLS settings without TEMPORAL_ADDRESS, and TEMPORAL_TLS=false with an API key', () => {
    expect(() => loadConfig({ ...base(), TEMPORAL_API_KEY: 'key' })).toThrow(
      /TEMPORAL_ADDRESS: is required with TLS or an API key/,
    );
    expect(() =>
      loadConfig({
        ...base(),
        TEMPORAL_ADDRESS: 'temporal:7233',
        TEMPORAL_TLS: 'false',
        TEMPORAL_API_KEY: 'k',
      }),
    ).toThrow(/TEMPORAL_TLS: false contradicts TEMPORAL_API_KEY/);
  });

  it('bounds the worker shutdown grace time', () => {
    expect(loadConfig(base()).temporal.shutdownGraceMs).toBe(2_000);
    expect(loadConfig({ ...base(), TEMPORAL_SHUTDOWN_GRACE_SECONDS: '0.5' }).temporal.shutdownGraceMs).toBe(
      500,
    );
    expect(() => loadConfig({ ...base(), TEMPORAL_SHUTDOWN_GRACE_SECONDS: '600' })).toThrow(
      /TEMPORAL_SHUTDOWN_GRACE_SECONDS/,
    );
  });
});

describe('test networks', () => {
  it("knows BNB Smart Chain's always, and Ethereum's and Polygon's only when their RPC URL is set", () => {
    expect(loadConfig(base()).testnets.map((t) => [t.blockchain, t.chainId])).toEqual([
      ['binance-smart-chain', 97],
    ]);
    const all = loadConfig({
      ...base(),
      RPC_URL_BINANCE_SMART_CHAIN_TESTNET: 'http://127.0.0.1:8545',
      RPC_URL_ETHEREUM_TESTNET: 'http://127.0.0.1:8546',
      RPC_URL_POLYGON_TESTNET: 'http://127.0.0.1:8547',
      CONFIRMATIONS_POLYGON_TESTNET: '3',
    });
    expect(all.testnets.map((t) => [t.blockchain, t.chainId])).toEqual([
      ['binance-smart-chain', 97],
      ['ethereum', 11155111],
      ['polygon', 80002],
    ]);
    // Each defaults to BNB Smart Chain's test contracts: the dev chain deploys them at the same addresses.
    expect(all.testnets[1]).toMatchObject({
      testTokenAddress: all.testnet.testTokenAddress,
      router: all.testnet.router,
      swapTokens: all.testnet.swapTokens,
    });
    expect(
      all.chains.filter((c) => ![1, 56, 137].includes(c.chainId)).map((c) => [c.name, c.confirmations]),
    ).toEqual([
      ['BNB Smart Chain Testnet', 1],
      ['Ethereum Sepolia', 1],
      ['Polygon Amoy', 3],
    ]);
  });

  it('takes contracts of their own, and refuses one chain id for two chains', () => {
    const own = loadConfig({
      ...base(),
      RPC_URL_POLYGON_TESTNET: 'http://127.0.0.1:8547',
      TEST_TOKEN_ADDRESS_POLYGON_TESTNET: '0x41e94eb019c0762f9bfcf9fb1e58725bfb0e7582',
      SWAP_TOKENS_POLYGON_TESTNET: 'USDC:0x41e94eb019c0762f9bfcf9fb1e58725bfb0e7582:6',
    });
    expect(own.testnets[1]).toMatchObject({
      testTokenAddress: '0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582',
      swapTokens: [{ symbol: 'USDC', decimals: 6 }],
    });
    expect(() =>
      loadConfig({
        ...base(),
        RPC_URL_ETHEREUM_TESTNET: 'http://127.0.0.1:8546',
        CHAIN_ID_ETHEREUM_TESTNET: '97',
      }),
    ).toThrow(/chain id 97 is given to two chains/);
    expect(() =>
      loadConfig({ ...base(), RPC_URL_POLYGON_TESTNET: 'http://x', SWAP_TOKENS_POLYGON_TESTNET: 'FOO:1:2' }),
    ).toThrow(/SWAP_TOKENS_POLYGON_TESTNET: "FOO:1:2"/);
    expect(() => loadConfig({ ...base(), RPC_URL_POLYGON_TESTNET: 'http://x' })).not.toThrow(ConfigError);
  });
});

describe('production secrets', () => {
  const production = () => ({
    ...base(),
    NODE_ENV: 'production',
    SECRET_KEY: 'ab'.repeat(32),
    DEPOSIT_MNEMONIC: devDepositMnemonic,
    TREASURY_PRIVATE_KEY: `0x${'cd'.repeat(32)}`,
  });

  it('requires the secret key, the deposit mnemonic and the treasury key, naming the one missing', () => {
    expect(loadConfig(production()).env).toBe('production');
    for (const name of ['SECRET_KEY', 'DEPOSIT_MNEMONIC', 'TREASURY_PRIVATE_KEY'] as const) {
      expect(() => loadConfig({ ...production(), [name]: '' })).toThrow(`${name}: is required in production`);
    }
  });

  it("derives development deposits from a mnemonic of their own, not the dev chain's", () => {
    expect(loadConfig(base()).ramps.depositMnemonic).toBe(devDepositMnemonic);
    expect(devDepositMnemonic).not.toBe(devMnemonic);
  });
});

describe('chains', () => {
  it('takes one RPC URL or several, preferred first, and a block time per chain', () => {
    const config = loadConfig({
      ...base(),
      RPC_URL_ETHEREUM: 'https://mainnet.infura.io/v3/k1, https://eth-mainnet.g.alchemy.com/v2/k2',
      RPC_URL_POLYGON: 'https://polygon-rpc.com',
      BLOCK_TIME_MS_POLYGON: '2100',
    });
    expect(config.chains.map((c) => [c.name, c.rpcUrls, c.blockTimeMs])).toEqual([
      ['Ethereum', ['https://mainnet.infura.io/v3/k1', 'https://eth-mainnet.g.alchemy.com/v2/k2'], 12_000],
      ['Polygon', ['https://polygon-rpc.com'], 2_100],
    ]);
    expect(config.chainWatch.maxLagBlocks).toBe(50);
  });

  it('refuses an endpoint that is not an http(s) URL, naming the variable', () => {
    expect(() => loadConfig({ ...base(), RPC_URL_POLYGON: 'https://a.example, wss://b.example' })).toThrow(
      /RPC_URL_POLYGON\.1: each URL must be http:\/\/ or https:\/\//,
    );
    expect(() => loadConfig({ ...base(), RPC_URL_POLYGON: ' , ' })).toThrow(/RPC_URL_POLYGON/);
  });

  it('gives phone payments a deposit address only where asked, under the dev factory on a test network', () => {
    const rpc = {
      RPC_URL_BINANCE_SMART_CHAIN_TESTNET: 'http://127.0.0.1:8545',
      RPC_URL_POLYGON: 'https://p.example',
    };
    const plain = loadConfig({ ...base(), ...rpc });
    expect(plain.chains.map((c) => c.depositFactory)).toEqual([undefined, undefined]);
    const deposit = loadConfig({
      ...base(),
      ...rpc,
      PHONE_PAYMENT_MODE_BINANCE_SMART_CHAIN_TESTNET: 'deposit_address',
      SWEEP_MAX_GAS_PRICE_GWEI_BINANCE_SMART_CHAIN_TESTNET: '0.5',
    });
    const testnet = deposit.chains.find((c) => c.chainId === 97)!;
    expect(testnet.depositFactory).toBe(devDeployment(97).depositFactory);
    expect(testnet.sweepMaxGasPriceWei).toBe(500_000_000n);
    expect(deposit.checkout.sweeperPrivateKey).toBe(devAccounts[6]!.privateKey);
  });

  it('refuses deposit addresses on a main network without its factory, and a malformed gas ceiling', () => {
    const rpc = { RPC_URL_POLYGON: 'https://p.example' };
    expect(() => loadConfig({ ...base(), ...rpc, PHONE_PAYMENT_MODE_POLYGON: 'deposit_address' })).toThrow(
      /PHONE_PAYMENT_MODE_POLYGON: deposit_address needs DEPOSIT_FACTORY_ADDRESS_POLYGON/,
    );
    const factory = '0x00000000000000000000000000000000000fac70';
    const given = loadConfig({
      ...base(),
      ...rpc,
      PHONE_PAYMENT_MODE_POLYGON: 'deposit_address',
      DEPOSIT_FACTORY_ADDRESS_POLYGON: factory,
    });
    expect(given.chains[0]!.depositFactory?.toLowerCase()).toBe(factory);
    expect(() => loadConfig({ ...base(), SWEEP_MAX_GAS_PRICE_GWEI_POLYGON: '1e9' })).toThrow(
      /SWEEP_MAX_GAS_PRICE_GWEI_POLYGON/,
    );
  });
});
