/** Area B users, their KYC state and the account webhook endpoint (spec 2.4, 4.5; research §2, §4, §11, §13). */
import { z } from 'zod';
import { HttpUrl, namedObject, Timestamp, Uuid } from './common.ts';

/** Who a user is: a person or a company. */
const beneficiaryTypes = ['individual', 'business'] as const;

/** Every KYC status a provider can report, in lifecycle order (research §4). */
const kycStatuses = [
  'not_started',
  'initiated',
  'pending_assessment',
  'prechecks_completed',
  'application_queued',
  'awaiting_manual_review',
  'retry_required',
  'retry_denied',
  'approved',
  'failed',
] as const;

/** Currencies whose clearance is tracked separately from the general KYC. */
const kycCurrencies = ['eur', 'usd', 'ars'] as const;

/** Statuses the sandbox accepts: every lifecycle value plus `full_clearance` (approves every currency and swift). */
const sandboxKycStatuses = [...kycStatuses, 'full_clearance'] as const;

const KycStatusSchema = z.enum(kycStatuses);

/** Clearance of one currency: its local rails and SWIFT. */
const KycCurrencyState = namedObject('KycCurrencyState', {
  status: KycStatusSchema,
  swift_status: KycStatusSchema,
});

/** The `kyc` block of a user. */
export const Kyc = namedObject('Kyc', {
  general: z.strictObject({ status: KycStatusSchema, moderation_comment: z.string().nullable() }),
  eur: KycCurrencyState,
  usd: KycCurrencyState,
  ars: KycCurrencyState,
  status_message: z
    .string()
    .nullable()
    .describe('Why the last KYC decision could not be applied; null once a later one is'),
});
export type Kyc = z.infer<typeof Kyc>;

/** Day/month/year with slashes, the form the API reads and writes (e.g. `12/12/1985` is 12 December). */
const slashDatePattern = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/** The ISO date (YYYY-MM-DD) of a DD/MM/YYYY text, or undefined when it names no calendar day. */
function parseSlashDate(value: string): string | undefined {
  const match = slashDatePattern.exec(value);
  if (!match) return undefined;
  const [, dd, mm, yyyy] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd)));
  if (
    date.getUTCFullYear() !== Number(yyyy) ||
    date.getUTCMonth() !== Number(mm) - 1 ||
    date.getUTCDate() !== Number(dd)
  ) {
    return undefined;
  }
  return `${yyyy}-${mm}-${dd}`;
}

// Incorporation dates of old companies reach far back; anything before this is a typing error.
const earliestDate = '1800-01-01';

/** A past calendar day as DD/MM/YYYY; parsed to its ISO date. */
const SlashDate = z
  .string()
  .transform((value, ctx) => {
    const iso = parseSlashDate(value.trim());
    if (iso === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be a real date in the form DD/MM/YYYY' });
      return z.NEVER;
    }
    if (iso >= new Date().toISOString().slice(0, 10)) {
      ctx.addIssue({ code: 'custom', message: 'must be in the past' });
      return z.NEVER;
    }
    if (iso < earliestDate) {
      ctx.addIssue({ code: 'custom', message: 'must not be before 01/01/1800' });
      return z.NEVER;
    }
    return iso;
  })
  .meta({ example: '12/12/1985', description: 'DD/MM/YYYY' });

const CountryCode = z
  .string()
  .trim()
  .meta({ pattern: '^\\s*[A-Z]{2}\\s*$', description: 'ISO 3166-1 alpha-2, upper case (e.g. US)' });

const text = (max = 200) => z.string().trim().min(1).max(max);
const optionalText = (max = 200) => z.union([z.string().trim().max(max), z.null()]).optional();

/**
 * `user` of POST /users. Country, nationality, US state and phone formats and the blocked countries
 * are checked by the API with the banking format checks; the fields required by type here.
 */
export const UserCreateInput = z
  .strictObject({
    beneficiary_type: z.enum(beneficiaryTypes),
    first_name: optionalText(),
    last_name: optionalText(),
    company_name: optionalText(),
    email: z.email().max(254),
    date_of_birth: SlashDate,
    address_line1: text(),
    address_line2: optionalText(),
    city: text(),
    state: text(100),
    postcode: text(20),
    country: CountryCode,
    nationality: CountryCode,
    phone: text(40),
    ssn: text(64),
    source_of_funds: optionalText(500),
    business_activity: optionalText(500),
    website: z.union([HttpUrl, z.null()]).optional(),
    business_description: optionalText(1000),
  })
  .superRefine((u, ctx) => {
    const blank = (v: string | null | undefined) => v === undefined || v === null || v === '';
    const need = (field: 'first_name' | 'last_name' | 'company_name' | 'source_of_funds', why: string) => {
      if (blank(u[field])) ctx.addIssue({ code: 'custom', path: [field], message: `is required ${why}` });
    };
    if (u.beneficiary_type === 'individual') {
      need('first_name', 'for an individual');
      need('last_name', 'for an individual');
    } else {
      need('company_name', 'for a business');
      need('source_of_funds', 'for a business');
    }
  })
  .meta({
    description:
      'An individual needs first_name and last_name, a business company_name and source_of_funds; country and nationality must be assigned ISO 3166-1 alpha-2 codes, and phone a valid number (of country, or in international form)',
  });
export type UserCreateInput = z.infer<typeof UserCreateInput>;

export const UserCreateBody = namedObject('UserCreateBody', { user: UserCreateInput });

/** A user as every response and the `kyc_update` webhook show it (spec 2.4: no phone, nationality or business_activity). */
export const User = namedObject('User', {
  id: Uuid,
  beneficiary_type: z.enum(beneficiaryTypes),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  company_name: z.string().nullable(),
  email: z.string(),
  date_of_birth: z.string().meta({ example: '12/12/1985' }),
  address_line1: z.string(),
  address_line2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  postcode: z.string(),
  country: z.string(),
  ssn: z.string().nullable(),
  website: z.string().nullable(),
  source_of_funds: z.string().nullable(),
  business_description: z.string().nullable(),
  kyc: Kyc,
});
export type User = z.infer<typeof User>;

export const UserResponse = namedObject('UserResponse', { user: User });
export const UserListResponse = namedObject('UserListResponse', { users: z.array(User) });

/** A KYC session: the URL the user opens to verify. */
export const KycSessionResponse = namedObject('KycSessionResponse', {
  kyc: z.strictObject({ user_id: Uuid, url: z.string() }),
});

/** Body of PATCH /sandbox/users/:id/kycs; `currency` and `rail` narrow the decision to one clearance. */
export const SandboxKycBody = namedObject('SandboxKycBody', {
  kyc: z.strictObject({
    status: z.enum(sandboxKycStatuses),
    currency: z.enum(kycCurrencies).optional(),
    rail: z.enum(['local', 'swift']).optional(),
    moderation_comment: z.union([z.string().max(1000), z.null()]).optional(),
  }),
});
export type SandboxKycBody = z.infer<typeof SandboxKycBody>;

/** The account's webhook endpoint, which receives `kyc_update` and `payment_detail_update`. */
export const WebhookEndpoint = namedObject('WebhookEndpoint', {
  url: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointBody = namedObject('WebhookEndpointBody', {
  webhook_endpoint: z.strictObject({ url: HttpUrl }),
});

export const WebhookEndpointResponse = namedObject('WebhookEndpointResponse', {
  webhook_endpoint: WebhookEndpoint,
});

/** The KYC state of a new user: nothing started (the stored decisions; `status_message` is kept apart). */
export function initialKyc(): Omit<Kyc, 'status_message'> {
  const currency = () => ({ status: 'not_started' as const, swift_status: 'not_started' as const });
  return {
    general: { status: 'not_started', moderation_comment: null },
    eur: currency(),
    usd: currency(),
    ars: currency(),
  };
}
