/** The Temporal connection: address, namespace, task queue, TLS or an API key, the worker's shutdown grace. */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, optional } from './shared.ts';

export const temporalEnv = {
  TEMPORAL_ADDRESS: optional(z.string()),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('checkout'),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  TEMPORAL_TLS: optional(z.enum(['true', 'false'])),
  TEMPORAL_TLS_CERT: optional(z.string()),
  TEMPORAL_TLS_KEY: optional(z.string()),
  TEMPORAL_TLS_CA: optional(z.string()),
  TEMPORAL_TLS_SERVER_NAME: optional(z.string().regex(/^[A-Za-z0-9.-]+$/, 'must be a host name')),
  TEMPORAL_API_KEY: optional(z.string().min(1)),
  TEMPORAL_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(60).default(2),
};
type TemporalEnv = z.infer<z.ZodObject<typeof temporalEnv>>;

/** TLS settings of the Temporal connection, in the SDK's `tls` option shape. */
export interface TemporalTls {
  /** The client certificate and key for mTLS. */
  clientCertPair?: { crt: Buffer; key: Buffer };
  /** CA that signed the server's certificate; the system's roots when absent. */
  serverRootCACertificate?: Buffer;
  /** Name checked against the server's certificate (SNI) instead of the address's host. */
  serverNameOverride?: string;
}

/** How the service reaches Temporal. */
export interface TemporalConfig {
  address: string | undefined;
  namespace: string;
  taskQueue: string;
  uiPort: number;
  /** TLS towards a Temporal cluster or Cloud; undefined for plain gRPC (the dev server). */
  tls: TemporalTls | undefined;
  /** Sent as `Authorization: Bearer …` (Temporal Cloud API keys). */
  apiKey: string | undefined;
  /** How long in-flight activities may finish when the worker stops before they are cancelled. */
  shutdownGraceMs: number;
}

export function temporalConfig(c: TemporalEnv): TemporalConfig {
  return {
    address: c.TEMPORAL_ADDRESS,
    namespace: c.TEMPORAL_NAMESPACE,
    taskQueue: c.TEMPORAL_TASK_QUEUE,
    uiPort: c.TEMPORAL_UI_PORT,
    tls: temporalTls(c),
    apiKey: c.TEMPORAL_API_KEY,
    shutdownGraceMs: Math.round(c.TEMPORAL_SHUTDOWN_GRACE_SECONDS * 1000),
  };
}

/**
 * The Temporal connection's TLS from `TEMPORAL_TLS*` and `TEMPORAL_API_KEY`: files are read and checked
 * here (PEM that parses, a key that belongs to its certificate), so a wrong one stops the start.
 */
function temporalTls(c: TemporalEnv): TemporalTls | undefined {
  const problems: string[] = [];
  const files = {
    TEMPORAL_TLS_CERT: c.TEMPORAL_TLS_CERT,
    TEMPORAL_TLS_KEY: c.TEMPORAL_TLS_KEY,
    TEMPORAL_TLS_CA: c.TEMPORAL_TLS_CA,
  };
  const read: Partial<Record<keyof typeof files, Buffer>> = {};
  for (const [name, path] of Object.entries(files) as Array<[keyof typeof files, string | undefined]>) {
    if (path === undefined) continue;
    try {
      read[name] = readFileSync(resolve(path));
    } catch (error) {
      problems.push(`${name}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const anyTls = [...Object.values(files), c.TEMPORAL_TLS_SERVER_NAME].some((v) => v !== undefined);
  if ((c.TEMPORAL_TLS_CERT === undefined) !== (c.TEMPORAL_TLS_KEY === undefined)) {
    const [missing, given] = c.TEMPORAL_TLS_CERT === undefined ? ['CERT', 'KEY'] : ['KEY', 'CERT'];
    problems.push(`TEMPORAL_TLS_${missing}: is required with TEMPORAL_TLS_${given} (mTLS needs both)`);
  }
  if (c.TEMPORAL_TLS === 'false' && (anyTls || c.TEMPORAL_API_KEY !== undefined)) {
    problems.push(
      `TEMPORAL_TLS: false contradicts ${anyTls ? 'the TEMPORAL_TLS_* settings' : 'TEMPORAL_API_KEY (an API key is never sent in the clear)'}`,
    );
  }
  if ((anyTls || c.TEMPORAL_API_KEY !== undefined || c.TEMPORAL_TLS === 'true') && !c.TEMPORAL_ADDRESS) {
    problems.push(
      'TEMPORAL_ADDRESS: is required with TLS or an API key (the embedded dev server speaks plain gRPC)',
    );
  }
  /** Parses a file that was read, noting a problem when it is not the PEM `what` names. */
  const pem = <T>(name: keyof typeof files, parse: (bytes: Buffer) => T, what: string): T | undefined => {
    const bytes = read[name];
    if (!bytes) return undefined;
    try {
      return parse(bytes);
    } catch {
      problems.push(`${name}: is not a PEM ${what}`);
      return undefined;
    }
  };
  const certificate = (bytes: Buffer) => new X509Certificate(bytes);
  const cert = pem('TEMPORAL_TLS_CERT', certificate, 'certificate');
  const key = pem('TEMPORAL_TLS_KEY', createPrivateKey, 'private key');
  if (cert && key && !cert.checkPrivateKey(key))
    problems.push('TEMPORAL_TLS_KEY: does not belong to the certificate in TEMPORAL_TLS_CERT');
  pem('TEMPORAL_TLS_CA', certificate, 'certificate');
  if (problems.length > 0) throw new ConfigError(...problems);
  // An API key alone implies TLS, as the SDK and Temporal Cloud expect.
  if (!anyTls && c.TEMPORAL_TLS !== 'true' && c.TEMPORAL_API_KEY === undefined) return undefined;
  return {
    ...(read.TEMPORAL_TLS_CERT && read.TEMPORAL_TLS_KEY
      ? { clientCertPair: { crt: read.TEMPORAL_TLS_CERT, key: read.TEMPORAL_TLS_KEY } }
      : {}),
    ...(read.TEMPORAL_TLS_CA ? { serverRootCACertificate: read.TEMPORAL_TLS_CA } : {}),
    ...(c.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: c.TEMPORAL_TLS_SERVER_NAME } : {}),
  };
}
