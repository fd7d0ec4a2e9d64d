/** What every handler can reach through `ctx.state` and the app's dependencies. */
import type { ChainClients } from '@checkout/chain';
import type { Actor, Scope, TokenRegistry } from '@checkout/core';
import type { Database, Db, SecretBox } from '@checkout/db';
import type { HandOver, RampChains } from '@checkout/workflows';
import type { Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import type { AuthCache } from './authCache.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import type { SessionEvents } from './sessionEvents.ts';

/** Long-lived collaborators the app is built with. */
export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  metrics: Metrics;
  tokens: TokenRegistry;
  secrets: SecretBox;
  /** Chains with an RPC endpoint: the ones that take payments. */
  chains: ChainClients;
  /** What authentication verified, kept while this process hears of every change to it. */
  authCache: AuthCache;
  /** Session changes, pushed to the checkout event streams of this process. */
  sessionEvents: SessionEvents;
  /** The hand-over to Temporal: makes each request's queued workflow calls after it, sweeps the rest. */
  handOver: HandOver;
  /** Absent when the service runs without Temporal (health reports it). */
  temporal?: {
    client: Client;
    check(): Promise<void>;
    /** Workers polling the service's task queue lately (workflow and activity pollers). */
    workers(): Promise<{ workflow: number; activity: number }>;
  };
}

/** Per-request state. */
export interface AppState {
  requestId: string;
  log: Logger;
  /** The database handle of this request: a transaction when an Idempotency-Key is used. */
  db: Kysely<Database>;
  /**
   * The caller's merchant, from an API key or a console session; `testOnly` for a test key, which sees and
   * changes only test networks' records; `scopes`, what the caller may do (each route checks the one it
   * needs); `actor`, who the audit log names; `apiKeyId`, the key's (none for a console session).
   */
  merchant?: {
    merchantId: string;
    apiKeyId?: string;
    testOnly: boolean;
    scopes: readonly Scope[];
    actor: Actor;
  };
  address?: { id: string; address: string; verified: boolean; productsVersion: number };
  /** The raw request body, when one was read. */
  rawBody?: Buffer;
  body?: unknown;
  /** The query parameters the route declares, parsed (`checkingQuery`, routes/declare.ts). */
  query?: unknown;
  route?: string;
  /**
   * The route's effect must be committed before it answers (it waits on the worker): its Idempotency-Key is
   * claimed in a transaction of its own first, not around the handler (`x-idempotency: claim_first`).
   */
  claimFirst?: boolean;
}

/** The chains ramps are made on: mainnet in production, the test networks elsewhere, each with an RPC endpoint. */
export function rampChains(deps: Pick<AppDeps, 'tokens' | 'chains' | 'config'>): RampChains {
  return {
    tokens: deps.tokens,
    hasChain: (chainId) => deps.chains.has(chainId),
    network: deps.config.env === 'production' ? 'mainnet' : 'testnet',
  };
}
