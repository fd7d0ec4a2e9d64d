/**
 * The public routes of one checkout session (no key; its id is the shopper's credential; rate limited): the
 * session, the shopper's transaction hash, closing an attempt given up, and the session's event stream.
 */
import { CheckoutSessionResponse, CheckoutTransactionBody, ErrorResponse, notFound } from '@checkout/core';
import { type CheckoutSessionRow, findSession } from '@checkout/db';
import { closeCheckoutSession, submitCheckoutTransaction, viewSession } from '@checkout/workflows';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { openSessionEventStream } from '../sessionEventStream.ts';
import { type Routes, withBody } from './declare.ts';
import { clientSecretHeader, errors, json, limited, ok, sessionPath } from './docs.ts';
import { sessionOfRequest } from './loaders.ts';

/** Registers the session routes on the public checkout router. */
export function checkoutSessionRoutes(router: Routes, deps: AppDeps): void {
  const sessionView = (row: CheckoutSessionRow) => viewSession(deps.db.kysely, row);

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
        ...errors(400, 404, 409, 422),
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
      summary: "Close an attempt its opener gave up (a merchant's expected payment stays payable)",
      requestParams: { path: sessionPath, header: clientSecretHeader(true) },
      responses: { ...ok('The session', CheckoutSessionResponse), ...errors(403, 404, 409), ...limited },
    },
    async (ctx) => {
      const session = await sessionOfRequest(ctx, deps.db.kysely);
      const closed = await closeCheckoutSession(
        deps.db.kysely,
        session,
        ctx.get('X-Client-Secret') || undefined,
      );
      ctx.body = { session: await sessionView(closed) };
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
