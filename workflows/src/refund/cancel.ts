/** The merchant's cancel of a refund not yet paid (from `awaiting_address` or `ready_to_pay`). */
import { ApiError } from '@checkout/core';
import {
  type Database,
  findRefundById,
  type RefundRow,
  type RefundRowStatus,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { changeRefund } from './change.ts';

/** Statuses a refund is canceled from: before its transfer was seen. */
const cancelable: readonly RefundRowStatus[] = ['awaiting_address', 'ready_to_pay'];

/**
 * Cancels the refund; a 409 once its transfer was seen (`sent`, `confirmed`) or it already ended. An
 * unmatched transfer's refund gives the transfer back, open.
 */
export async function cancelRefund(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string },
  row: RefundRow,
): Promise<RefundRow> {
  const canceled = await changeRefund(db, deps, {
    refundId: row.id,
    from: cancelable,
    to: 'canceled',
  });
  if (canceled) return canceled;
  const now = (await findRefundById(db, row.id)) ?? row;
  throw new ApiError(
    'conflict',
    `This refund is ${now.status.replace(/_/g, ' ')}: it can no longer be canceled`,
  );
}
