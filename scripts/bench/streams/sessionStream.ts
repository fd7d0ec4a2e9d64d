/** A client of a checkout session's server-sent events, as the element opens it (used by the benchmark and tests). */
import { type ClientRequest, request } from 'node:http';

/** One `session` event, parsed, with when it arrived (performance.now()). */
interface SessionEvent {
  // biome-ignore lint/suspicious/noExplicitAny: the session is inspected field by field
  session: any;
  at: number;
}

/** An open stream. */
export interface SessionStream {
  events: SessionEvent[];
  /** Resolves with the first event, received or still to come, that `predicate` accepts. */
  next(predicate: (session: SessionEvent['session']) => boolean, timeoutMs?: number): Promise<SessionEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `GET <baseUrl>/api/v1/checkout/sessions/<id>/events` and collects its session events. */
export function openSessionStream(
  baseUrl: string,
  sessionId: string,
  headers: Record<string, string> = {},
): Promise<SessionStream> {
  const url = new URL(`/api/v1/checkout/sessions/${sessionId}/events`, baseUrl);
  return new Promise((resolve, reject) => {
    const events: SessionEvent[] = [];
    const waiters = new Set<() => void>();
    let endStream!: () => void;
    const ended = new Promise<void>((r) => {
      endStream = r;
    });
    const req: ClientRequest = request(url, { agent: false, headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`events answered ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          if (!lines.includes('event: session')) continue;
          const data = lines.find((l) => l.startsWith('data: '));
          if (data) events.push({ session: JSON.parse(data.slice(6)), at: performance.now() });
        }
        for (const wake of [...waiters]) wake();
      });
      const finish = () => {
        endStream();
        for (const wake of [...waiters]) wake();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
      let done = false;
      void ended.then(() => {
        done = true;
      });
      resolve({
        events,
        ended,
        close: () => req.destroy(),
        next(predicate, timeoutMs = 10_000) {
          return new Promise((resolveNext, rejectNext) => {
            const check = () => {
              const found = events.find((e) => predicate(e.session));
              if (found) {
                waiters.delete(check);
                clearTimeout(timer);
                resolveNext(found);
              } else if (done) {
                waiters.delete(check);
                clearTimeout(timer);
                rejectNext(new Error('the stream ended before the awaited event'));
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              rejectNext(new Error(`no matching session event within ${timeoutMs} ms`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
      });
    });
    req.on('error', reject);
    req.end();
  });
}
