/**
 * Checkout: the merchant's expected payments (Area A, authenticated) and the public checkout API the
 * widget calls to show a checkout and open a session (no key; rate limited; exposes no secrets). The
 * session's own routes are in ./checkoutSessions.ts.
 */
import {
  CheckoutSessionCreateBody,
  CheckoutSessionOpenedResponse,
  CheckoutView,
  ErrorResponse,
  ExpectedPaymentCreateBody,
  ExpectedPaymentResponse,
  notFound,
} from '@checkout/core';
import {
  checkoutUrl,
  type ExpectedPaymentRow,
  findProductBySlug,
  presentExpectedPayment,
} from '@checkout/db';
import {
  createExpectedPayment,
  describeCheckout,
  openCheckoutSession,
  viewSession,
} from '@checkout/workflows';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import {
  areaA,
  clientSecretHeader,
  errors,
  expectedPaymentPath,
  expectedPaymentQuery,
  json,
  limited,
  merchantHeaders,
  ok,
  productPath,
  slugPath,
  walletHeader,
} from './docs.ts';
import { expectedPaymentOfRequest, productOfRequest } from './loaders.ts';

/** Merchant routes: create and read expected payments. Registered on the authenticated Area A router. */
export function expectedPaymentRoutes(router: Routes, deps: AppDeps): void {
  /** The answer of an expected payment of the product of `slug`, with its checkout link. */
  const answer = (row: ExpectedPaymentRow, slug: string) => ({
    expected_payment: presentExpectedPayment(row, checkoutUrl(deps.config.publicBaseUrl, slug, row.id)),
  });

  router.post(
    '/products/:id/expected_payments',
    areaA('payments:write', {
      summary: 'Create an expected payment: a fixed amount to pay through the checkout, with its link',
      requestParams: { header: merchantHeaders, path: productPath },
      responses: {
        ...ok('The expected payment', ExpectedPaymentResponse),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }),
    withBody({ schema: ExpectedPaymentCreateBody }, async (ctx, body) => {
      const product = await productOfRequest(ctx);
      ctx.body = answer(await createExpectedPayment(ctx.state.db, product, body()), product.slug);
    }),
  );

  router.get(
    '/expected_payments/:id',
    areaA('payments:read', {
      summary: 'Show an expected payment',
      requestParams: { header: walletHeader, path: expectedPaymentPath },
      responses: { ...ok('The expected payment', ExpectedPaymentResponse), ...errors(400, 401, 403, 404) },
    }),
    async (ctx) => {
      const row = await expectedPaymentOfRequest(ctx);
      ctx.body = answer(row, row.slug);
    },
  );
}

/** Public routes of the checkout widget. */
export function publicCheckoutRoutes(router: Routes, deps: AppDeps): void {
  const productBySlug = async (slug: string | undefined) => {
    const product = slug && slug.length <= 64 ? await findProductBySlug(deps.db.kysely, slug) : undefined;
    if (!product) throw notFound('Checkout');
    return product;
  };

  router.get(
    '/checkout/:slug',
    {
      summary: 'What the element renders for a product (and an expected payment)',
      requestParams: { path: slugPath, query: expectedPaymentQuery },
      responses: { ...ok('The checkout', z.object({ checkout: CheckoutView })), ...errors(404), ...limited },
    },
    async (ctx) => {
      const product = await productBySlug(ctx.params.slug);
      const expectedPaymentId = ctx.state.query.expected_payment;
      ctx.body = { checkout: await describeCheckout(deps.db.kysely, deps, product, expectedPaymentId) };
    },
  );

  router.post(
    '/checkout/:slug/sessions',
    {
      summary: "Open (or, for its opener, update) the shopper's checkout session",
      requestParams: { path: slugPath, header: clientSecretHeader(false) },
      responses: {
        ...ok('The session, and its secret for its opener', CheckoutSessionOpenedResponse),
        ...errors(400, 404, 422),
        ...limited,
        '503': {
          description: 'The chain or the workflow service is unavailable',
          content: json(ErrorResponse),
        },
      },
    },
    withBody({ schema: CheckoutSessionCreateBody }, async (ctx, body) => {
      const product = await productBySlug(ctx.params.slug);
      const input = body();
      const { session, expected, created, clientSecret } = await openCheckoutSession(
        {
          db: deps.db.kysely,
          tokens: deps.tokens,
          chains: deps.chains,
          temporal: deps.temporal?.client,
          taskQueue: deps.config.temporal.taskQueue,
          checkout: deps.config.checkout,
        },
        product,
        input,
        ctx.get('X-Client-Secret') || undefined,
      );
      // Its expected payment is at hand, and a session opened just now has no transfer near it yet.
      const view = await viewSession(deps.db.kysely, session, expected.dollar_amount, { opened: created });
      ctx.body = { session: view, client_secret: clientSecret };
    }),
  );
}
