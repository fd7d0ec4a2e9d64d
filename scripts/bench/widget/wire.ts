/** Bytes on the wire of files fetched from a live server: the response head and the body as sent. */
import { request } from 'node:http';

/** One response as it crossed the wire (the body not decompressed). */
interface WireSize {
  /** Status line and headers, with their line ends. */
  head: number;
  body: number;
  /** The Content-Encoding the server chose, `identity` when none. */
  encoding: string;
}

/** GETs `url` with `accept-encoding` (none when undefined) and counts what came back. */
function wireSize(url: string, acceptEncoding: string | undefined): Promise<WireSize> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> =
      acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    request(url, { headers }, (res) => {
      let body = 0;
      res.on('data', (chunk: Buffer) => {
        body += chunk.length;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) {
          reject(new Error(`${url} answered ${res.statusCode}`));
          return;
        }
        let head = `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}\r\n`.length + 2;
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          head += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`.length;
        }
        resolve({ head, body, encoding: String(res.headers['content-encoding'] ?? 'identity') });
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Sum over files fetched one after another. */
export async function wireTotal(
  origin: string,
  paths: readonly string[],
  acceptEncoding: string | undefined,
): Promise<{ head: number; body: number; encodings: string[] }> {
  let head = 0;
  let body = 0;
  const encodings: string[] = [];
  for (const path of paths) {
    const size = await wireSize(`${origin}${path}`, acceptEncoding);
    head += size.head;
    body += size.body;
    encodings.push(size.encoding);
  }
  return { head, body, encodings };
}
