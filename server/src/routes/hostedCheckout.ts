/**
 * The hosted checkout page and the widget's built files (and, outside production, the demo shop): pages a
 * shopper opens directly, so a merchant can link to a checkout without embedding anything.
 */
import { fileURLToPath } from 'node:url';
import { ErrorResponse, Uuid } from '@checkout/core';
import { findExpectedPayment, findProductBySlug } from '@checkout/db';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { createWidgetAssets } from '../widgetAssets.ts';
import type { Routes } from './declare.ts';
import { demoShopRoutes } from './demoShop.ts';
import { html, json, slugPath } from './docs.ts';
import { checkoutElement, escapeHtml, type PageLanguage, page, shopperLanguage } from './hostedPage.ts';
import { widgetFileRoutes } from './widgetFiles.ts';

const widgetDist = fileURLToPath(new URL('../../../widget/dist/', import.meta.url));

/** Texts of the hosted page, in the element's languages. */
const pageTexts: Record<PageLanguage, { checkout: string; notFound: string; checkLink: string }> = {
  en: {
    checkout: 'Checkout',
    notFound: 'Checkout not found',
    checkLink: 'Check the link you were given.',
  },
  es: {
    checkout: 'Pago',
    notFound: 'Pago no encontrado',
    checkLink: 'Revisa el enlace que te dieron.',
  },
  pt: {
    checkout: 'Pagamento',
    notFound: 'Pagamento não encontrado',
    checkLink: 'Confira o link que você recebeu.',
  },
};

/**
 * GET /checkout/:slug (hosted page, its form pre-filled with the expected payment's `customer_email`,
 * in the shopper's language by `Accept-Language`), GET /widget/*.js (built element), and GET /demo outside
 * production.
 */
export function hostedCheckoutRoutes(router: Routes, deps: AppDeps): void {
  const widget = createWidgetAssets(widgetDist);
  router.get(
    '/checkout/:slug',
    {
      summary: 'The hosted checkout page',
      requestParams: { path: slugPath, query: z.object({ expected_payment: z.uuid().optional() }) },
      responses: {
        '200': html('The page'),
        // A page for an unknown checkout; the one error body for a path the service refuses outright.
        '404': {
          description: 'No such checkout',
          content: { 'text/html': { schema: z.string() }, ...json(ErrorResponse) },
        },
      },
    },
    async (ctx) => {
      const slug = ctx.params.slug ?? '';
      const expected =
        typeof ctx.query.expected_payment === 'string' ? ctx.query.expected_payment : undefined;
      const product = /^[A-Za-z0-9_-]{1,64}$/.test(slug)
        ? await findProductBySlug(deps.db.kysely, slug)
        : undefined;
      const { tag, lang } = shopperLanguage(ctx.acceptsLanguages());
      const texts = pageTexts[lang];
      ctx.set('Vary', 'Accept-Language');
      if (!product || (expected !== undefined && !Uuid.safeParse(expected).success)) {
        ctx.status = 404;
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = page(
          texts.notFound,
          `<h1>${escapeHtml(texts.notFound)}</h1><p>${escapeHtml(texts.checkLink)}</p>`,
          tag,
          { src: await widget.classicScriptPath() },
        );
        return;
      }
      // The merchant may have given the shopper's e-mail with the expected payment: the form starts with it.
      const payment = expected ? await findExpectedPayment(deps.db.kysely, expected) : undefined;
      const email = payment?.product_id === product.id ? payment.customer_email : null;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      // The page is never cached, so it names the hashed script directly and skips the loader.
      ctx.body = page(
        product.name,
        `<h1>${escapeHtml(texts.checkout)}</h1>\n${checkoutElement(slug, expected, email)}`,
        tag,
        { src: await widget.classicScriptPath() },
      );
    },
  );

  router.files((files) => widgetFileRoutes(files, widget));

  if (deps.config.env !== 'production') demoShopRoutes(router, deps, widget);
}
