/**
 * The built `<crypto-checkout>` files as a CDN would serve them: the brotli or gzip form the build wrote
 * beside each script (compressed here once when the build did not), chosen by `Accept-Encoding`; a
 * strong ETag per form; content-hashed files under `chunks/` cached for a year as immutable, and the
 * public loader names (`crypto-checkout.iife.js`, `crypto-checkout.js`) for a few minutes, then revalidated.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { type Coding, negotiateEncoding } from './negotiateEncoding.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Built file names only: no path may leave the dist folder. */
const fileName = /^(chunks\/)?[A-Za-z0-9_-][A-Za-z0-9_.-]*\.js$/;

/** Cache-Control of content-hashed files (their name changes with their bytes). */
const immutableCaching = 'public, max-age=31536000, immutable';
/** Cache-Control of the stable loader names: a new build reaches merchants' pages within five minutes. */
const loaderCaching = 'public, max-age=300';

/** The public name of the classic script: a loader for the hashed one. */
const classicLoaderName = 'crypto-checkout.iife.js';

/** What to answer for one widget file. */
interface WidgetReply {
  status: 200 | 304;
  headers: Record<string, string>;
  /** The bytes to send (absent for 304). */
  body?: Buffer;
}

/** The widget files of one dist folder. */
export interface WidgetAssets {
  /** The reply for `/widget/<name>` and the request's validators; undefined when there is no such file. */
  reply(
    name: string,
    request: { acceptEncoding?: string | undefined; ifNoneMatch?: string | undefined },
  ): Promise<WidgetReply | undefined>;
  /** URL path of the classic script for the service's own pages: the hashed file when built, else the loader. */
  classicScriptPath(): Promise<string>;
  /** URL path of a hosted refund page's module script; undefined when the widget was built without it. */
  refundScriptPath(page: 'claim' | 'pay'): Promise<string | undefined>;
}

interface Form {
  bytes: Buffer;
  etag: string;
}

interface Entry {
  mtimeMs: number;
  size: number;
  forms: Partial<Record<Coding | 'identity', Form>>;
}

/** Reads a file, or undefined when it is absent. */
const readOptional = (path: string): Promise<Buffer | undefined> =>
  readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });

async function compress(coding: Coding, bytes: Buffer): Promise<Buffer> {
  return coding === 'br'
    ? brotliAsync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
    : gzipAsync(bytes, { level: 9 });
}

/** True when an `If-None-Match` list names `etag` (weak comparison) or is `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/** Serves the widget files built into `distDir`; files are read once and again only when they change. */
export function createWidgetAssets(distDir: string): WidgetAssets {
  const entries = new Map<string, Promise<Entry | undefined>>();

  async function load(name: string): Promise<Entry | undefined> {
    const path = join(distDir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info) entries.delete(name);
    if (!info?.isFile()) return undefined;
    const cached = await entries.get(name);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached;
    const loading = (async (): Promise<Entry | undefined> => {
      const identity = await readOptional(path);
      if (identity === undefined) return undefined;
      const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
      const forms: Entry['forms'] = { identity: { bytes: identity, etag: `"${hash}"` } };
      for (const [coding, suffix] of [
        ['br', 'br'],
        ['gzip', 'gz'],
      ] as const) {
        // A precompressed form from an older build would not match: it is trusted only when not older.
        const builtInfo = await stat(`${path}.${suffix}`).catch(() => undefined);
        const built =
          builtInfo && builtInfo.mtimeMs >= info.mtimeMs
            ? await readOptional(`${path}.${suffix}`)
            : undefined;
        const bytes = built ?? (await compress(coding, identity));
        if (bytes.length < identity.length) forms[coding] = { bytes, etag: `"${hash}-${suffix}"` };
      }
      return { mtimeMs: info.mtimeMs, size: info.size, forms };
    })();
    entries.set(name, loading);
    return loading;
  }

  /** The URL path of the built file `pick` reads from the manifest; undefined when absent or broken. */
  async function fromManifest(
    pick: (manifest: { classic?: unknown; refunds?: Record<string, unknown> }) => unknown,
  ): Promise<string | undefined> {
    const manifest = await readOptional(join(distDir, 'widget-manifest.json'));
    if (!manifest) return undefined;
    try {
      const file = pick(JSON.parse(manifest.toString('utf8')));
      if (typeof file === 'string' && fileName.test(file) && (await load(file))) return `/widget/${file}`;
    } catch {
      // A broken manifest: the page comes without its script, or with the loader, which always works.
    }
    return undefined;
  }

  return {
    async reply(name, request) {
      if (!fileName.test(name)) return undefined;
      const entry = await load(name);
      if (!entry) return undefined;
      const offered = (['br', 'gzip'] as const).filter((coding) => entry.forms[coding] !== undefined);
      const coding = negotiateEncoding(request.acceptEncoding, offered);
      const form = entry.forms[coding] ?? (entry.forms.identity as Form);
      const headers: Record<string, string> = {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': name.startsWith('chunks/') ? immutableCaching : loaderCaching,
        ETag: form.etag,
        Vary: 'Accept-Encoding',
        // Module scripts on merchants' own origins are fetched with CORS.
        'Access-Control-Allow-Origin': '*',
      };
      if (request.ifNoneMatch && matches(request.ifNoneMatch, form.etag)) return { status: 304, headers };
      if (coding !== 'identity') headers['Content-Encoding'] = coding;
      return { status: 200, headers, body: form.bytes };
    },

    refundScriptPath: (page) => fromManifest((manifest) => manifest.refunds?.[page]),

    async classicScriptPath() {
      return (await fromManifest((manifest) => manifest.classic)) ?? `/widget/${classicLoaderName}`;
    },
  };
}
