/**
 * The Temporal connection settings on a real TLS handshake: a gRPC-speaking HTTP/2 server that demands a
 * client certificate from its CA records what the client (TypeScript) and the worker's connection
 * (Rust core) present: the certificate, the server name (SNI) and the API key.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { temporalConnectionOptions } from './service.ts';

let dir: string;
let server: Http2SecureServer;
let address: string;
const sessions = new Set<ServerHttp2Session>();
const seen: Array<{ servername: string | false; clientCn: unknown; authorization: string | undefined }> = [];

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

/** A key and an X.509 v3 certificate (rustls refuses v1) for `cn`, signed by the test CA, with `extensions`. */
function issue(name: string, cn: string, extensions: string): void {
  // biome-ignore format: one openssl command line
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', `/CN=${cn}`,
    '-keyout', `${name}.key`, '-out', `${name}.csr`);
  writeFileSync(join(dir, `${name}.ext`), `${extensions}\n`);
  // biome-ignore format: one openssl command line
  openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1',
    '-out', `${name}.crt`, '-extfile', `${name}.ext`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'temporal-tls-'));
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=Test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
  );
  issue('server', 'temporal.test', 'subjectAltName=DNS:temporal.test\nextendedKeyUsage=serverAuth');
  issue('client', 'checkout-worker', 'extendedKeyUsage=clientAuth');
  server = createSecureServer({
    key: readFileSync(join(dir, 'server.key')),
    cert: readFileSync(join(dir, 'server.crt')),
    ca: readFileSync(join(dir, 'ca.crt')),
    requestCert: true,
    rejectUnauthorized: true,
  });
  server.on('session', (session) => sessions.add(session));
  server.on('stream', (stream, headers) => {
    const socket = stream.session?.socket as TLSSocket | undefined;
    seen.push({
      servername: socket?.servername ?? false,
      clientCn: socket?.getPeerCertificate().subject?.CN,
      authorization: headers.authorization as string | undefined,
    });
    // Every call is refused the gRPC way; the handshake and the request headers are what the test reads.
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () =>
      stream.sendTrailers({ 'grpc-status': '16', 'grpc-message': 'test server' }),
    );
    stream.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  // A client that keeps its connection open would hold close() forever.
  for (const session of sessions) session.destroy();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const config = () =>
  loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    TEMPORAL_ADDRESS: address,
    TEMPORAL_TLS_CERT: join(dir, 'client.crt'),
    TEMPORAL_TLS_KEY: join(dir, 'client.key'),
    TEMPORAL_TLS_CA: join(dir, 'ca.crt'),
    TEMPORAL_TLS_SERVER_NAME: 'temporal.test',
    TEMPORAL_API_KEY: 'test-api-key',
  });

describe('Temporal connection over mTLS', () => {
  it('the client presents its certificate, the server name and the API key', async () => {
    seen.length = 0;
    await Connection.connect({ ...temporalConnectionOptions(config(), address), connectTimeout: 5_000 })
      .then((c) => c.close())
      .catch(() => {});
    expect(seen[0]).toEqual({
      servername: 'temporal.test',
      clientCn: 'checkout-worker',
      authorization: 'Bearer test-api-key',
    });
  });

  it("the worker's connection presents the same", async () => {
    seen.length = 0;
    await NativeConnection.connect(temporalConnectionOptions(config(), address))
      .then((c) => c.close())
      .catch(() => {});
    expect(seen[0]).toEqual({
      servername: 'temporal.test',
      clientCn: 'checkout-worker',
      authorization: 'Bearer test-api-key',
    });
  });
});
