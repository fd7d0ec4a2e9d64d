/** Drives one endpoint with autocannon and summarises the run, including where the CPU went. */
import { readdirSync, readFileSync } from 'node:fs';
import autocannon, { type Result } from 'autocannon';

/** One endpoint to load. */
export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** The target process, whose CPU time is sampled around the measured run. */
  serverPid?: number;
}

/** The measured run (the warm-up is reported apart and never counted). */
export interface Measurement {
  requestsPerSec: number;
  completed: number;
  durationSeconds: number;
  /** Exact percentiles over every response of the run, in ms. */
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  /** autocannon's own percentiles (whole milliseconds), kept for comparison. */
  autocannonLatencyMs: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /**
   * 100 % = one core busy for the whole run. `other` is every other process on the machine: the
   * targets share its cores with the load generator and PostgreSQL, so anything else skews results.
   */
  cpuPercent: { server: number | null; postgres: number | null; loadGenerator: number; other: number | null };
  /** Server CPU per completed request: steadier than req/s when other work shares the machine. */
  serverCpuMsPerRequest: number | null;
  warmup: { completed: number; non2xx: number; errors: number };
}

// USER_HZ, the unit of /proc/<pid>/stat times, is 100 on every Linux build Node supports.
const ticksPerSecond = 100;

function statFields(pid: string | number): { comm: string; ticks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    // Fields after "(comm)" start at field 3 (state); utime and stime are fields 14 and 15.
    const rest = stat.slice(close + 2).split(' ');
    return { comm: stat.slice(stat.indexOf('(') + 1, close), ticks: Number(rest[11]) + Number(rest[12]) };
  } catch {
    return undefined;
  }
}

function postgresTicks(): number | undefined {
  let total: number | undefined;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statFields(entry);
    if (stat?.comm === 'postgres') total = (total ?? 0) + stat.ticks;
  }
  return total;
}

function machineBusyTicks(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal …: everything but idle and iowait is busy.
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return user + nice + system + irq + softirq + steal;
  } catch {
    return undefined;
  }
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

async function fire(
  spec: LoadSpec,
  durationSeconds: number,
  onStart?: () => void,
  onResponse?: (ms: number) => void,
): Promise<Result> {
  const instance = autocannon({
    url: spec.url,
    method: spec.method,
    headers: spec.body === undefined ? spec.headers : { ...spec.headers, 'content-type': 'application/json' },
    ...(spec.body === undefined ? {} : { body: spec.body }),
    connections: spec.connections,
    duration: durationSeconds,
    timeout: 10,
  });
  if (onStart) instance.on('start', onStart);
  if (onResponse) instance.on('response', (_client, _status, _bytes, ms) => onResponse(ms));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        instance.stop();
        reject(new Error(`autocannon did not finish within ${durationSeconds + 30} s`));
      },
      (durationSeconds + 30) * 1000,
    );
  });
  try {
    return await Promise.race([Promise.resolve(instance), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Warms the endpoint up, then measures it. */
export async function measure(spec: LoadSpec): Promise<Measurement> {
  const warm = spec.warmupSeconds > 0 ? await fire(spec, spec.warmupSeconds) : undefined;

  const latencies: number[] = [];
  let before:
    | { server?: number; postgres?: number; machine?: number; self: NodeJS.CpuUsage; at: bigint }
    | undefined;
  const result = await fire(
    spec,
    spec.durationSeconds,
    () => {
      const server = spec.serverPid === undefined ? undefined : statFields(spec.serverPid)?.ticks;
      const postgres = postgresTicks();
      const machine = machineBusyTicks();
      before = {
        ...(machine === undefined ? {} : { machine }),
        ...(server === undefined ? {} : { server }),
        ...(postgres === undefined ? {} : { postgres }),
        self: process.cpuUsage(),
        at: process.hrtime.bigint(),
      };
    },
    (ms) => latencies.push(ms),
  );
  const serverAfter = spec.serverPid === undefined ? undefined : statFields(spec.serverPid)?.ticks;
  const postgresAfter = postgresTicks();
  const machineAfter = machineBusyTicks();
  const wallSeconds = before ? Number(process.hrtime.bigint() - before.at) / 1e9 : result.duration;
  const share = (ticks: number) => round((ticks / ticksPerSecond / wallSeconds) * 100, 0);
  const self = process.cpuUsage(before?.self);

  const cpuShares = (): Measurement['cpuPercent'] => {
    const server =
      before?.server !== undefined && serverAfter !== undefined ? serverAfter - before.server : null;
    const postgres =
      before?.postgres !== undefined && postgresAfter !== undefined ? postgresAfter - before.postgres : null;
    const loadGenerator = ((self.user + self.system) / 1e6) * ticksPerSecond;
    const machine =
      before?.machine !== undefined && machineAfter !== undefined ? machineAfter - before.machine : null;
    return {
      server: server === null ? null : share(server),
      postgres: postgres === null ? null : share(postgres),
      loadGenerator: share(loadGenerator),
      other:
        machine === null
          ? null
          : Math.max(0, share(machine - (server ?? 0) - (postgres ?? 0) - loadGenerator)),
    };
  };
  const sorted = Float64Array.from(latencies).sort();
  const sum = latencies.reduce((a, b) => a + b, 0);
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;

  return {
    requestsPerSec: round(result.requests.mean, 1),
    completed: latencies.length,
    durationSeconds: result.duration,
    latencyMs: {
      mean: round(latencies.length ? sum / latencies.length : Number.NaN),
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(percentile(sorted, 99)),
      max: round(percentile(sorted, 100)),
    },
    autocannonLatencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    cpuPercent: cpuShares(),
    serverCpuMsPerRequest:
      before?.server !== undefined && serverAfter !== undefined && latencies.length > 0
        ? round(((serverAfter - before.server) / ticksPerSecond / latencies.length) * 1000, 3)
        : null,
    warmup: {
      completed: warm ? warm['2xx'] + warm.non2xx : 0,
      non2xx: warm?.non2xx ?? 0,
      errors: warm?.errors ?? 0,
    },
  };
}
