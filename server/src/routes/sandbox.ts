/**
 * Area B sandbox (research §13): the hosted KYC page of the sandbox provider, and the special moves that
 * force a user's KYC or a payment detail's status. Registered only when the sandbox is enabled.
 */
import { ApiError, PaymentDetailResponse, SandboxKycBody, SandboxPaymentDetailBody } from '@checkout/core';
import { findKycSessionByToken, findUserById, presentPaymentDetail } from '@checkout/db';
import { changePaymentDetailStatus, queueKycEvent, recordKycPageStep } from '@checkout/workflows';
import type { AppDeps } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, detailPath, errors, html, kycTokenPath, ok, userPath } from './docs.ts';
import { paymentDetailOfRequest, userOfRequest } from './loaders.ts';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem">
<h1>${title}</h1>${body}</body></html>`;
}

/** Registers the hosted sandbox KYC page: no API key, the URL token is the credential. */
export function sandboxPageRoutes(router: Routes, deps: AppDeps): void {
  const sessionOf = async (token: string | undefined) => {
    const session = token ? await findKycSessionByToken(deps.db.kysely, token) : undefined;
    const user = session ? await findUserById(deps.db.kysely, session.user_id) : undefined;
    if (!session || !user) throw new ApiError('record_not_found', 'KYC session not found');
    return { session, user };
  };

  router.get(
    '/sandbox/kyc/:token',
    {
      summary: 'Sandbox only: the KYC page a user verifies on',
      requestParams: { path: kycTokenPath },
      responses: { '200': html('The page'), ...errors(404) },
    },
    async (ctx) => {
      const { session, user } = await sessionOf(ctx.params.token);
      await recordKycPageStep(deps.db.kysely, { sessionId: session.id, step: 'opened_at', user });
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = page(
        'Sandbox identity check',
        `<p>This is the sandbox KYC provider. No documents are needed.</p>
<form method="post" action="/sandbox/kyc/${encodeURIComponent(ctx.params.token ?? '')}/submit">
<button type="submit">Submit my application</button></form>`,
      );
    },
  );

  router.post(
    '/sandbox/kyc/:token/submit',
    {
      summary: 'Sandbox only: the KYC page submitted',
      requestParams: { path: kycTokenPath },
      responses: { '200': html('The page'), ...errors(404) },
    },
    async (ctx) => {
      const { session, user } = await sessionOf(ctx.params.token);
      await recordKycPageStep(deps.db.kysely, { sessionId: session.id, step: 'submitted_at', user });
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = page(
        'Application submitted',
        '<p>Thank you. Decisions are made with <code>PATCH /sandbox/users/:id/kycs</code>.</p>',
      );
    },
  );
}

/** Registers the sandbox special moves on the Area B router (API key only). */
export function sandboxRoutes(router: Routes, deps: AppDeps): void {
  router.patch(
    '/sandbox/users/:id/kycs',
    areaB('users:write', {
      summary: 'Sandbox only: force a KYC decision (applied asynchronously by the KYC workflow)',
      requestParams: { path: userPath },
      responses: { '200': { description: 'Accepted' }, ...errors(400, 401, 404, 422) },
    }),
    withBody({ schema: SandboxKycBody, root: 'kyc' }, async (ctx, body) => {
      const user = await userOfRequest(ctx);
      const { kyc } = body();
      await queueKycEvent(ctx.state.db, user, {
        source: 'provider',
        status: kyc.status,
        ...(kyc.currency ? { currency: kyc.currency } : {}),
        ...(kyc.rail ? { rail: kyc.rail } : {}),
        ...(kyc.moderation_comment === undefined ? {} : { moderationComment: kyc.moderation_comment }),
      });
      // Applied by the user's KYC workflow moments later; GET /users/:id and kyc_update show the result.
      ctx.body = { kyc: { user_id: user.id, status: kyc.status } };
    }),
  );

  router.patch(
    '/sandbox/users/:id/payment_details/:detailId',
    areaB('users:write', {
      summary: "Sandbox only: force a payment detail's status",
      requestParams: { path: detailPath },
      responses: { ...ok('The payment detail', PaymentDetailResponse), ...errors(400, 401, 404, 422) },
    }),
    withBody({ schema: SandboxPaymentDetailBody, root: 'payment_detail' }, async (ctx, body) => {
      const detail = await paymentDetailOfRequest(ctx);
      const { payment_detail: input } = body();
      const row = await changePaymentDetailStatus(
        ctx.state.db,
        { secrets: deps.secrets },
        detail,
        input.status,
      );
      ctx.body = { payment_detail: presentPaymentDetail(row, deps.secrets) };
    }),
  );
}
