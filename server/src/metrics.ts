/** Prometheus metrics of the HTTP API and the process. */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The metric registry and the HTTP series. */
export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route' | 'status'>;
  /** Workflow pollers seen lately on the service's task queue (0: no worker is running). */
  workers: Gauge;
  /** Work waiting for Temporal: recorded hashes not yet taken, webhook deliveries nobody attempted. */
  backlog: Gauge<'kind'>;
  /** Activity failures the worker made final: no retry, the workflow notes and skips the step. */
  finalActivityFailures: Counter<'activity' | 'type'>;
  /** Checkout session event streams open in this process. */
  sessionStreams: Gauge;
  /** Session events written to those streams. */
  sessionEventsPushed: Counter;
  /** JSON-RPC calls this process made, by chain and method: what each chain costs. */
  chainRpcRequests: Counter<'chain' | 'method'>;
  /** E-mail sends whose outcome is unknown (the server took the message, then no final answer came). */
  mailOutcomeUnknown: Counter;
  /** JSON-RPC calls that failed, by chain, method, kind (rate_limited, log_range, timeout, …) and endpoint. */
  chainRpcErrors: Counter<'chain' | 'method' | 'kind' | 'endpoint'>;
  /** Each chain watcher's distance behind the chain's head, in blocks (read at scrape time). */
  watcherLag: Gauge<'chain'>;
  /** Seconds since each chain watcher's last tick (read at scrape time). */
  watcherAge: Gauge<'chain'>;
  /** 1 while a chain watcher's ticks fail (read at scrape time). */
  watcherFailing: Gauge<'chain'>;
}

/** A fresh registry (one per app, so tests can build many apps). */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const workers = new Gauge({
    name: 'checkout_temporal_workflow_pollers',
    help: 'Workflow pollers seen lately on the task queue (0: no worker runs the workflows)',
    registers: [registry],
  });
  const backlog = new Gauge({
    name: 'checkout_workflow_call_backlog',
    help: "Work waiting for Temporal longer than a call takes: queued workflow calls and shoppers' hashes not yet taken",
    registers: [registry],
  });
  const finalActivityFailures = new Counter({
    name: 'workflow_activity_final_failures_total',
    help: 'Activity failures no retry can cure (refused data or rule, failed validation), by activity and type',
    labelNames: ['activity', 'type'] as const,
    registers: [registry],
  });
  const sessionStreams = new Gauge({
    name: 'checkout_session_streams',
    help: 'Open checkout session event streams',
    registers: [registry],
  });
  const sessionEventsPushed = new Counter({
    name: 'checkout_session_events_pushed_total',
    help: 'Checkout session events written to open streams',
    registers: [registry],
  });
  const chainRpcRequests = new Counter({
    name: 'checkout_chain_rpc_requests_total',
    help: 'JSON-RPC calls this process made, by chain id and method',
    labelNames: ['chain', 'method'] as const,
    registers: [registry],
  });
  const mailOutcomeUnknown = new Counter({
    name: 'mail_send_outcome_unknown_total',
    help: 'E-mail sends whose outcome is unknown: the SMTP server took the message, then gave no final answer (retried once)',
    registers: [registry],
  });
  const chainRpcErrors = new Counter({
    name: 'checkout_chain_rpc_errors_total',
    help: "JSON-RPC calls that failed, by chain id, method, kind (rate_limited, log_range, log_results, timeout, unreachable, server, missing_block, rejected) and endpoint (its position in the chain's list, from 1)",
    labelNames: ['chain', 'method', 'kind', 'endpoint'] as const,
    registers: [registry],
  });
  const watcherLag = new Gauge({
    name: 'checkout_chain_watcher_lag_blocks',
    help: "Blocks between a chain's head and the last block its watcher read",
    labelNames: ['chain'] as const,
    registers: [registry],
  });
  const watcherAge = new Gauge({
    name: 'checkout_chain_watcher_last_tick_age_seconds',
    help: "Seconds since a chain's watcher last recorded its progress",
    labelNames: ['chain'] as const,
    registers: [registry],
  });
  const watcherFailing = new Gauge({
    name: 'checkout_chain_watcher_failing',
    help: "1 while a chain's watcher fails to read the chain (its last tick failed), else 0",
    labelNames: ['chain'] as const,
    registers: [registry],
  });
  return {
    registry,
    watcherFailing,
    chainRpcRequests,
    mailOutcomeUnknown,
    chainRpcErrors,
    watcherLag,
    watcherAge,
    requests,
    duration,
    workers,
    backlog,
    finalActivityFailures,
    sessionStreams,
    sessionEventsPushed,
  };
}
