/**
 * Checkout: the merchant's expected payments (Area A, authenticated) and the public checkout API the
 * widget calls (no key; rate limited; exposes no secrets).
 */
import { randomUUID } from 'node:crypto';
import {
  ApiError,
  amountCandidates,
  CheckoutSessionCreateBody,
  CheckoutTransactionBody,
  type CheckoutView,
  ExpectedPaymentCreateBody,
  fieldErrors,
  normalizeDecimal,
  notFound,
  parseUnits,
  recordInvalid,
  safeParseReporting,
  temporalUnavailable,
  Uuid,
} from '@checkout/core';
import {
  type CheckoutSessionRow,
  claimTransaction,
  findExpectedPayment,
  findMerchantExpectedPayment,
  findProduct,
  findProductBySlug,
  findSession,
  findSessionByExpectedPayment,
  insertExpectedPayment,
  inTransaction,
  markSessionHashPending,
  markTransactionHandedOver,
  type ProductWithAddress,
  releasePaymentAmounts,
  releaseTransaction,
  reservePaymentAmount,
  setSessionReservedAmount,
  upsertSession,
} from '@checkout/db';
import {
  type CheckoutSessionInput,
  CheckoutStatus,
  callWithin,
  checkoutRejections,
  checkoutWorkflowId,
  checkoutWorkflowSummary,
  handHashToCheckout,
  MerchantId,
  ProductId,
} from '@checkout/workflows';
import type { Router } from '@koa/router';
import { type Client, WorkflowUpdateFailedError } from '@temporalio/client';
import type { AppDeps, AppState } from '../context.ts';
import { checkoutUrl, presentExpectedPayment, presentSession } from '../presenters/checkout.ts';
import { openSessionEventStream } from '../sessionEventStream.ts';

function uuidParam(id: string | undefined, what: string): string {
  if (!id || !Uuid.safeParse(id).success) throw notFound(what);
  return id;
}

/** A flat (unwrapped) JSON body validated against `schema`. */
function parseFlatBody<T extends import('zod').ZodType>(schema: T, body: unknown): import('zod').output<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('parameter_missing', 'The request body must be a JSON object', {
      errors: [{ path: '(body)', message: 'is required' }],
    });
  }
  const parsed = safeParseReporting(schema, body);
  if (!parsed.success) throw recordInvalid(fieldErrors(parsed.error));
  return parsed.data;
}

/** Merchant routes: create and read expected payments. Registered on the authenticated Area A router. */
export function expectedPaymentRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.post('/products/:id/expected_payments', async (ctx) => {
    const scope = { merchantId: ctx.state.merchant!.merchantId, addressId: ctx.state.address!.id };
    const product = await findProduct(ctx.state.db, scope, uuidParam(ctx.params.id, 'Product'));
    if (!product) throw notFound('Product');
    const body = parseFlatBody(ExpectedPaymentCreateBody, ctx.state.body);
    if (!product.active)
      throw new ApiError('product_inactive', 'The product is not active: it takes no new checkouts');
    const row = await insertExpectedPayment(ctx.state.db, {
      id: randomUUID(),
      merchant_id: product.merchant_id,
      product_id: product.id,
      dollar_amount: body.dollar_amount,
      metadata: body.metadata ?? null,
      customer_email: body.customer_email ?? null,
      source: 'merchant',
    });
    ctx.body = {
      expected_payment: presentExpectedPayment(
        row,
        checkoutUrl(deps.config.publicBaseUrl, product.slug, row.id),
      ),
    };
  });

  router.get('/expected_payments/:id', async (ctx) => {
    const scope = { merchantId: ctx.state.merchant!.merchantId, addressId: ctx.state.address!.id };
    const row = await findMerchantExpectedPayment(
      ctx.state.db,
      scope,
      uuidParam(ctx.params.id, 'Expected payment'),
    );
    if (!row) throw notFound('Expected payment');
    ctx.body = {
      expected_payment: presentExpectedPayment(row, checkoutUrl(deps.config.publicBaseUrl, row.slug, row.id)),
    };
  });
}

/** Public routes of the checkout widget. */
export function publicCheckoutRoutes(router: Router<AppState>, deps: AppDeps): void {
  const chainOf = (product: ProductWithAddress) => deps.chains.get(product.chain_id);

  const view = async (
    product: ProductWithAddress,
    expectedPaymentId: string | undefined,
  ): Promise<CheckoutView> => {
    const chain = deps.tokens.chainById(product.chain_id);
    const productToken = {
      symbol: product.token_symbol,
      address: product.token_address,
      name: product.token_name,
      decimal_count: product.token_decimals,
      blockchain: product.token_blockchain,
      network: product.token_network,
      chain_id: product.chain_id,
    };
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

  /** Until when a session's workflow scans the chain for its payment (its reserved amount is held as long). */
  const scanWindowEnd = (expiresAt: Date | null, createdAt: Date) =>
    (expiresAt?.getTime() ?? createdAt.getTime() + deps.config.checkout.sessionTtlMinutes * 60_000) +
    deps.config.checkout.graceMinutes * 60_000;

  /** Reserves a unique amount of the product's token for a session paid from another device. */
  const reserveAmount = async (
    trx: Parameters<typeof reservePaymentAmount>[0],
    product: ProductWithAddress,
    sessionId: string,
    reservedUntil: Date,
    price: bigint,
  ) => {
    const candidates = amountCandidates(price, product.token_decimals);
    const amount = await reservePaymentAmount(trx, {
      chainId: product.chain_id,
      receivingAddress: product.address,
      tokenAddress: product.token_address,
      sessionId,
      reservedUntil,
      candidates: candidates.map((c) => c.amount),
    });
    if (amount === null) {
      throw new ApiError(
        'service_unavailable',
        'Every amount for paying this price from another device is taken by an open checkout; pay from a browser wallet or retry later',
      );
    }
    return { amount, tail: amount - price };
  };

  const sessionView = async (row: CheckoutSessionRow) => {
    const expected = await findExpectedPayment(deps.db.kysely, row.expected_payment_id);
    return presentSession(row, expected?.dollar_amount ?? '0');
  };

  router.get('/checkout/:slug', async (ctx) => {
    const product = await productBySlug(ctx.params.slug);
    const expectedPaymentId =
      typeof ctx.query.expected_payment === 'string' ? ctx.query.expected_payment : undefined;
    if (expectedPaymentId !== undefined && !Uuid.safeParse(expectedPaymentId).success)
      throw notFound('Expected payment');
    ctx.body = { checkout: await view(product, expectedPaymentId) };
  });

  router.post('/checkout/:slug/sessions', async (ctx) => {
    const product = await productBySlug(ctx.params.slug);
    const body = parseFlatBody(CheckoutSessionCreateBody, ctx.state.body);
    if (!product.active) throw new ApiError('product_inactive', 'This checkout is not active');
    const chain = chainOf(product);
    if (!chain) {
      throw new ApiError(
        'service_unavailable',
        `Payments on ${product.token_blockchain} (${product.token_network}) are unavailable: no RPC endpoint is configured`,
      );
    }
    const temporal = deps.temporal;
    if (!temporal) throw temporalUnavailable('checkouts cannot be opened');

    const errors: Array<{ path: string; message: string }> = [];
    const payToken = deps.tokens.findPaymentToken(product.chain_id, body.token_address);
    const isProductToken = body.token_address.toLowerCase() === product.token_address.toLowerCase();
    // Without a payer the shopper pays from another device: a plain transfer of the product's token.
    const payerless = body.sender_address == null;
    if (payerless && !isProductToken) {
      errors.push({
        path: 'token_address',
        message: `must be the product's token ${product.token_address} when no sender_address is given`,
      });
    } else if (!isProductToken && !(product.swappable && payToken)) {
      errors.push({
        path: 'token_address',
        message: product.swappable
          ? 'must be a stablecoin accepted on this chain'
          : `must be the product's token ${product.token_address}`,
      });
    }
    for (const field of product.custom_fields) {
      if (!body.custom_fields[field]?.trim())
        errors.push({ path: `custom_fields.${field}`, message: 'is required' });
    }
    for (const field of Object.keys(body.custom_fields)) {
      if (!product.custom_fields.includes(field))
        errors.push({ path: `custom_fields.${field}`, message: 'is not asked by this product' });
    }
    if (body.dollar_amount !== undefined && !product.open_amount) {
      errors.push({
        path: 'dollar_amount',
        message: 'is set by the merchant for this product: give expected_payment_id',
      });
    }
    if (errors.length > 0) throw recordInvalid(errors);

    const found = body.expected_payment_id
      ? await findExpectedPayment(deps.db.kysely, body.expected_payment_id)
      : undefined;
    if (body.expected_payment_id && (!found || found.product_id !== product.id))
      throw notFound('Expected payment');
    const expectedToken = {
      symbol: product.token_symbol,
      address: product.token_address,
      name: product.token_name,
      decimal_count: product.token_decimals,
      blockchain: product.token_blockchain,
      network: product.token_network,
    };
    // Read before anything is written: an unreachable chain leaves no row behind.
    const latest = await chain.client.getBlockNumber({ cacheTime: 0 }).catch(() => {
      throw new ApiError(
        'service_unavailable',
        `The RPC endpoint of ${product.token_blockchain} (${product.token_network}) cannot be reached; retry later`,
      );
    });
    // The shopper's expected payment and its session are written together or not at all.
    const { expected, session, created } = await inTransaction(deps.db.kysely, async (trx) => {
      const expected =
        found ??
        (await insertExpectedPayment(trx, {
          id: randomUUID(),
          merchant_id: product.merchant_id,
          product_id: product.id,
          dollar_amount: body.dollar_amount!,
          metadata: null,
          customer_email: body.email,
          source: 'shopper',
        }));
      const now = Date.now();
      const expiresAt = product.expires_in_minutes
        ? new Date(now + product.expires_in_minutes * 60_000)
        : null;
      const price = parseUnits(normalizeDecimal(expected.dollar_amount), product.token_decimals);
      const sessionId = randomUUID();
      // A session without a payer gets an amount no other open session paying this address and token
      // has (its price plus a tail), reserved until its scan window ends: a transfer of exactly that
      // amount pays it, whoever sends it.
      let reserved: { amount: bigint; tail: bigint } | null = null;
      if (payerless) {
        const current = await findSessionByExpectedPayment(trx, expected.id);
        const reservable =
          !current ||
          (current.amount_tail === null && current.status === 'awaiting_payment' && !current.tx_hash);
        if (reservable) {
          const holder = current?.id ?? sessionId;
          const windowEnd = scanWindowEnd(
            current ? current.expires_at : expiresAt,
            current ? current.created_at : new Date(now),
          );
          reserved = await reserveAmount(trx, product, holder, new Date(windowEnd), price);
          if (current) await setSessionReservedAmount(trx, { sessionId: current.id, ...reserved });
        }
      }
      const opened = await upsertSession(trx, {
        id: sessionId,
        expected_payment_id: expected.id,
        product_id: product.id,
        merchant_id: product.merchant_id,
        email: body.email,
        custom_fields: body.custom_fields,
        sender_address: body.sender_address ?? null,
        locale: body.locale ?? null,
        payment_token_address: payToken?.address ?? product.token_address,
        chain_id: product.chain_id,
        expected_token: expectedToken,
        expected_token_amount: (reserved?.amount ?? price).toString(),
        amount_tail: reserved?.tail.toString() ?? null,
        receiving_address: product.address,
        required_confirmations: chain.confirmations,
        // The first block mined after the session opened: a scan never claims a transfer from before it.
        start_block: (latest + 1n).toString(),
        expires_at: expiresAt,
      });
      // Another request opened the session first: the amount reserved for this one goes back.
      if (!opened.created && reserved) await releasePaymentAmounts(trx, sessionId);
      return { expected, ...opened };
    });
    if (created || session.status === 'awaiting_payment') {
      const input: CheckoutSessionInput = {
        sessionId: session.id,
        expectedPaymentId: expected.id,
        productId: product.id,
        merchantId: product.merchant_id,
        chainId: product.chain_id,
        expiresAt: session.expires_at?.getTime() ?? null,
        scanUntil: scanWindowEnd(session.expires_at, session.created_at),
        // A session with a reserved amount is paid from another device, which sends no hash: its scan
        // starts at once (and takes its exact amount without the claim delay).
        ...(session.amount_tail === null
          ? { scanStartAt: session.created_at.getTime() + deps.config.checkout.scanClaimDelayMs }
          : {}),
      };
      await startWithinBound(temporal.client, () =>
        temporal.client.workflow.start('checkoutSession', {
          workflowId: checkoutWorkflowId(expected.id),
          taskQueue: deps.config.temporal.taskQueue,
          args: [input],
          workflowIdConflictPolicy: 'USE_EXISTING',
          typedSearchAttributes: [
            { key: MerchantId, value: product.merchant_id },
            { key: ProductId, value: product.id },
            { key: CheckoutStatus, value: 'awaiting_payment' },
          ],
          memo: {
            slug: product.slug,
            dollar_amount: normalizeDecimal(expected.dollar_amount, 2),
            product: product.name,
          },
          ...checkoutWorkflowSummary({
            dollarAmount: normalizeDecimal(expected.dollar_amount, 2),
            productName: product.name,
            status: 'awaiting_payment',
            productSlug: product.slug,
            expectedPaymentId: expected.id,
            sessionId: session.id,
            chainId: product.chain_id,
            tokenSymbol: payToken?.symbol ?? product.token_symbol,
          }),
        }),
      );
    }
    ctx.body = { session: await sessionView(session) };
  });

  router.get('/checkout/sessions/:id', async (ctx) => {
    const session = await findSession(deps.db.kysely, uuidParam(ctx.params.id, 'Checkout session'));
    if (!session) throw notFound('Checkout session');
    ctx.body = { session: await sessionView(session) };
  });

  router.post('/checkout/sessions/:id/transactions', async (ctx) => {
    const session = await findSession(deps.db.kysely, uuidParam(ctx.params.id, 'Checkout session'));
    if (!session) throw notFound('Checkout session');
    const { tx_hash } = parseFlatBody(CheckoutTransactionBody, ctx.state.body);
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
  });

  // Server-sent events: the session each time it changes (pushed, not polled), for at most ten minutes per connection.
  router.get('/checkout/sessions/:id/events', async (ctx) => {
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
        dollarAmount ??= (await findExpectedPayment(deps.db.kysely, row.expected_payment_id))?.dollar_amount;
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
  });
}

/** How long starting a checkout's workflow may take before the shopper is told Temporal is unavailable. */
const workflowStartTimeoutMs = 3_500;

/** Runs a workflow start within {@link workflowStartTimeoutMs}; a 503 that says so when Temporal does not answer. */
async function startWithinBound(client: Client, start: () => Promise<unknown>): Promise<void> {
  try {
    await callWithin(client, workflowStartTimeoutMs, start);
  } catch {
    throw temporalUnavailable('the checkout could not be opened; try again shortly');
  }
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
