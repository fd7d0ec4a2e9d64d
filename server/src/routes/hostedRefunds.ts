/**
 * The hosted refund pages: the customer's claim page (GET /refunds/claim/:token, in the customer's
 * language) and the merchant's pay page (GET /refunds/pay/:token, in the browser's), each a frame around
 * its element (`<refund-claim>`, `<refund-pay>`) and the module script of that page alone. Unknown tokens
 * get a 404 page. The token is the page's only key: the pages are never cached and never send a referrer.
 */
import { fileURLToPath } from 'node:url';
import { ErrorResponse } from '@checkout/core';
import { languageOf } from '@checkout/core/language';
import { findRefundByToken } from '@checkout/db';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { createWidgetAssets } from '../widgetAssets.ts';
import type { Routes } from './declare.ts';
import { html, json } from './docs.ts';
import { escapeHtml, type PageLanguage, page, shopperLanguage } from './hostedPage.ts';

const widgetDist = fileURLToPath(new URL('../../../widget/dist/', import.meta.url));

/** A page token: 32 random bytes in base64url (43 characters); anything else is not looked up. */
const tokenPattern = /^[A-Za-z0-9_-]{16,128}$/;

interface RefundPageTexts {
  claim: string;
  pay: string;
  notFound: string;
  checkLink: string;
}

/** The frames' texts; everything else is the element's. */
const texts: Record<PageLanguage, RefundPageTexts> = {
  en: {
    claim: 'Your refund',
    pay: 'Pay a refund',
    notFound: 'Refund not found',
    checkLink: 'Check the link you were given.',
  },
  es: {
    claim: 'Tu reembolso',
    pay: 'Pagar un reembolso',
    notFound: 'Reembolso no encontrado',
    checkLink: 'Revisa el enlace que te dieron.',
  },
  pt: {
    claim: 'Seu reembolso',
    pay: 'Pagar um reembolso',
    notFound: 'Reembolso não encontrado',
    checkLink: 'Confira o link que você recebeu.',
  },
};

const tokenPath = z.object({ token: z.string() });

const pageResponses = (what: string) => ({
  '200': html(what),
  '404': {
    description: 'No refund has this token',
    content: { 'text/html': { schema: z.string() }, ...json(ErrorResponse) },
  },
});

/** GET /refunds/claim/:token and GET /refunds/pay/:token. */
export function hostedRefundRoutes(router: Routes, deps: AppDeps): void {
  const widget = createWidgetAssets(widgetDist);

  for (const kind of ['claim', 'pay'] as const) {
    router.get(
      `/refunds/${kind}/:token`,
      {
        summary:
          kind === 'claim'
            ? "The refund's claim page (the customer gives an address)"
            : "The refund's pay page (the merchant pays it from the receiving wallet)",
        requestParams: { path: tokenPath },
        responses: pageResponses('The page'),
      },
      async (ctx) => {
        const token = ctx.params.token ?? '';
        const row = tokenPattern.test(token)
          ? await findRefundByToken(deps.db.kysely, kind, token)
          : undefined;
        // The customer's page speaks the refund's language (the browser may add the region); the merchant's, the browser's.
        const own = row && kind === 'claim' ? languageOf(row.locale)?.lang : undefined;
        const { tag, lang } = shopperLanguage(ctx.acceptsLanguages(), own);
        const t = texts[lang];
        ctx.set('Vary', 'Accept-Language');
        ctx.set('Cache-Control', 'no-store');
        // The token in the address must not leave with a link (the explorer's) or be indexed.
        ctx.set('Referrer-Policy', 'no-referrer');
        ctx.set('X-Robots-Tag', 'noindex');
        ctx.type = 'text/html; charset=utf-8';
        if (!row) {
          ctx.status = 404;
          ctx.body = page(
            t.notFound,
            `<h1>${escapeHtml(t.notFound)}</h1><p>${escapeHtml(t.checkLink)}</p>`,
            tag,
            undefined,
          );
          return;
        }
        const script = await widget.refundScriptPath(kind);
        const rpcUrl = deps.chains.get(row.chain_id)?.publicRpcUrl;
        const attributes = `token="${escapeHtml(token)}"${rpcUrl ? ` rpc-url="${escapeHtml(rpcUrl)}"` : ''}`;
        const element = kind === 'claim' ? 'refund-claim' : 'refund-pay';
        ctx.body = page(
          t[kind],
          `<h1>${escapeHtml(t[kind])}</h1>\n<${element} ${attributes}></${element}>`,
          tag,
          script ? { src: script, module: true } : undefined,
        );
      },
    );
  }
}
