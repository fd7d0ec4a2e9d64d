/**
 * The service process: database, Temporal client and worker, HTTP API and the admin socket,
 * started and stopped as one unit.
 */
import { once } from 'node:events';
import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createChainClients } from '@checkout/chain';
import { createTokenRegistry } from '@checkout/core';
import {
  createApiKey,
  createSecretBox,
  type Db,
  ensureApiKey,
  openDatabase,
  purgeIdempotencyKeys,
  revokeApiKeysLabelled,
  sealPlaintextWebhookPayloads,
} from '@checkout/db';
import { createMailer } from '@checkout/mail';
import {
  countLivePollers,
  createActivities,
  createHandOver,
  createWorker,
  ensureChainWatchers,
  ensureDepositSweepers,
  installRuntime,
  type WorkerResources,
} from '@checkout/workflows';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { startAdminSocket } from './adminSocket.ts';
import { createApp, createOpsApp } from './app.ts';
import { createAuthCache } from './authCache.ts';
import { type Config, devWalletAddress, type TemporalTls } from './config.ts';
import type { AppDeps } from './context.ts';
import { createLogger, type Logger, temporalLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { createSessionEvents } from './sessionEvents.ts';
import { createRetryGate, type RetryGate } from './temporalRetries.ts';

/** A running service. */
export interface RunningService {
  url: string;
  port: number;
  deps: AppDeps;
  /** The key `npm start` printed (development only). */
  /** The development keys: a live one, and at `npm start` a test one (test networks only). */
  devApiKey?: { key: string; testKey?: string; address: string };
  stop(): Promise<void>;
}

/** How long open HTTP connections may finish on stop before they are closed. */
const httpDrainMs = 1_000;

/** How long after its grace time a stopping worker gives up on tasks that ignore cancellation. */
const workerForceMarginMs = 3_000;

/** Opens the database the configuration names. */
export async function openConfiguredDatabase(config: Config, adminSocket?: string): Promise<Db> {
  return config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize })
    : openDatabase({ kind: 'pglite', dataDir: config.dataDir, ...(adminSocket ? { adminSocket } : {}) });
}

/**
 * Address, TLS and API key of the Temporal connection, shared by the client and the worker.
 * @internal exported for its unit test
 */
export function temporalConnectionOptions(
  config: Config,
  address: string,
): { address: string; tls?: TemporalTls; apiKey?: string } {
  const { tls, apiKey } = config.temporal;
  return { address, ...(tls ? { tls } : {}), ...(apiKey ? { apiKey } : {}) };
}

async function connectTemporal(
  config: Config,
  address: string,
  logger: Logger,
  retries: RetryGate,
  deadlineMs = 30_000,
): Promise<Connection> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await Connection.connect({
        ...temporalConnectionOptions(config, address),
        connectTimeout: 2_000,
        interceptors: [retries.interceptor],
      });
    } catch (error) {
      if (Date.now() - started > deadlineMs) throw error;
      logger.warn({ address, attempt }, 'Temporal not reachable yet; retrying');
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Shutdown steps, run in reverse order of their registration. */
type Cleanups = Array<() => Promise<void>>;

/** The development key: a fixed one (`config.dev`), or a fresh one printed at each `npm start`. */
async function seedDevApiKey(config: Config, db: Db): Promise<RunningService['devApiKey']> {
  if (config.dev) {
    await ensureApiKey(db.kysely, { key: config.dev.apiKey, address: config.dev.walletAddress });
    return { key: config.dev.apiKey, address: config.dev.walletAddress };
  }
  if (config.env !== 'development') return undefined;
  // One printed pair at a time: the keys of the previous start are revoked.
  await revokeApiKeysLabelled(db.kysely, 'npm start');
  await revokeApiKeysLabelled(db.kysely, 'npm start (test)');
  const created = await createApiKey(db.kysely, { address: devWalletAddress, label: 'npm start' });
  const test = await createApiKey(db.kysely, {
    address: devWalletAddress,
    label: 'npm start (test)',
    mode: 'test',
  });
  return { key: created.key, testKey: test.key, address: created.address };
}

/** What the worker serves beyond the configuration (its pages' base URL is configured), and its metrics. */
type ServedResources = Omit<WorkerResources, 'publicBaseUrl'> & Pick<AppDeps, 'metrics'>;

/**
 * Runs the Temporal worker with every family's activities, and keeps one watcher per chain started (by
 * whichever worker asks first; asked again now and then, so a watcher that was stopped, or a Temporal that
 * was away, gets one again).
 */
async function runWorker(
  config: Config,
  address: string,
  client: Client,
  resources: ServedResources,
  context: { logger: Logger; cleanups: Cleanups; options: ServiceOptions },
): Promise<void> {
  const { logger, cleanups, options } = context;
  const nativeConnection = await NativeConnection.connect(temporalConnectionOptions(config, address));
  cleanups.push(() => nativeConnection.close());
  const { metrics, ...served } = resources;
  const worker = await createWorker({
    connection: nativeConnection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: {
      ...createActivities({
        ...served,
        publicBaseUrl: config.publicBaseUrl,
        checkout: config.checkout,
        webhooks: config.webhooks,
        ramps: config.ramps,
        kyc: { sessionTimeoutMinutes: config.areaB.kycSessionTimeoutMinutes },
      }),
      ...options.extraActivities,
    },
    ...(options.workflowBundlePath ? { workflowBundle: { codePath: options.workflowBundlePath } } : {}),
    onFinalFailure: (failure) => metrics.finalActivityFailures.inc(failure),
    shutdownGraceTime: config.temporal.shutdownGraceMs,
    shutdownForceTime: config.temporal.shutdownGraceMs + workerForceMarginMs,
  });
  const workerRun = worker.run().catch((error: unknown) => {
    logger.error({ err: error }, 'Temporal worker stopped with an error');
  });
  cleanups.push(async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await workerRun;
  });
  const watched = config.chains.filter((c) => served.tokens.chainById(c.chainId));
  // Chains whose phone payments get deposit addresses have a sweeper too (when a gas wallet is set).
  const swept = config.checkout.sweeperPrivateKey ? watched.filter((c) => c.depositFactory) : [];
  const ensureWatchers = () =>
    Promise.all([
      ensureChainWatchers(client, { taskQueue: config.temporal.taskQueue, chains: watched }),
      ensureDepositSweepers(client, { taskQueue: config.temporal.taskQueue, chains: swept }),
    ]).catch((error: unknown) => logger.warn({ err: error }, 'could not start the chain watchers'));
  void ensureWatchers();
  const watcherTimer = setInterval(() => void ensureWatchers(), 60_000);
  watcherTimer.unref();
  cleanups.push(async () => clearInterval(watcherTimer));
}

/** Connects to Temporal (and runs the worker, unless this process serves the API only). */
async function startTemporal(
  config: Config,
  address: string,
  resources: ServedResources,
  context: { logger: Logger; cleanups: Cleanups; options: ServiceOptions },
): Promise<NonNullable<AppDeps['temporal']>> {
  installRuntime({ logger: temporalLogger(context.logger) });
  const retries = createRetryGate();
  const connection = await connectTemporal(config, address, context.logger, retries);
  context.cleanups.push(async () => {
    await retries.drain();
    await connection.close();
  });
  const client = new Client({ connection, namespace: config.temporal.namespace });
  if (config.role !== 'api') await runWorker(config, address, client, resources, context);
  return {
    client,
    check: async () => {
      await connection.workflowService.getSystemInfo({});
    },
    workers: () => countLivePollers(client, config.temporal.namespace, config.temporal.taskQueue),
  };
}

/** Serves the API (or, in a worker-only process, /health and /metrics) on PORT; the port it got. */
async function serveHttp(config: Config, deps: AppDeps, cleanups: Cleanups): Promise<number> {
  const handle = (config.role !== 'worker' ? createApp(deps) : createOpsApp(deps)).callback();
  const server: Server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 65_000;
  await once(server.listen(config.port, config.host), 'listening');
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        // Open streams (session events) would hold close() forever: they are cut after a moment.
        const cut = setTimeout(() => server.closeAllConnections(), httpDrainMs);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  );
  // Runs before the server closes: open event streams end, so their connections do not hold it open.
  cleanups.push(() => deps.sessionEvents.close());
  return (server.address() as AddressInfo).port;
}

/** What a start may be given instead of the configuration's defaults. */
interface ServiceOptions {
  temporalAddress?: string;
  logger?: Logger;
  workflowBundlePath?: string;
  db?: Db;
  /** Activities served next to the service's own (a test bundle's interceptors may call them). */
  extraActivities?: object;
}

/** Starts everything; `temporalAddress` overrides the configured one (the dev server picks its own). */
export async function startService(config: Config, options: ServiceOptions = {}): Promise<RunningService> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const adminSocketPath = config.databaseUrl || options.db ? undefined : join(config.dataDir, 'admin.sock');
  const db = options.db ?? (await openConfiguredDatabase(config, adminSocketPath));
  // A database handed in belongs to the caller, who closes it.
  const cleanups: Cleanups = options.db ? [] : [() => db.close()];
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        logger.error({ err: error }, 'shutdown step failed');
      }
    }
    cleanups.length = 0;
  };

  try {
    const api = config.role !== 'worker';
    // A worker-only process serves no API, so it seeds and prints no key.
    const devApiKey = api ? await seedDevApiKey(config, db) : undefined;
    const secrets = createSecretBox(config.secretKey);
    // Webhook bodies stored in the clear by an earlier version are sealed once, before anything sends them.
    const sealed = await sealPlaintextWebhookPayloads(db.kysely, secrets);
    if (sealed > 0) logger.info({ sealed }, 'sealed webhook payloads stored in the clear');
    const tokens = createTokenRegistry(config.testnets);
    const metrics = createMetrics();
    const chains = createChainClients(config.chains, {
      onRequest: ({ chainId, method }) => metrics.chainRpcRequests.inc({ chain: String(chainId), method }),
      onError: ({ chainId, method, kind, endpoint }) =>
        metrics.chainRpcErrors.inc({ chain: String(chainId), method, kind, endpoint: String(endpoint) }),
    });
    const mailer = config.mail.smtpUrl
      ? createMailer({
          smtpUrl: config.mail.smtpUrl,
          from: config.mail.from,
          unknownOutcomeRetryMs: config.mail.unknownOutcomeRetryMs,
          onOutcomeUnknown: () => metrics.mailOutcomeUnknown.inc(),
        })
      : undefined;
    const temporalAddress = options.temporalAddress ?? config.temporal.address;
    if (!temporalAddress && config.role === 'worker') {
      throw new Error('ROLE=worker needs Temporal: set TEMPORAL_ADDRESS');
    }
    if (!temporalAddress) logger.warn('TEMPORAL_ADDRESS is not set: workflows are disabled');
    const shared = { db, secrets, tokens, chains, metrics };
    const temporal = temporalAddress
      ? await startTemporal(config, temporalAddress, { ...shared, mailer }, { logger, cleanups, options })
      : undefined;

    const sessionEvents = createSessionEvents(db, { logger });
    const authCache = createAuthCache(db, { logger, metrics });
    cleanups.push(() => authCache.close());
    const handOver = createHandOver({
      db: db.kysely,
      temporal,
      taskQueue: config.temporal.taskQueue,
      log: logger,
    });
    const deps: AppDeps = {
      config,
      logger,
      ...shared,
      authCache,
      sessionEvents,
      handOver,
      ...(temporal ? { temporal } : {}),
    };
    if (temporal && api) {
      // Calls Temporal did not take when they were queued (it was away, the process died) are made later.
      const sweep = handOver.start(config.ramps.reconcileIntervalMs);
      cleanups.push(() => sweep.stop());
    }
    const port = await serveHttp(config, deps, cleanups);
    if (adminSocketPath) {
      if (existsSync(adminSocketPath)) rmSync(adminSocketPath);
      const admin = await startAdminSocket(adminSocketPath, db, logger);
      cleanups.push(() => admin.close());
    }
    if (api) {
      // Expired idempotency keys are purged hourly.
      const purge = setInterval(() => {
        purgeIdempotencyKeys(db.kysely).catch((error: unknown) =>
          logger.warn({ err: error }, 'idempotency purge failed'),
        );
      }, 3_600_000);
      purge.unref();
      cleanups.push(async () => clearInterval(purge));
    }

    const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
    logger.info(
      { url, role: config.role, database: db.kind, temporal: temporalAddress ?? null },
      'service started',
    );
    return { url, port, deps, ...(devApiKey ? { devApiKey } : {}), stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
