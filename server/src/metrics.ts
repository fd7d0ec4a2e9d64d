/** Prometheus metrics of the HTTP API and the process. */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The metric registry and the HTTP series. */
export type Metrics = ReturnType<typeof createMetrics>;

const httpLabels = ['method', 'route', 'status'] as const;

/** A fresh registry (one per app, so tests can build many apps). */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const counter = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers });
  const gauge = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Gauge<L>({ name, help, labelNames, registers });
  return {
    registry,
    requests: counter('http_requests_total', 'HTTP requests by method, route and status', httpLabels),
    duration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route and status',
      labelNames: httpLabels,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    /** Workflow pollers seen lately on the service's task queue (0: no worker is running). */
    workers: gauge(
      'checkout_temporal_workflow_pollers',
      'Workflow pollers seen lately on the task queue (0: no worker runs the workflows)',
    ),
    /** Work waiting for Temporal: recorded hashes not yet taken, webhook deliveries nobody attempted. */
    backlog: gauge(
      'checkout_workflow_call_backlog',
      "Work waiting for Temporal longer than a call takes: queued workflow calls and shoppers' hashes not yet taken",
    ),
    /** Activity failures the worker made final: no retry, the workflow notes and skips the step. */
    finalActivityFailures: counter(
      'workflow_activity_final_failures_total',
      'Activity failures no retry can cure (refused data or rule, failed validation), by activity and type',
      ['activity', 'type'],
    ),
    /** Authentications answered from what this process had verified (hit) or by the database (miss). */
    apiAuthCache: counter(
      'api_auth_cache_total',
      'API key authentications answered from what this process had verified (hit) or by the database (miss)',
      ['outcome'],
    ),
    /** Checkout session event streams open in this process. */
    sessionStreams: gauge('checkout_session_streams', 'Open checkout session event streams'),
    /** Session events written to those streams. */
    sessionEventsPushed: counter(
      'checkout_session_events_pushed_total',
      'Checkout session events written to open streams',
    ),
    /** JSON-RPC calls this process made, by chain and method: what each chain costs. */
    chainRpcRequests: counter(
      'checkout_chain_rpc_requests_total',
      'JSON-RPC calls this process made, by chain id and method',
      ['chain', 'method'],
    ),
    /** E-mail sends whose outcome is unknown (the server took the message, then no final answer came). */
    mailOutcomeUnknown: counter(
      'mail_send_outcome_unknown_total',
      'E-mail sends whose outcome is unknown: the SMTP server took the message, then gave no final answer (retried once)',
    ),
    /** JSON-RPC calls that failed, by chain, method, kind (rate_limited, log_range, timeout, …) and endpoint. */
    chainRpcErrors: counter(
      'checkout_chain_rpc_errors_total',
      "JSON-RPC calls that failed, by chain id, method, kind (rate_limited, log_range, log_results, timeout, unreachable, server, missing_block, rejected) and endpoint (its position in the chain's list, from 1)",
      ['chain', 'method', 'kind', 'endpoint'],
    ),
    /** Each chain watcher's distance behind the chain's head, in blocks (read at scrape time). */
    watcherLag: gauge(
      'checkout_chain_watcher_lag_blocks',
      "Blocks between a chain's head and the last block its watcher read",
      ['chain'],
    ),
    /** The deposit sweeper's gas wallet balance per chain, in wei (read at scrape time). */
    sweeperBalance: gauge(
      'checkout_deposit_sweeper_balance_wei',
      "The deposit sweeper's gas wallet balance on a chain, in wei",
      ['chain'],
    ),
    /** Gas the mined sweeps of deposit addresses cost per chain, in wei (read at scrape time). */
    sweepGasSpent: gauge(
      'checkout_deposit_sweep_gas_spent_wei',
      'Gas the mined sweeps of deposit addresses cost on a chain, in wei',
      ['chain'],
    ),
    /** Seconds since each chain watcher's last tick (read at scrape time). */
    watcherAge: gauge(
      'checkout_chain_watcher_last_tick_age_seconds',
      "Seconds since a chain's watcher last recorded its progress",
      ['chain'],
    ),
    /** 1 while a chain watcher's ticks fail (read at scrape time). */
    watcherFailing: gauge(
      'checkout_chain_watcher_failing',
      "1 while a chain's watcher fails to read the chain (its last tick failed), else 0",
      ['chain'],
    ),
  };
}
