/**
 * The merchant console at /console: every path under it answers the one HTML shell (the console routes in
 * the browser), which loads the content-hashed entry script named by console/dist/console-manifest.json;
 * the scripts themselves (/console/chunks/…) are served as the element's are (../widgetAssets.ts: brotli or
 * gzip, a strong ETag, a year's immutable caching). The shell carries a strict Content-Security-Policy: scripts,
 * styles and calls of its own origin only (and the chains' public RPCs, which the refund payment reads),
 * no inline script, no framing.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'koa';
import type { AppDeps } from '../context.ts';
import { createWidgetAssets, type WidgetAssets } from '../widgetAssets.ts';
import type { Routes } from './declare.ts';
import { html } from './docs.ts';
import { escapeHtml } from './hostedPage.ts';
import { sendBuiltFile } from './widgetFiles.ts';

const distDir = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

/** The page's only inline style (allowed by its hash): the frame before the console's own styles apply. */
const frameStyle = ':root{color-scheme:light dark;font-family:system-ui,sans-serif}body{margin:0}';
const frameStyleHash = `'sha256-${createHash('sha256').update(frameStyle).digest('base64')}'`;

/** The built entry and what it imports, or undefined when the console is not built. */
async function readManifest(): Promise<{ entry: string; imports: string[] } | undefined> {
  const text = await readFile(join(distDir, 'console-manifest.json'), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const manifest = JSON.parse(text) as { entry?: unknown; imports?: unknown };
  const name = /^chunks\/[A-Za-z0-9_.-]+\.js$/;
  if (typeof manifest.entry !== 'string' || !name.test(manifest.entry)) return undefined;
  const imports = Array.isArray(manifest.imports) ? manifest.imports.filter((i) => name.test(String(i))) : [];
  return { entry: manifest.entry, imports: imports as string[] };
}

/** The Content-Security-Policy of the shell; `rpcOrigins` are the chains' public RPC endpoints. */
function consolePolicy(rpcOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' ${frameStyleHash}`,
    "img-src 'self' data:",
    ["connect-src 'self'", ...rpcOrigins].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** GET /console (and every path under it) and the console's scripts. */
export function consolePageRoutes(router: Routes, deps: AppDeps, widget: WidgetAssets): void {
  const files = createWidgetAssets(distDir);
  /** Each chain's public RPC endpoint, and the policy allowing them; read at the first request. */
  let chains: { rpcUrls: Record<string, string>; policy: string } | undefined;
  const chainsOf = () => {
    const publicRpc = [...deps.chains.entries()].flatMap(([id, chain]) =>
      chain.publicRpcUrl ? [[String(id), chain.publicRpcUrl] as const] : [],
    );
    chains ??= {
      rpcUrls: Object.fromEntries(publicRpc),
      policy: consolePolicy([...new Set(publicRpc.map(([, url]) => new URL(url).origin))]),
    };
    return chains;
  };

  const shell = async (ctx: Context) => {
    const { rpcUrls, policy } = chainsOf();
    ctx.state.route = '/console/*';
    const manifest = await readManifest();
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', policy);
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/html; charset=utf-8';
    if (!manifest) {
      ctx.status = 503;
      ctx.body =
        '<!doctype html><title>Console</title><p>The console is not built: run <code>npm run build -w console</code>.</p>';
      return;
    }
    const config = {
      refundPayScript: await widget.refundScriptPath('pay'),
      rpcUrls,
    };
    const preload = manifest.imports
      .map((file) => `<link rel="modulepreload" href="/console/${escapeHtml(file)}">\n`)
      .join('');
    ctx.body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Merchant console</title>
<meta name="console-config" content="${escapeHtml(JSON.stringify(config))}">
<style>${frameStyle}</style>
${preload}<script type="module" src="/console/${escapeHtml(manifest.entry)}"></script>
</head>
<body>
<checkout-console></checkout-console>
</body>
</html>`;
  };

  router.get(
    '/console',
    {
      summary:
        'The merchant console (every path under /console/ answers the same page; it signs in with the wallet)',
      responses: { '200': html('The console'), '503': html('The console is not built') },
    },
    shell,
  );
  router.files((r) => {
    r.get(/^\/console\/chunks\/(.+)$/, async (ctx) => {
      ctx.state.route = '/console/chunks/*';
      await sendBuiltFile(ctx, files, ctx.path.slice('/console/'.length));
    });
    r.get(/^\/console\/.*$/, shell);
  });
}
