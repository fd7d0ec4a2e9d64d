/**
 * The hosted checkout page and the widget's built files (and, outside production, the demo shop): pages a
 * shopper opens directly, so a merchant can link to a checkout without embedding anything.
 */
import { findExpectedPayment, findProductBySlug } from '@checkout/db';
import type { AppDeps } from '../context.ts';
import type { WidgetAssets } from '../widgetAssets.ts';
import type { Routes } from './declare.ts';
import { demoShopRoutes } from './demoShop.ts';
import { expectedPaymentQuery, html, htmlOrError, slugPath } from './docs.ts';
import {
  checkoutElement,
  escapeHtml,
  notFoundPage,
  type PageLanguage,
  page,
  shopperLanguage,
} from './hostedPage.ts';
import { widgetFileRoutes } from './widgetFiles.ts';

/** Texts of the hosted page, in the element's languages. */
const pageTexts: Record<PageLanguage, { checkout: string; notFound: string }> = {
  en: { checkout: 'Checkout', notFound: 'Checkout not found' },
  es: { checkout: 'Pago', notFound: 'Pago no encontrado' },
  pt: { checkout: 'Pagamento', notFound: 'Pagamento não encontrado' },
};

/**
 * GET /checkout/:slug (hosted page, its form pre-filled with the expected payment's `customer_email`,
 * in the shopper's language by `Accept-Language`), GET /widget/*.js (built element), and GET /demo outside
 * production.
 */
export function hostedCheckoutRoutes(router: Routes, deps: AppDeps, widget: WidgetAssets): void {
  router.get(
    '/checkout/:slug',
    {
      summary: 'The hosted checkout page',
      requestParams: { path: slugPath, query: expectedPaymentQuery },
      responses: {
        '200': html('The page'),
        // A page for an unknown checkout; the one error body for a path or an expected payment id the
        // service refuses outright.
        '404': htmlOrError('No such checkout'),
      },
    },
    async (ctx) => {
      const slug = ctx.params.slug ?? '';
      const expected = ctx.state.query.expected_payment;
      const product = /^[A-Za-z0-9_-]{1,64}$/.test(slug)
        ? await findProductBySlug(deps.db.kysely, slug)
        : undefined;
      const language = shopperLanguage(ctx.acceptsLanguages());
      const texts = pageTexts[language.lang];
      ctx.set('Vary', 'Accept-Language');
      ctx.type = 'text/html; charset=utf-8';
      // The page is never cached, so it names the hashed script directly and skips the loader.
      const script = { src: await widget.classicScriptPath() };
      if (!product) {
        ctx.status = 404;
        ctx.body = notFoundPage(texts.notFound, language, script);
        return;
      }
      // The merchant may have given the shopper's e-mail with the expected payment: the form starts with it.
      const payment = expected ? await findExpectedPayment(deps.db.kysely, expected) : undefined;
      const email = payment?.product_id === product.id ? payment.customer_email : null;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = page(
        product.name,
        `<h1>${escapeHtml(texts.checkout)}</h1>\n${checkoutElement(slug, expected, email)}`,
        language.tag,
        script,
      );
    },
  );

  router.files((files) => widgetFileRoutes(files, widget));

  if (deps.config.env !== 'production') demoShopRoutes(router, deps, widget);
}
