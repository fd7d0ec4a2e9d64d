/** Structured JSON logs; credentials are redacted wherever they might appear. */
import { redactUrlsIn } from '@checkout/core';
import { pino } from 'pino';

/** The service logger. */
export type Logger = pino.Logger;

/** A JSON logger at `level`, writing to stdout or to `destination`. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'checkout' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'authorization',
        'apiKey',
        'key',
        '*.apiKey',
        '*.secret',
        'secret',
        'product_secret',
        '*.product_secret',
      ],
      censor: '[redacted]',
    },
    // Any URL in a line (an RPC provider's key in an error's URL, message or stack) loses its secrets,
    // whatever the field it came in.
    hooks: { streamWrite: redactUrlsIn },
  };
  return destination ? pino(options, destination) : pino(options);
}

type TemporalLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/**
 * The Temporal SDK's logger, writing into the service's JSON log. The SDK's INFO lines (bundler
 * output, worker state) go to debug so a running service logs requests, not plumbing.
 */
export function temporalLogger(logger: Logger) {
  const child = logger.child({ component: 'temporal' });
  const write = (level: TemporalLevel, message: string, meta?: Record<string, unknown>) => {
    const target =
      level === 'ERROR' ? 'error' : level === 'WARN' ? 'warn' : level === 'TRACE' ? 'trace' : 'debug';
    child[target](meta ?? {}, message);
  };
  return {
    log: write,
    trace: (message: string, meta?: Record<string, unknown>) => write('TRACE', message, meta),
    debug: (message: string, meta?: Record<string, unknown>) => write('DEBUG', message, meta),
    info: (message: string, meta?: Record<string, unknown>) => write('INFO', message, meta),
    warn: (message: string, meta?: Record<string, unknown>) => write('WARN', message, meta),
    error: (message: string, meta?: Record<string, unknown>) => write('ERROR', message, meta),
  };
}
