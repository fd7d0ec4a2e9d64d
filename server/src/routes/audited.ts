/** A change a merchant makes and the line of the audit log that records it, written together. */
import { ApiError, type AuditAction } from '@checkout/core';
import { type Database, inTransaction, recordAudit } from '@checkout/db';
import type { RouterContext } from '@koa/router';
import type { Kysely } from 'kysely';
import type { AppState } from '../context.ts';

/** What the audit log says of a change: its action, the record it touched, what else it was given. */
interface AuditLine {
  action: AuditAction;
  subject: string;
  detail?: Record<string, unknown>;
}

/**
 * Runs `change` in one transaction (the request's own when it has one) with the audit line `line` makes of its
 * result, naming the request's actor: the line exists exactly when the change does.
 */
export function audited<T>(
  ctx: RouterContext<AppState>,
  change: (db: Kysely<Database>) => Promise<T>,
  line: (result: T) => AuditLine,
): Promise<T> {
  const merchant = ctx.state.merchant;
  if (!merchant) throw new ApiError('internal_error', 'An audited change needs an authenticated merchant');
  return inTransaction(ctx.state.db, async (trx) => {
    const result = await change(trx);
    await recordAudit(trx, { merchantId: merchant.merchantId, actor: merchant.actor, ...line(result) });
    return result;
  });
}
