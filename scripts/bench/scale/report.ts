/** bench:scale's verdict: the aims judged, the figures printed and written to `.bench/scale-<timestamp>.json`. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** One measured window: RPC calls and database transactions a second, and each process's memory. */
export interface ScaleWindow {
  label: string;
  rpcPerSecond: number;
  rpcMethods: Record<string, number>;
  dbTransactionsPerSecond: number;
  memoryMb: Record<string, number>;
}

/** Payment-to-webhook latency of one step. */
export interface ScaleLatency {
  count: number;
  p50Ms: number;
  p95Ms: number;
}

/** What open event streams cost and how fast they are pushed to. */
export interface ScaleStreams {
  streams: number;
  withoutPerSecond: number;
  withPerSecond: number;
  addedPerSecond: number;
  pushedP50Ms: number;
  pushedP95Ms: number;
  missed: number;
}

/** The payment burst across a worker kill. */
export interface ScaleBurst {
  payments: number;
  resolved: number;
  lost: number;
  doubled: number;
  duplicatedDeliveries: number;
  kills: number;
}

/** Judges the aims, prints and writes the figures; returns the exit code (1 when an aim is missed). */
export function scaleReport(input: {
  root: string;
  startedAt: Date;
  settings: { steps: number[]; burst: number; adminUrl: string } & Record<string, unknown>;
  windows: ScaleWindow[];
  opening: Record<string, number>;
  catchingUp: Record<string, number>;
  latency: Record<string, ScaleLatency>;
  streams: ScaleStreams | undefined;
  burst: ScaleBurst;
}): number {
  const { root, startedAt, settings, windows, opening, catchingUp, latency, burst } = input;
  const { steps } = settings;
  const streamsResult = input.streams;
  const idle = windows[0]!;
  const many = windows.find((w) => w.label === `${steps.at(-1)} open sessions`)!;
  const few = latency[String(steps[0])];
  const manyLatency = latency[String(steps.at(-1))];
  const aims = [
    {
      aim: `RPC calls/s with ${steps.at(-1)} open sessions ≤ 2 × idle + 2`,
      value: many.rpcPerSecond,
      limit: round(2 * idle.rpcPerSecond + 2),
      met: many.rpcPerSecond <= 2 * idle.rpcPerSecond + 2,
    },
    ...(streamsResult
      ? [
          {
            aim: `database transactions/s added by ${streamsResult.streams} open streams ≤ 5`,
            value: streamsResult.addedPerSecond,
            limit: 5,
            met: streamsResult.addedPerSecond <= 5 && streamsResult.missed === 0,
          },
        ]
      : []),
    ...(few && manyLatency
      ? [
          {
            aim: `payment-to-webhook p95 with ${steps.at(-1)} open ≤ 2 × with ${steps[0]}`,
            value: manyLatency.p95Ms,
            limit: 2 * few.p95Ms,
            met: manyLatency.p95Ms <= 2 * few.p95Ms,
          },
        ]
      : []),
    ...(settings.burst > 0
      ? [
          {
            aim: 'no lost or doubled payment across the worker kill',
            value: burst.lost + burst.doubled + burst.duplicatedDeliveries,
            limit: 0,
            met: burst.lost + burst.doubled + burst.duplicatedDeliveries === 0,
          },
        ]
      : []),
  ];

  const report = {
    startedAt: startedAt.toISOString(),
    settings: { ...settings, adminUrl: undefined },
    windows,
    openingSeconds: opening,
    catchingUpSeconds: catchingUp,
    latency,
    streams: streamsResult,
    burst,
    aims,
  };
  mkdirSync(join(root, '.bench'), { recursive: true });
  const file = join(root, '.bench', `scale-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);

  const out = (line: string) => process.stdout.write(`${line}\n`);
  out('| step | RPC calls/s | ratio to idle | db tx/s | RSS MB (api-1, api-2, worker-1, worker-2) |');
  out('|---|---|---|---|---|');
  for (const [step, seconds] of Object.entries(opening))
    out(
      `opening up to ${step} sessions: ${seconds} s; ${(catchingUp[step] ?? 0) >= 300 ? 'the workers had not caught up 300 s later' : `the workers caught up ${catchingUp[step]} s later`}`,
    );
  for (const w of windows) {
    const ratio = idle.rpcPerSecond > 0 ? String(round(w.rpcPerSecond / idle.rpcPerSecond)) : '–';
    out(
      `| ${w.label} | ${w.rpcPerSecond} | ${ratio} | ${w.dbTransactionsPerSecond} | ${Object.values(w.memoryMb).join(', ')} |`,
    );
  }
  for (const [step, l] of Object.entries(latency))
    out(`payment → webhook with ${step} open: p50 ${l.p50Ms} ms, p95 ${l.p95Ms} ms (${l.count} payments)`);
  if (streamsResult)
    out(
      `${streamsResult.streams} streams: +${streamsResult.addedPerSecond} db tx/s; payment → pushed event p50 ${streamsResult.pushedP50Ms} ms, p95 ${streamsResult.pushedP95Ms} ms, missed ${streamsResult.missed}`,
    );
  if (settings.burst > 0) out(`burst: ${JSON.stringify(burst)}`);
  for (const a of aims) out(`${a.met ? 'MET ' : 'MISS'} ${a.aim}: ${a.value} (limit ${a.limit})`);
  out(`written to ${file}`);
  return aims.every((a) => a.met) ? 0 : 1;
}
