/**
 * Checkout: the merchant's expected payments (Area A, authenticated) and the public checkout API the
 * widget calls (no key; rate limited; exposes no secrets).
 */
import {
  CheckoutSessionCreateBody,
  CheckoutSessionResponse,
  CheckoutTransactionBody,
  CheckoutView,
  ErrorResponse,
  ExpectedPaymentCreateBody,
  ExpectedPaymentResponse,
  notFound,
  Uuid,
} from '@checkout/core';
import {
  type CheckoutSessionRow,
  checkoutUrl,
  findProductBySlug,
  findSession,
  presentExpectedPayment,
} from '@checkout/db';
import {
  closeCheckoutSession,
  createExpectedPayment,
  describeCheckout,
  openCheckoutSession,
  submitCheckoutTransaction,
  viewSession,
} from '@checkout/workflows';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { openSessionEventStream } from '../sessionEventStream.ts';
import { type Routes, withBody } from './declare.ts';
import {
  areaA,
  errors,
  expectedPaymentPath,
  json,
  limited,
  merchantHeaders,
  ok,
  productPath,
  sessionPath,
  slugPath,
  walletHeader,
} from './docs.ts';
import { expectedPaymentOfRequest, productOfRequest, sessionOfRequest } from './loaders.ts';

/** Merchant routes: create and read expected payments. Registered on the authenticated Area A router. */
export function expectedPaymentRoutes(router: Routes, deps: AppDeps): void {
  router.post(
    '/products/:id/expected_payments',
    areaA({
      summary: 'Create an expected payment: a fixed amount to pay through the checkout, with its link',
      requestParams: { header: merchantHeaders, path: productPath },
      responses: {
        ...ok('The expected payment', ExpectedPaymentResponse),
        ...errors(400, 401, 403, 404, 409, 413, 415, 422),
      },
    }),
    withBody({ schema: ExpectedPaymentCreateBody }, async (ctx, body) => {
      const product = await productOfRequest(ctx);
      const row = await createExpectedPayment(ctx.state.db, product, body());
      ctx.body = {
        expected_payment: presentExpectedPayment(
          row,
          checkoutUrl(deps.config.publicBaseUrl, product.slug, row.id),
        ),
      };
    }),
  );

  router.get(
    '/expected_payments/:id',
    areaA({
      summary: 'Show an expected payment',
      requestParams: { header: walletHeader, path: expectedPaymentPath },
      responses: { ...ok('The expected payment', ExpectedPaymentResponse), ...errors(400, 401, 403, 404) },
    }),
    async (ctx) => {
      const row = await expectedPaymentOfRequest(ctx);
      ctx.body = {
        expected_payment: presentExpectedPayment(
          row,
          checkoutUrl(deps.config.publicBaseUrl, row.slug, row.id),
        ),
      };
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

  const sessionView = (row: CheckoutSessionRow) => viewSession(deps.db.kysely, row);

  router.get(
    '/checkout/:slug',
    {
      summary: 'What the element renders for a product (and an expected payment)',
      requestParams: { path: slugPath, query: z.object({ expected_payment: z.uuid().optional() }) },
      responses: { ...ok('The checkout', z.object({ checkout: CheckoutView })), ...errors(404), ...limited },
    },
    async (ctx) => {
      const product = await productBySlug(ctx.params.slug);
      const expectedPaymentId =
        typeof ctx.query.expected_payment === 'string' ? ctx.query.expected_payment : undefined;
      if (expectedPaymentId !== undefined && !Uuid.safeParse(expectedPaymentId).success)
        throw notFound('Expected payment');
      ctx.body = { checkout: await describeCheckout(deps.db.kysely, deps, product, expectedPaymentId) };
    },
  );

  router.post(
    '/checkout/:slug/sessions',
    {
      summary: "Open (or update) the shopper's checkout session",
      requestParams: { path: slugPath },
      responses: {
        ...ok('The session', CheckoutSessionResponse),
        ...errors(400, 404, 413, 415, 422),
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
      const { session } = await openCheckoutSession(
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
      );
      ctx.body = { session: await sessionView(session) };
    }),
  );

  router.get(
    '/checkout/sessions/:id',
    {
      summary: 'A checkout session',
      requestParams: { path: sessionPath },
      responses: { ...ok('The session', CheckoutSessionResponse), ...errors(404), ...limited },
    },
    async (ctx) => {
      const session = await sessionOfRequest(ctx, deps.db.kysely);
      ctx.body = { session: await sessionView(session) };
    },
  );

  router.post(
    '/checkout/sessions/:id/transactions',
    {
      summary: "Submit the shopper's transaction hash",
      requestParams: { path: sessionPath },
      responses: {
        ...ok('The session', CheckoutSessionResponse),
        ...errors(400, 404, 409, 413, 415, 422),
        ...limited,
        '503': { description: 'The workflow service is unavailable', content: json(ErrorResponse) },
      },
    },
    withBody({ schema: CheckoutTransactionBody }, async (ctx, body) => {
      const session = await sessionOfRequest(ctx, deps.db.kysely);
      const submitted = await submitCheckoutTransaction(
        {
          db: deps.db.kysely,
          temporal: deps.temporal?.client,
          taskQueue: deps.config.temporal.taskQueue,
          chains: deps.chains,
        },
        session,
        body().tx_hash,
      );
      if (submitted === 'pending') ctx.status = 202;
      // The workflow keeps the session's status: by now it shows the hash confirming, or already resolved.
      const updated = await findSession(deps.db.kysely, session.id);
      ctx.body = { session: await sessionView(updated!) };
    }),
  );

  router.post(
    '/checkout/sessions/:id/close',
    {
      summary: "Close an attempt the shopper gave up (a merchant's expected payment stays payable)",
      requestParams: { path: sessionPath },
      responses: { ...ok('The session', CheckoutSessionResponse), ...errors(404, 409), ...limited },
    },
    async (ctx) => {
      const session = await sessionOfRequest(ctx, deps.db.kysely);
      ctx.body = { session: await sessionView(await closeCheckoutSession(deps.db.kysely, session)) };
    },
  );

  // Server-sent events: the session each time it changes (pushed, not polled), for at most ten minutes per connection.
  router.get(
    '/checkout/sessions/:id/events',
    {
      summary: 'Server-sent events: the session on every change',
      requestParams: { path: sessionPath },
      responses: {
        '200': { description: 'An event stream', content: { 'text/event-stream': { schema: z.string() } } },
        ...errors(404),
        ...limited,
      },
    },
    async (ctx) => {
      const id = ctx.params.id!;
      let dollarAmount: string | undefined;
      const stream = await openSessionEventStream({
        events: deps.sessionEvents,
        metrics: deps.metrics,
        log: ctx.state.log,
        sessionId: id,
        closed: ctx.res,
        read: async () => {
          const row = await findSession(deps.db.kysely, id);
          if (!row) return undefined;
          // The amount never changes: read once per stream.
          const view = await viewSession(deps.db.kysely, row, dollarAmount);
          dollarAmount = view.dollar_amount;
          return view;
        },
      });
      if (!stream) throw notFound('Checkout session');
      ctx.req.socket.setTimeout(0);
      ctx.set({
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
        // Proxies that buffer responses (nginx) pass the events on at once.
        'X-Accel-Buffering': 'no',
      });
      ctx.status = 200;
      ctx.body = stream;
    },
  );
}
