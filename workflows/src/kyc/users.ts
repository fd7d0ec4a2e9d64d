/**
 * Creating a user (spec 2.4, 4.5): the user is stored with the SSN sealed and every KYC entry `not_started`,
 * then its `kycOnboarding` workflow is started. A user stands even when Temporal did not take the start: the
 * first KYC decision starts the workflow (signal-with-start).
 */
import { randomUUID } from 'node:crypto';
import { initialKyc, type UserCreateInput } from '@checkout/core';
import { type Database, insertUser, type SecretBox, type UserRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { callWithin } from '../checkout/start.ts';
import { type HandOverDeps, type HandOverLog, workflowCallTimeoutMs } from '../reconciler.ts';
import { kycWorkflowSummary } from '../summaries.ts';
import { startKycOnboarding } from './start.ts';

/** Stores the account's new user and starts its KYC onboarding. */
export async function createUser(
  db: Kysely<Database>,
  deps: HandOverDeps & { secrets: SecretBox; log: HandOverLog },
  input: { merchantId: string; user: UserCreateInput },
): Promise<UserRow> {
  const { merchantId, user } = input;
  const row = await insertUser(db, {
    id: randomUUID(),
    merchant_id: merchantId,
    beneficiary_type: user.beneficiary_type,
    first_name: user.first_name || null,
    last_name: user.last_name || null,
    company_name: user.company_name || null,
    email: user.email,
    date_of_birth: user.date_of_birth,
    address_line1: user.address_line1,
    address_line2: user.address_line2 || null,
    city: user.city,
    state: user.state,
    postcode: user.postcode,
    country: user.country,
    nationality: user.nationality,
    phone: user.phone,
    ssn_ciphertext: deps.secrets.seal(user.ssn),
    website: user.website || null,
    source_of_funds: user.source_of_funds || null,
    business_activity: user.business_activity || null,
    business_description: user.business_description || null,
    kyc: initialKyc(),
  });
  const temporal = deps.temporal;
  if (temporal) {
    try {
      await callWithin(temporal.client, workflowCallTimeoutMs, () =>
        startKycOnboarding(
          temporal.client,
          deps.taskQueue,
          { userId: row.id, merchantId },
          kycWorkflowSummary(row),
        ),
      );
    } catch (error) {
      deps.log.warn({ err: error, userId: row.id }, 'could not start the KYC workflow');
    }
  }
  return row;
}
