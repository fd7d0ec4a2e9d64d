/** Area A: e-mails that may not have arrived (their outcome stayed unknown), and their resend. */
import {
  ApiError,
  UndeliveredEmailListResponse,
  UndeliveredEmailQuery,
  UndeliveredEmailResponse,
} from '@checkout/core';
import { listUndeliveredEmails, presentUndeliveredEmail } from '@checkout/db';
import { queueEmailResend } from '@checkout/workflows';
import type { Routes } from './declare.ts';
import { areaA, errors, merchantHeaders, ok, undeliveredEmailPath, walletHeader } from './docs.ts';
import { undeliveredEmailOfRequest, walletScope } from './loaders.ts';

/** Registers the undelivered e-mail routes on the authenticated Area A router. */
export function undeliveredEmailRoutes(router: Routes): void {
  router.get(
    '/undelivered_emails',
    areaA('payments:read', {
      summary: "The wallet's e-mails that may not have arrived, newest first (of one payment or refund)",
      requestParams: { header: walletHeader, query: UndeliveredEmailQuery },
      responses: {
        ...ok('Undelivered e-mails', UndeliveredEmailListResponse),
        ...errors(400, 401, 403, 422),
      },
    }),
    async (ctx) => {
      const query = ctx.state.query;
      const rows = await listUndeliveredEmails(ctx.state.db, walletScope(ctx.state), {
        resolvedPaymentId: query.resolved_payment_id,
        refundId: query.refund_id,
      });
      ctx.body = { undelivered_emails: rows.map(presentUndeliveredEmail) };
    },
  );

  router.post(
    '/undelivered_emails/:id/resend',
    areaA('payments:write', {
      summary: 'Send an e-mail that may not have arrived once more (the same message and Message-ID)',
      requestParams: { header: merchantHeaders, path: undeliveredEmailPath },
      responses: {
        ...ok('The e-mail, its resend queued', UndeliveredEmailResponse),
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    async (ctx) => {
      const row = await queueEmailResend(ctx.state.db, await undeliveredEmailOfRequest(ctx));
      if (!row) throw new ApiError('conflict', 'A resend of this e-mail is already on its way');
      ctx.body = { undelivered_email: presentUndeliveredEmail(row) };
    },
  );
}
