/** The merchant's audit log: who (a key or a signed-in wallet) did what, newest first, a page at a time. */
import { AuditLogQuery, AuditLogResponse } from '@checkout/core';
import { listAuditEvents } from '@checkout/db';
import type { Routes } from './declare.ts';
import { account, errors, ok } from './docs.ts';

/** Lines per page unless `limit` says otherwise. */
const defaultLimit = 50;

/** Registers the audit log route on the authenticated account router. */
export function auditLogRoutes(router: Routes): void {
  router.get(
    '/audit_log',
    account('audit:read', {
      summary:
        "The account's audit log, newest first: keys created, rolled and revoked; refunds requested and canceled; transfers attached and dismissed; the webhook secret rotated; members added and removed",
      requestParams: { query: AuditLogQuery },
      responses: { ...ok('A page of the audit log', AuditLogResponse), ...errors(401, 403, 422) },
    }),
    async (ctx) => {
      const { limit, cursor } = ctx.state.query;
      ctx.body = await listAuditEvents(ctx.state.db, ctx.state.merchant!.merchantId, {
        limit: limit ?? defaultLimit,
        ...(cursor ? { cursor } : {}),
      });
    },
  );
}
