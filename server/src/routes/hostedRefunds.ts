/**
 * The hosted refund pages: the customer's claim page (GET /refunds/claim/:token, in the customer's
 * language) and the merchant's pay page (GET /refunds/pay/:token, in the browser's), each a frame around
 * its element (`<refund-claim>`, `<refund-pay>`) and the module script of that page alone. Unknown tokens
 * get a 404 page. The token is the page's only key: the pages are never cached and never send a referrer.
 */
import { languageOf } from '@checkout/core/language';
import { findRefundByToken } from '@checkout/db';
import type { AppDeps } from '../context.ts';
import type { WidgetAssets } from '../widgetAssets.ts';
import type { Routes } from './declare.ts';
import { html, htmlOrError, refundTokenPath } from './docs.ts';
import { escapeHtml, notFoundPage, type PageLanguage, page, shopperLanguage } from './hostedPage.ts';

/** A page token: 32 random bytes in base64url (43 characters); anything else is not looked up. */
const tokenPattern = /^[A-Za-z0-9_-]{16,128}$/;

/** The frames' texts; everything else is the element's. */
const texts: Record<PageLanguage, { claim: string; pay: string; notFound: string }> = {
  en: { claim: 'Your refund', pay: 'Pay a refund', notFound: 'Refund not found' },
  es: { claim: 'Tu reembolso', pay: 'Pagar un reembolso', notFound: 'Reembolso no encontrado' },
  pt: { claim: 'Seu reembolso', pay: 'Pagar um reembolso', notFound: 'Reembolso não encontrado' },
};

/** GET /refunds/claim/:token and GET /refunds/pay/:token. */
export function hostedRefundRoutes(router: Routes, deps: AppDeps, widget: WidgetAssets): void {
  for (const kind of ['claim', 'pay'] as const) {
    router.get(
      `/refunds/${kind}/:token`,
      {
        summary:
          kind === 'claim'
            ? "The refund's claim page (the customer gives an address)"
            : "The refund's pay page (the merchant pays it from the receiving wallet)",
        requestParams: { path: refundTokenPath },
        responses: { '200': html('The page'), '404': htmlOrError('No refund has this token') },
      },
      async (ctx) => {
        const token = ctx.params.token ?? '';
        const row = tokenPattern.test(token)
          ? await findRefundByToken(deps.db.kysely, kind, token)
          : undefined;
        // The customer's page speaks the refund's language (the browser may add the region); the merchant's, the browser's.
        const own = row && kind === 'claim' ? languageOf(row.locale)?.lang : undefined;
        const language = shopperLanguage(ctx.acceptsLanguages(), own);
        const t = texts[language.lang];
        ctx.set('Vary', 'Accept-Language');
        ctx.set('Cache-Control', 'no-store');
        // The token in the address must not leave with a link (the explorer's) or be indexed.
        ctx.set('Referrer-Policy', 'no-referrer');
        ctx.set('X-Robots-Tag', 'noindex');
        ctx.type = 'text/html; charset=utf-8';
        if (!row) {
          ctx.status = 404;
          ctx.body = notFoundPage(t.notFound, language);
          return;
        }
        const script = await widget.refundScriptPath(kind);
        const rpcUrl = deps.chains.get(row.chain_id)?.publicRpcUrl;
        const attributes = `token="${escapeHtml(token)}"${rpcUrl ? ` rpc-url="${escapeHtml(rpcUrl)}"` : ''}`;
        const element = kind === 'claim' ? 'refund-claim' : 'refund-pay';
        ctx.body = page(
          t[kind],
          `<h1>${escapeHtml(t[kind])}</h1>\n<${element} ${attributes}></${element}>`,
          language.tag,
          script ? { src: script, module: true } : undefined,
        );
      },
    );
  }
}
