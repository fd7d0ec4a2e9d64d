/**
 * `npm start`: the whole system on embedded defaults. Starts the Temporal dev server (state and
 * Web UI) unless TEMPORAL_ADDRESS is set, a local EVM chain with test tokens and swap pools for each test
 * network (BNB Smart Chain testnet 97, Ethereum Sepolia 11155111, Polygon Amoy 80002) whose RPC URL is not
 * set, and a local SMTP inbox unless SMTP_URL is set; then the service (API and worker, or the one ROLE names) in this process. Prints every URL and a
 * ready API key. Ctrl-C stops the service first (the worker drains), then every child.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapDevChain, type DevDeployment, startDevChain } from '@checkout/chain';
import { testNetworks } from '@checkout/core';
import { type DevInbox, startDevInbox } from '@checkout/mail';
import { loadConfig, startService } from '@checkout/server';
import { startTemporalDevServer, type TemporalDevServer } from '@checkout/workflows';
import { fetchTemporal } from './fetchTemporal.ts';

/** The test networks `npm start` runs a local chain for, with the settings that point the service at one. */
const devNetworks = testNetworks.map((n) => {
  const key = n.blockchain === 'binance-smart-chain' ? 'BINANCE_SMART_CHAIN' : n.blockchain.toUpperCase();
  return {
    ...n,
    rpcEnv: `RPC_URL_${key}_TESTNET`,
    chainIdEnv: n.blockchain === 'binance-smart-chain' ? 'TESTNET_CHAIN_ID' : `CHAIN_ID_${key}_TESTNET`,
  };
});

async function main(): Promise<void> {
  const stops: Array<() => Promise<void>> = [];
  let stopping = false;
  // Newest first: the service (HTTP, then the worker draining its tasks), then the Temporal dev server,
  // the inbox and the chain it was still using.
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    console.error('\nstopping… (Ctrl-C again to stop at once)');
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error(`shutdown step failed: ${(error as Error).message}`);
      }
    }
    console.error(`stopped in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    process.exit(code);
  };
  // The children run in their own process groups, so a terminal's Ctrl-C reaches only this process and
  // nothing stops before the worker has drained. A second signal exits at once; the dev server is then
  // killed on exit and the dev chain ends itself when this process is gone.
  const onSignal = () => {
    if (stopping) process.exit(130);
    void shutdown(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

  try {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
    // The hosted pages serve the built element and /console the built console. A manifest is its build's last
    // file (a dist from before hashed names has none), so a missing one means an unbuilt or half-built dist.
    for (const [workspace, manifest, what] of [
      ['widget', 'widget-manifest.json', 'the <crypto-checkout> element'],
      ['console', 'console-manifest.json', 'the merchant console'],
    ] as const) {
      if (existsSync(join(root, workspace, 'dist', manifest))) continue;
      console.error(`building ${what}…`);
      execFileSync('npm', ['run', 'build', '-w', workspace], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    }
    const dataDir = resolve(process.env.DATA_DIR || '.data');
    // One local chain per test network without an RPC URL of its own, started side by side.
    const basePort = Number(process.env.DEV_CHAIN_PORT || 8545);
    const devChains = (
      await Promise.all(
        devNetworks.map(async (network, offset) => {
          if (process.env[network.rpcEnv]) return [];
          const chain = await startDevChain({
            chainId: Number(process.env[network.chainIdEnv] || network.chainId),
            port: basePort === 0 ? 0 : basePort + offset,
            detached: true,
          });
          stops.push(() => chain.stop());
          const deployment = await bootstrapDevChain({ rpcUrl: chain.rpcUrl });
          process.env[network.rpcEnv] = chain.rpcUrl;
          // Shoppers' browsers read the dev chain directly, and wallets that add it get this URL.
          process.env[`PUBLIC_${network.rpcEnv}`] ??= chain.rpcUrl;
          // Phones pay a deposit address of their own on the dev chains, swept by the dev gas wallet.
          process.env[network.rpcEnv.replace('RPC_URL_', 'PHONE_PAYMENT_MODE_')] ??= 'deposit_address';
          return [{ network, chain, deployment }];
        }),
      )
    ).flat();
    let inbox: DevInbox | undefined;
    if (!process.env.SMTP_URL) {
      inbox = await startDevInbox({
        dir: join(dataDir, 'mail'),
        port: Number(process.env.DEV_SMTP_PORT || 2525),
      });
      stops.push(() => inbox!.close());
      process.env.SMTP_URL = inbox.smtpUrl;
      process.env.DEV_INBOX_DIR = inbox.dir;
    }
    const config = loadConfig();
    let temporal: TemporalDevServer | undefined;
    if (!config.temporal.address) {
      const { cli } = fetchTemporal();
      mkdirSync(config.dataDir, { recursive: true });
      temporal = await startTemporalDevServer({
        binary: cli,
        dbFilename: join(config.dataDir, 'temporal.sqlite'),
        port: Number(process.env.DEV_TEMPORAL_PORT || 7233),
        uiPort: config.temporal.uiPort,
        namespace: config.temporal.namespace,
        detached: true,
      });
      stops.push(() => temporal!.stop());
    }
    const service = await startService(config, temporal ? { temporalAddress: temporal.address } : {});
    stops.push(() => service.stop());

    const lines = [
      '',
      config.role === 'worker'
        ? `  Worker        ROLE=worker: no API; health ${service.url}/health, metrics ${service.url}/metrics`
        : `  API           ${service.url}   (OpenAPI: ${service.url}/openapi.json, health: ${service.url}/health)`,
      `  Temporal UI   ${temporal?.uiUrl ?? `(external Temporal at ${config.temporal.address})`}`,
      `  Database      ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}`,
    ];
    for (const { network, chain } of devChains) {
      lines.push(
        `  Dev chain     ${chain.rpcUrl}   (chain id ${chain.chainId}, as ${network.blockchain} testnet: ${network.name})`,
      );
    }
    // The bootstrap deploys the same contracts at the same addresses on every chain.
    const deployment: DevDeployment | undefined = devChains[0]?.deployment;
    if (deployment) {
      lines.push(
        `  Test tokens   BUSD ${deployment.tokens.BUSD.address}   USDC ${deployment.tokens.USDC.address}`,
        `                DAI ${deployment.tokens.DAI.address}   USDT ${deployment.tokens.USDT.address}`,
        `                (on every dev chain; products take the test BUSD, shoppers pay with any of them)`,
        `  Router        ${deployment.router}`,
        `  Shopper       ${deployment.shoppers[0]!.address}   key ${deployment.shoppers[0]!.privateKey}`,
      );
    }
    if (config.role !== 'worker') {
      // The sign-in message names PUBLIC_BASE_URL: the console is opened there.
      lines.push(
        `  Console       ${config.publicBaseUrl.replace(/\/$/, '')}/console   (sign in with the receiving wallet)`,
      );
    }
    if (config.env !== 'production' && config.role !== 'worker') {
      lines.push(`  Demo shop     ${service.url}/demo   (hosted checkout: ${service.url}/checkout/<slug>)`);
    }
    if (inbox)
      lines.push(`  Mail inbox    ${service.url}/dev/mail   (SMTP ${inbox.smtpUrl}, files in ${inbox.dir})`);
    if (service.devApiKey) {
      lines.push(
        `  Wallet        ${service.devApiKey.address}   (send it as X-ADDRESS)`,
        `  API key       ${service.devApiKey.key}   (live: every record)`,
        ...(service.devApiKey.testKey
          ? [`  Test API key  ${service.devApiKey.testKey}   (test networks only)`]
          : []),
        '',
        '  Try:',
        `    curl -s ${service.url}/api/v1/products -H "Authorization: Bearer ${service.devApiKey.key}" -H "X-ADDRESS: ${service.devApiKey.address}"`,
      );
    }
    lines.push('', '  Ctrl-C stops everything.', '');
    console.log(lines.join('\n'));
  } catch (error) {
    console.error(`could not start: ${(error as Error).message}`);
    await shutdown(1);
  }
}

void main();
