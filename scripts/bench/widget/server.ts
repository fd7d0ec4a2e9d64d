/**
 * The benchmark's HTTP server on 127.0.0.1: test pages, the checkout view JSON, the baseline's script, and
 * the built element under /widget/ through the service's own route (its compression and caching headers).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createWidgetAssets, widgetFileRoutes } from '@checkout/server';
import Router from '@koa/router';
import Koa from 'koa';
import { trivialTag } from './baseline.ts';
import { checkoutViewBody } from './fixture.ts';

/** A running page server. */
export interface PageServer {
  origin: string;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Directories and file names the server needs. */
export interface ServeOptions {
  widgetDir: string;
  /** Public name of the classic script (the loader). */
  classicScript: string;
  /** The wallet module, relative to the widget folder. */
  walletModule: string;
  trivialDir: string;
  trivialScript: string;
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

function page(title: string, head: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${head}</head><body><main>${body}</main></body></html>`;
}

function readUnder(dir: string, rest: string): Buffer | undefined {
  const path = normalize(join(dir, rest));
  if (!path.startsWith(normalize(dir))) return undefined;
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Serves `/widget.html`, `/trivial.html`, `/wallet.html`, `/widget/*` (the service's route), `/t/*` (baseline) and the API. */
export async function startPageServer(options: ServeOptions): Promise<PageServer> {
  const requests: string[] = [];
  const widgetApp = new Koa();
  const widgetRouter = new Router();
  widgetFileRoutes(widgetRouter, createWidgetAssets(options.widgetDir));
  widgetApp.use(widgetRouter.routes());
  const serveWidget = widgetApp.callback();
  const gzipped = new Map<string, Buffer>();
  let origin = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push(path);
    if (path.startsWith('/widget/')) {
      void serveWidget(req, res);
      return;
    }
    let body: Buffer | undefined;
    let type = types['.html'] as string;
    if (path === '/widget.html') {
      body = Buffer.from(
        page(
          'Widget',
          `<script src="/widget/${options.classicScript}"></script>`,
          `<crypto-checkout slug="demo" api-base="${origin}"></crypto-checkout>`,
        ),
      );
    } else if (path === '/trivial.html') {
      body = Buffer.from(
        page(
          'Baseline',
          `<script src="/t/${options.trivialScript}"></script>`,
          `<${trivialTag} slug="demo" api-base="${origin}"></${trivialTag}>`,
        ),
      );
    } else if (path === '/wallet.html') {
      body = Buffer.from(
        page(
          'Wallet module',
          `<script type="module">import('/widget/${options.walletModule}').then(() => { window.__walletLoaded = true; }, (e) => { window.__walletLoaded = String(e); });</script>`,
          '',
        ),
      );
    } else if (path === '/api/v1/checkout/demo') {
      body = Buffer.from(JSON.stringify(checkoutViewBody));
      type = types['.json'] as string;
    } else if (path.startsWith('/t/')) {
      body = readUnder(options.trivialDir, path.slice(3));
      type = types[extname(path)] ?? 'application/octet-stream';
    } else if (path === '/favicon.ico') {
      res.writeHead(204, { 'cache-control': 'no-store' }).end();
      return;
    }
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end('not found');
      return;
    }
    const headers: Record<string, string> = { 'content-type': type, 'cache-control': 'no-store' };
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      const raw = body;
      body = gzipped.get(path) ?? gzipSync(raw, { level: 9 });
      gzipped.set(path, body);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = String(body.length);
    res.writeHead(200, headers).end(body);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
