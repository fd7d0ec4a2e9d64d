/**
 * Creating a user (spec 2.4, 4.5): the user is stored with the SSN sealed and every KYC entry `not_started`,
 * with the start of its `kycOnboarding` workflow queued in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import { initialKyc, type UserCreateInput } from '@checkout/core';
import { type Database, insertUser, inTransaction, type SecretBox, type UserRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueKycStart } from './start.ts';

/** Stores the account's new user and starts its KYC onboarding. */
export async function createUser(
  db: Kysely<Database>,
  deps: { secrets: SecretBox },
  input: { merchantId: string; user: UserCreateInput },
): Promise<UserRow> {
  const { merchantId, user } = input;
  const row = {
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
  };
  return inTransaction(db, async (trx) => {
    const created = await insertUser(trx, row);
    await queueKycStart(trx, created);
    return created;
  });
}
