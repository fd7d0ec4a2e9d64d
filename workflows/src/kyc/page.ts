/** The sandbox provider's hosted KYC page: each step the user takes on it becomes a KYC event, once. */
import { type Database, inTransaction, markKycSession } from '@checkout/db';
import type { Kysely } from 'kysely';
import type { KycEvent } from './shared.ts';
import { queueKycEvent } from './start.ts';

/** The event of each step of the page. */
const stepStatus = { opened_at: 'initiated', submitted_at: 'pending_assessment' } as const satisfies Record<
  string,
  KycEvent['status']
>;

/** Marks the step of the user's KYC session once, with the event for its onboarding in the same transaction. */
export async function recordKycPageStep(
  db: Kysely<Database>,
  input: { sessionId: string; step: keyof typeof stepStatus; user: { id: string; merchant_id: string } },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (await markKycSession(trx, input.sessionId, input.step)) {
      await queueKycEvent(trx, input.user, { source: 'session', status: stepStatus[input.step] });
    }
  });
}
