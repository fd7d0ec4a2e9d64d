/** A merchant's own web site on loopback: pages the tests write, on another origin than the service. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/** A running site. */
export interface MerchantSite {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** Serves `html` at `path` (replacing what was there); returns its absolute URL. */
  page(path: string, html: string): string;
  /** Serves the `.js` files of `dir` under `prefix` (e.g. `/dapp/`). */
  scripts(prefix: string, dir: string): void;
  /** Paths requested, in order. */
  requested: string[];
  close(): Promise<void>;
}

/** Starts the site on 127.0.0.1 with a free port; unknown paths answer 404. */
export async function startMerchantSite(): Promise<MerchantSite> {
  const pages = new Map<string, string>();
  const scriptDirs = new Map<string, string>();
  const requested: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    requested.push(req.url ?? '/');
    for (const [prefix, dir] of scriptDirs) {
      const name = normalize(path.slice(prefix.length));
      if (!path.startsWith(prefix) || !name.endsWith('.js') || name.startsWith('..')) continue;
      try {
        const body = readFileSync(join(dir, name));
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        res.end(body);
      } catch {
        res.writeHead(404).end();
      }
      return;
    }
    const html = pages.get(path);
    res.writeHead(html === undefined ? 404 : 200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    });
    res.end(html ?? '<!doctype html><title>Not found</title><p>Not found</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requested,
    page(path, html) {
      pages.set(path, html);
      return `${origin}${path}`;
    },
    scripts(prefix, dir) {
      scriptDirs.set(prefix, dir);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
