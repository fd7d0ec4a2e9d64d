/** The part of autocannon 9's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  /** Summary of one histogram: latency in ms, requests and bytes per one-second sample. */
  export interface HistogramSummary {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total?: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }

  /** What a finished run resolves to. */
  export interface Result {
    duration: number;
    samples: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: HistogramSummary;
    requests: HistogramSummary & { sent: number };
    throughput: HistogramSummary;
  }

  /** Run options. */
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  /** A running benchmark: an event emitter that is also a promise of its result. */
  export interface Instance extends PromiseLike<Result> {
    on(event: 'start', listener: () => void): this;
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void,
    ): this;
    stop(): void;
  }

  /** Starts a run. */
  export default function autocannon(options: Options): Instance;
}
