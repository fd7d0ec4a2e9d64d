/** The wire form of a user (spec 2.4), shared by the API and the `kyc_update` webhook. */
import type { User } from '@checkout/core';
import type { SecretBox } from '../secretBox.ts';
import type { UserRow } from '../usersSchema.ts';

/** DD/MM/YYYY from the stored ISO date. */
function slashDate(isoDate: string): string {
  const [yyyy, mm, dd] = isoDate.split('-');
  return `${dd}/${mm}/${yyyy}`;
}

/** A user as responses show it: phone, nationality and business_activity stay out (spec 2.4). */
export function presentUser(row: UserRow, secrets: SecretBox): User {
  return {
    id: row.id,
    beneficiary_type: row.beneficiary_type,
    first_name: row.first_name,
    last_name: row.last_name,
    company_name: row.company_name,
    email: row.email,
    date_of_birth: slashDate(row.date_of_birth),
    address_line1: row.address_line1,
    address_line2: row.address_line2,
    city: row.city,
    state: row.state,
    postcode: row.postcode,
    country: row.country,
    ssn: secrets.open(row.ssn_ciphertext),
    website: row.website,
    source_of_funds: row.source_of_funds,
    business_description: row.business_description,
    kyc: { ...(row.kyc as Omit<User['kyc'], 'status_message'>), status_message: row.kyc_status_message },
  };
}
