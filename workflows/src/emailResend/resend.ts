/** A merchant's resend of an e-mail that may not have arrived: noted on its record, made by a workflow. */
import { type Database, inTransaction, requestEmailResend, type UndeliveredEmailRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueWorkflowCall } from '../handOver/queueWorkflowCall.ts';
import { emailResendWorkflowId, emailResendWorkflowType } from './shared.ts';

/**
 * Asks for the e-mail's next resend, with its workflow's start queued in the same transaction; undefined
 * when a resend is already pending.
 */
export function queueEmailResend(
  db: Kysely<Database>,
  row: UndeliveredEmailRow,
): Promise<UndeliveredEmailRow | undefined> {
  return inTransaction(db, async (trx) => {
    const asked = await requestEmailResend(trx, row);
    if (!asked) return undefined;
    const input = { id: row.id, resend: asked.resends + 1 };
    await queueWorkflowCall(trx, {
      kind: 'start',
      workflowType: emailResendWorkflowType,
      workflowId: emailResendWorkflowId(input.id, input.resend),
      call: { args: [input], once: true },
    });
    return asked;
  });
}
