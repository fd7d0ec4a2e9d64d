/**
 * One webhook POST over node:http(s): no redirects, no connection reuse, a hard timeout, the first
 * 1 KB of the answer kept. With the address guard on, every address the host resolves to is checked
 * inside the connection's own DNS lookup, so a second resolution cannot swap in a private address.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { forbiddenAddressReason, isForbiddenWebhookHost } from './addressPolicy.ts';

/** Bytes of the response body kept for the attempt log. */
const responseSnippetBytes = 1024;

/** What came back from one POST. */
export type WebhookHttpOutcome =
  | { kind: 'response'; statusCode: number; retryAfter: string | undefined; snippet: string }
  | { kind: 'network_error'; error: string }
  | { kind: 'refused'; error: string };

/** Input of {@link sendWebhookRequest}. */
export interface WebhookHttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivateAddresses: boolean;
}

const refusalCode = 'ERR_WEBHOOK_FORBIDDEN_ADDRESS';

function refusal(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code: refusalCode });
}

/** A DNS lookup that fails when any address of the host is not public unicast. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  const all: LookupOptions & { all: true } = { ...options, all: true };
  dnsLookup(hostname, all, (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const first = addresses[0];
    if (!first)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
    for (const { address } of addresses) {
      const reason = forbiddenAddressReason(address);
      if (reason) {
        return callback(
          refusal(`${hostname} resolves to ${address} (${reason}); webhooks go to public addresses only`),
          '',
          0,
        );
      }
    }
    if (options.all) return callback(null, addresses);
    return callback(null, first.address, first.family);
  });
};

function describeError(error: NodeJS.ErrnoException): string {
  return error.code && !error.message.includes(error.code)
    ? `${error.code}: ${error.message}`
    : error.message;
}

/** Sends the POST; never throws for anything the network or the receiver does. */
export function sendWebhookRequest(input: WebhookHttpRequest): Promise<WebhookHttpOutcome> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return Promise.resolve({ kind: 'refused', error: 'the webhook URL is not a valid URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.resolve({
      kind: 'refused',
      error: `the webhook URL must be http(s), not ${url.protocol}`,
    });
  }
  // A literal IP never reaches the lookup hook, so it is judged here.
  if (!input.allowPrivateAddresses && isForbiddenWebhookHost(url.hostname)) {
    const host = url.hostname;
    const reason = forbiddenAddressReason(host.replace(/^\[(.*)\]$/, '$1'));
    const why = reason === 'invalid' ? 'a loopback name' : reason;
    return Promise.resolve({
      kind: 'refused',
      error: `${host} is not a public address (${why}); webhooks go to public addresses only`,
    });
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: WebhookHttpOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = send(url, {
      method: 'POST',
      headers: { ...input.headers, 'Content-Length': String(Buffer.byteLength(input.body)) },
      agent: false,
      ...(input.allowPrivateAddresses ? {} : { lookup: guardedLookup }),
    });
    timer = setTimeout(() => {
      finish({ kind: 'network_error', error: `timed out after ${input.timeoutMs} ms` });
      request.destroy();
    }, input.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish(
        error.code === refusalCode
          ? { kind: 'refused', error: error.message }
          : { kind: 'network_error', error: describeError(error) },
      );
    });
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = (): void => {
        const retryAfter = response.headers['retry-after'];
        finish({
          kind: 'response',
          statusCode: response.statusCode ?? 0,
          retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          // Kept with the attempt: NUL (which the database refuses in text) reads as U+FFFD.
          snippet: Buffer.concat(chunks)
            .subarray(0, responseSnippetBytes)
            .toString('utf8')
            .replaceAll('\u0000', '\ufffd'),
        });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        kept += chunk.length;
        // The status is what counts; the rest of a long body is not worth waiting for.
        if (kept >= responseSnippetBytes) response.destroy();
      });
      response.on('close', done);
      response.on('error', done);
    });
    request.end(input.body);
  });
}
