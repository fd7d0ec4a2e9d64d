/** Structured JSON logs; credentials are redacted wherever they might appear. */
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
  };
  return destination ? pino(options, destination) : pino(options);
}
