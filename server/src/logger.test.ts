import { Writable } from 'node:stream';
import { HttpRequestError, LimitExceededRpcError, RpcRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { createLogger, temporalLogger } from './logger.ts';

const key = '9aa3d95b3bc440fa88ea12eaa4456161';
const url = `https://user:pw@bsc-mainnet.infura.io/v3/${key}?apikey=${key}`;

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, logger: createLogger('debug', destination) };
}

describe('createLogger', () => {
  it("writes no RPC provider's key, whichever field carries the URL", () => {
    const { lines, logger } = capture();
    const http = new HttpRequestError({ url, status: 429, body: { method: 'eth_getLogs' } });
    const rpc = new LimitExceededRpcError(
      new RpcRequestError({
        url,
        body: {},
        error: { code: -32005, message: 'query returned more than 10000 results' },
      }),
    );
    logger.warn({ err: http }, 'tick failed');
    logger.error({ error: rpc, endpoint: url }, `the call to ${url} failed`);
    temporalLogger(logger).warn('Activity failed', { error: http, url });
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toContain(key);
      expect(line).not.toContain('user:pw');
      expect(line).toContain('bsc-mainnet.infura.io/v3/[redacted]');
      expect(() => JSON.parse(line)).not.toThrow();
    }
  });
});
