/** Rows of a run, the readable table and the verdict on the stated aim. */
import type { Measurement } from './load.ts';

/** What served the requests. */
export type TargetName = 'bare' | 'pglite' | 'postgres';

/** Which request was sent. */
export type EndpointName = 'list' | 'create';

/** One (target × endpoint) result. */
export interface Row extends Measurement {
  target: TargetName;
  endpoint: EndpointName;
  request: string;
  responseBytes: number;
  /** Throughput over bare Koa's for the same endpoint; null without a bare measurement. */
  ratioToBare: number | null;
}

/** Whether a target was measured, and why not. */
export interface TargetStatus {
  target: TargetName;
  status: 'measured' | 'skipped' | 'failed';
  detail?: string;
}

/**
 * The throughput and latency goal for listing products on PostgreSQL, both against bare Koa in the same run
 * (the console's lists stay fast under load): a share of its requests a second, and a p99 at most a multiple
 * of its p99.
 */
export const aim = {
  target: 'postgres',
  endpoint: 'list',
  minRatio: 0.6,
  maxP99OfBare: 1.5,
  connections: 50,
} as const;

/** The aim in words. */
export const aimStatement =
  `GET /api/v1/products on PostgreSQL: ≥ ${aim.minRatio * 100} % of bare Koa's throughput ` +
  `with p99 ≤ ${aim.maxP99OfBare}× bare's, in the same run at ${aim.connections} connections (and no non-2xx or errors)`;

/** The aim's verdict for a run. */
export interface AimVerdict {
  verdict: 'PASS' | 'MISS' | 'SKIPPED';
  detail: string;
}

const targetLabels: Record<TargetName, string> = {
  bare: 'bare koa',
  pglite: 'pglite',
  postgres: 'postgresql',
};

/** Decides the aim from the rows; a run at another connection count is judged but flagged. */
export function evaluateAim(rows: Row[], statuses: TargetStatus[], connections: number): AimVerdict {
  const row = rows.find((r) => r.target === aim.target && r.endpoint === aim.endpoint);
  if (!row) {
    const status = statuses.find((s) => s.target === aim.target);
    return { verdict: 'SKIPPED', detail: `PostgreSQL not measured (${status?.detail ?? 'not run'})` };
  }
  const bare = rows.find((r) => r.target === 'bare' && r.endpoint === aim.endpoint);
  if (row.ratioToBare === null || !bare) {
    return { verdict: 'SKIPPED', detail: 'bare Koa not measured, no ratio' };
  }
  const ratioOk = row.ratioToBare >= aim.minRatio;
  const p99OfBare = row.latencyMs.p99 / bare.latencyMs.p99;
  const p99Ok = p99OfBare <= aim.maxP99OfBare;
  const clean = row.non2xx === 0 && row.errors === 0;
  const parts = [
    `${percent(row.ratioToBare)} of bare (${ratioOk ? 'ok' : `needs ≥ ${aim.minRatio * 100} %`})`,
    `p99 ${row.latencyMs.p99.toFixed(2)} ms, ${p99OfBare.toFixed(2)}× bare's ${bare.latencyMs.p99.toFixed(2)} ms (${
      p99Ok ? 'ok' : `needs ≤ ${aim.maxP99OfBare}×`
    })`,
    clean ? 'no failures' : `${row.non2xx} non-2xx, ${row.errors} errors`,
  ];
  if (connections !== aim.connections)
    parts.push(`measured at ${connections} connections, not ${aim.connections}`);
  return { verdict: ratioOk && p99Ok && clean ? 'PASS' : 'MISS', detail: parts.join('; ') };
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

function cpu(value: number | null): string {
  return value === null ? '-' : `${value}%`;
}

/** The rows as an aligned text table. */
export function formatTable(rows: Row[]): string {
  const header = [
    'target',
    'request',
    'req/s',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'errors',
    'vs bare',
    'CPU srv/pg/gen/other',
    'bytes',
  ];
  const body = rows.map((r) => [
    targetLabels[r.target],
    r.request,
    Math.round(r.requestsPerSec).toLocaleString('en-US'),
    r.latencyMs.p50.toFixed(2),
    r.latencyMs.p99.toFixed(2),
    String(r.non2xx),
    r.timeouts > 0 ? `${r.errors} (${r.timeouts} t/o)` : String(r.errors),
    r.ratioToBare === null ? '-' : percent(r.ratioToBare),
    [r.cpuPercent.server, r.cpuPercent.postgres, r.cpuPercent.loadGenerator, r.cpuPercent.other]
      .map(cpu)
      .join('/'),
    r.responseBytes.toLocaleString('en-US'),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  // Names read left-aligned, numbers right-aligned.
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...body.map(line)].join('\n');
}
