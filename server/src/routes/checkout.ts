/**
 * Checkout: the merchant's expected payments (Area A, authenticated) and the public checkout API the
 * widget calls (no key; rate limited; exposes no secrets).
 */
import {
  ApiError,
  CheckoutSessionCreateBody,
  CheckoutSessionResponse,
  CheckoutTransactionBody,
  CheckoutView,
  ErrorResponse,
  ExpectedPaymentCreateBody,
  ExpectedPaymentResponse,
  normalizeDecimal,
  notFound,
  temporalUnavailable,
  Uuid,
} from '@checkout/core';
import {
  type CheckoutSessionRow,
  checkoutUrl,
  claimTransaction,
  findExpectedPayment,
  findMerchantExpectedPayment,
  findProduct,
  findProductBySlug,
  findSession,
  findSessionByExpectedPayment,
  markSessionHashPending,
  markTransactionHandedOver,
  type ProductWithAddress,
  presentExpectedPayment,
  presentSession,
  releaseTransaction,
  storedTokenOf,
} from '@checkout/db';
import {
  checkoutRejections,
  createExpectedPayment,
  handHashToCheckout,
  openCheckoutSession,
} from '@checkout/workflows';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { openSessionEventStream } from '../sessionEventStream.ts';
import { type Routes, withBody } from './declare.ts';
import { areaA, errors, idPath, json, limited, merchantHeaders, ok, slugPath, walletHeader } from './docs.ts';

function uuidParam(id: string | undefined, what: string): string {
  if (!id || !Uuid.safeParse(id).success) throw notFound(what);
  return id;
}

/** Merchant routes: create and read expected payments. Registered on the authenticated Area A router. */
export function expectedPaymentRoutes(router: Routes, deps: AppDeps): void {
  router.post(
    '/products/:id/expected_payments',
    areaA({
      summary: 'Create an expected payment: a fixed amount to pay through the checkout, with its link',
      requestParams: { header: merchantHeaders, path: idPath },
      responses: {
        ...ok('The expected payment', ExpectedPaymentResponse),
        ...errors(400, 401, 403, 404, 409, 413, 415, 422),
      },
    }),
    withBody({ schema: ExpectedPaymentCreateBody }, async (ctx, body) => {
      const scope = { merchantId: ctx.state.merchant!.merchantId, addressId: ctx.state.address!.id };
      const product = await findProduct(ctx.state.db, scope, uuidParam(ctx.params.id, 'Product'));
      if (!product) throw notFound('Product');
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
      requestParams: { header: walletHeader, path: idPath },
      responses: { ...ok('The expected payment', ExpectedPaymentResponse), ...errors(400, 401, 403, 404) },
    }),
    async (ctx) => {
      const scope = { merchantId: ctx.state.merchant!.merchantId, addressId: ctx.state.address!.id };
      const row = await findMerchantExpectedPayment(
        ctx.state.db,
        scope,
        uuidParam(ctx.params.id, 'Expected payment'),
      );
      if (!row) throw notFound('Expected payment');
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
  const chainOf = (product: ProductWithAddress) => deps.chains.get(product.chain_id);

  const view = async (
    product: ProductWithAddress,
    expectedPaymentId: string | undefined,
  ): Promise<CheckoutView> => {
    const chain = deps.tokens.chainById(product.chain_id);
    const productToken = { ...storedTokenOf(product), chain_id: product.chain_id };
    const paymentTokens = product.swappable
      ? (chain?.paymentTokens ?? []).map((t) => ({
          symbol: t.symbol,
          address: t.address,
          name: t.name,
          decimal_count: t.decimals,
          blockchain: t.blockchain,
          network: t.network,
          chain_id: t.chainId,
        }))
      : [productToken];
    let expected: CheckoutView['expected_payment'] = null;
    if (expectedPaymentId) {
      const row = await findExpectedPayment(deps.db.kysely, expectedPaymentId);
      if (!row || row.product_id !== product.id) throw notFound('Expected payment');
      const session = await findSessionByExpectedPayment(deps.db.kysely, row.id);
      expected = {
        id: row.id,
        dollar_amount: normalizeDecimal(row.dollar_amount, 2),
        expected_token_amount: normalizeDecimal(row.dollar_amount),
        status: row.status,
        session_id: session?.id ?? null,
      };
    }
    const endpoint = chainOf(product);
    return {
      slug: product.slug,
      name: product.name,
      active: product.active,
      is_test: product.token_network === 'testnet',
      token: productToken,
      payment_tokens: paymentTokens,
      custom_fields: product.custom_fields as CheckoutView['custom_fields'],
      open_amount: product.open_amount,
      swappable: product.swappable,
      sends_receipt: product.send_email,
      tax_rate: Number(normalizeDecimal(product.tax_rate)),
      expires_in_minutes: product.expires_in_minutes,
      receiving_address: product.address,
      chain_id: product.chain_id,
      blockchain: product.token_blockchain,
      network: product.token_network,
      router_address: product.swappable ? (chain?.router ?? null) : null,
      rpc_url: endpoint?.publicRpcUrl ?? null,
      required_confirmations: endpoint?.confirmations ?? 0,
      success_url: product.success_url,
      failure_url: product.failure_url,
      expected_payment: expected,
    };
  };

  const productBySlug = async (slug: string | undefined) => {
    const product = slug && slug.length <= 64 ? await findProductBySlug(deps.db.kysely, slug) : undefined;
    if (!product) throw notFound('Checkout');
    return product;
  };

  const sessionView = async (row: CheckoutSessionRow) => {
    const expected = await findExpectedPayment(deps.db.kysely, row.expected_payment_id);
    return presentSession(row, expected?.dollar_amount ?? '0');
  };

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
      ctx.body = { checkout: await view(product, expectedPaymentId) };
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
      requestParams: { path: idPath },
      responses: { ...ok('The session', CheckoutSessionResponse), ...errors(404), ...limited },
    },
    async (ctx) => {
      const session = await findSession(deps.db.kysely, uuidParam(ctx.params.id, 'Checkout session'));
      if (!session) throw notFound('Checkout session');
      ctx.body = { session: await sessionView(session) };
    },
  );

  router.post(
    '/checkout/sessions/:id/transactions',
    {
      summary: "Submit the shopper's transaction hash",
      requestParams: { path: idPath },
      responses: {
        ...ok('The session', CheckoutSessionResponse),
        ...errors(400, 404, 413, 415, 422),
        ...limited,
        '503': { description: 'The workflow service is unavailable', content: json(ErrorResponse) },
      },
    },
    withBody({ schema: CheckoutTransactionBody }, async (ctx, body) => {
      const session = await findSession(deps.db.kysely, uuidParam(ctx.params.id, 'Checkout session'));
      if (!session) throw notFound('Checkout session');
      const { tx_hash } = body();
      const txHash = tx_hash.toLowerCase();
      const temporal = deps.temporal;
      if (!temporal) throw temporalUnavailable('transactions cannot be checked');
      // The claim is durable before Temporal hears of the hash: no other checkout can take the transfer,
      // and a hash Temporal or its workers were not there to take is handed over by the reconciler.
      const claim = await claimTransaction(deps.db.kysely, {
        chainId: session.chain_id,
        txHash,
        sessionId: session.id,
        handedOver: false,
      });
      if (claim === 'other_session') {
        throw new ApiError('tx_already_used', 'This transaction already pays another checkout', {
          errors: [{ path: 'tx_hash', message: 'already pays another checkout' }],
        });
      }
      const target = { chainId: session.chain_id, txHash, sessionId: session.id };
      const handover = await handHashToCheckout(temporal.client, session.expected_payment_id, txHash);
      if (handover.outcome === 'refused') {
        if (claim === 'claimed') await releaseTransaction(deps.db.kysely, target);
        throw rejectionError(handover.error);
      }
      if (handover.outcome === 'taken') {
        await markTransactionHandedOver(deps.db.kysely, target);
      } else {
        // Recorded, not yet taken: the session shows the hash confirming while it waits for its workflow.
        await markSessionHashPending(deps.db.kysely, session.id, txHash);
        if (handover.outcome === 'temporal_unavailable') {
          throw temporalUnavailable('the transaction is recorded and will be checked as soon as it is back');
        }
        ctx.status = 202;
      }
      // The workflow keeps the session's status: by now it shows the hash confirming, or already resolved.
      const updated = await findSession(deps.db.kysely, session.id);
      ctx.body = { session: await sessionView(updated!) };
    }),
  );

  // Server-sent events: the session each time it changes (pushed, not polled), for at most ten minutes per connection.
  router.get(
    '/checkout/sessions/:id/events',
    {
      summary: 'Server-sent events: the session on every change',
      requestParams: { path: idPath },
      responses: {
        '200': { description: 'An event stream', content: { 'text/event-stream': { schema: z.string() } } },
        ...errors(404),
        ...limited,
      },
    },
    async (ctx) => {
      const id = uuidParam(ctx.params.id, 'Checkout session');
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
          dollarAmount ??= (await findExpectedPayment(deps.db.kysely, row.expected_payment_id))
            ?.dollar_amount;
          return presentSession(row, dollarAmount ?? '0');
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

/** Maps a refused Update to the API's error. */
function rejectionError(error: unknown): ApiError {
  const message =
    error instanceof WorkflowUpdateFailedError ? ((error.cause as Error | undefined)?.message ?? '') : '';
  const known: Record<string, ApiError> = {
    [checkoutRejections.expired]: new ApiError('checkout_expired', 'This checkout has expired'),
    [checkoutRejections.closed]: new ApiError('checkout_closed', 'This checkout is already paid'),
    [checkoutRejections.otherHash]: new ApiError(
      'tx_already_submitted',
      'Another transaction was already submitted to this checkout',
      {
        errors: [{ path: 'tx_hash', message: 'differs from the one already submitted' }],
      },
    ),
    [checkoutRejections.rejectedHash]: new ApiError(
      'tx_rejected',
      'This transaction was checked and does not pay this checkout',
      {
        errors: [{ path: 'tx_hash', message: 'does not pay this checkout' }],
      },
    ),
    [checkoutRejections.malformed]: new ApiError('record_invalid', 'tx_hash is malformed', {
      errors: [{ path: 'tx_hash', message: 'must be a 0x-prefixed 32-byte transaction hash' }],
    }),
  };
  for (const [code, apiError] of Object.entries(known)) if (message.includes(code)) return apiError;
  if (error instanceof Error && /not found/i.test(error.message)) {
    return new ApiError('checkout_closed', 'This checkout is no longer open');
  }
  return new ApiError(
    'service_unavailable',
    'The workflow service (Temporal) did not take the transaction; retry',
    {
      cause: error,
    },
  );
}
