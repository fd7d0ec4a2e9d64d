/** Fixtures and helpers of the Area B tests: users, KYC decisions and webhook signatures. */
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import type { TestMerchant, TestResponse, TestService } from './service.ts';

/** A valid individual user body (US resident, British national). */
export const individual = {
  beneficiary_type: 'individual',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  date_of_birth: '10/12/1985',
  address_line1: '1 Market Street',
  city: 'San Francisco',
  state: 'CA',
  postcode: '94105',
  country: 'US',
  nationality: 'GB',
  phone: '+14155552671',
  ssn: '123-45-6789',
};

/** A valid business user body (German company). */
export const business = {
  beneficiary_type: 'business',
  company_name: 'Acme GmbH',
  email: 'finance@acme.example',
  date_of_birth: '01/02/2001',
  address_line1: 'Unter den Linden 1',
  city: 'Berlin',
  state: 'Berlin',
  postcode: '10117',
  country: 'DE',
  nationality: 'DE',
  phone: '+447515772386',
  ssn: 'HRB 12345',
  source_of_funds: 'Venture Capital',
  business_activity: 'Software',
};

/** Asserts the one error body with this status and code. */
export function expectError(res: TestResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['error_code', 'errors', 'message', 'status']);
  expect(res.body).toMatchObject({ error_code: code, status });
}

/** A valid USD local (ACH) payment detail of a business account holder. */
export const usdLocalAccount = {
  account_name: 'Acme Supplies LLC',
  beneficiary_type: 'business',
  bank_name: 'JPMorgan Chase',
  address_line1: '383 Madison Avenue',
  city: 'New York',
  state: 'NY',
  postal_code: '10179',
  country: 'US',
  company_number: '12-3456789',
  currency: 'usd',
  account_number: '000123456789',
  routing_number: '021000021',
};

/**
 * A user ready for USD payouts: created, KYC approved, with {@link usdLocalAccount} approved as a
 * payment detail (through the sandbox). Returns the user's and the detail's ids.
 */
export async function createPayoutReadyUser(
  service: TestService,
  merchant: TestMerchant,
): Promise<{ userId: string; detail: string }> {
  const userId = await createUser(service, merchant);
  await decideKyc(service, merchant, userId, { status: 'approved' });
  await waitForKyc(service, merchant, userId, (k) => k.usd.status === 'approved');
  const created = await service.request('POST', `/users/${userId}/payment_details`, {
    headers: authOf(merchant),
    json: { payment_detail: usdLocalAccount },
  });
  expect(created.status, created.text).toBe(200);
  const detail = created.body.payment_detail.id as string;
  const approved = await service.request('PATCH', `/sandbox/users/${userId}/payment_details/${detail}`, {
    headers: authOf(merchant),
    json: { payment_detail: { status: 'approved' } },
  });
  expect(approved.status, approved.text).toBe(200);
  return { userId, detail };
}

/**
 * A merchant set up for onramps: its account webhook endpoint at `webhookUrl`, and a user whose KYC is
 * approved (through the sandbox). Returns the user's id.
 */
export async function createOnrampReadyUser(
  service: TestService,
  merchant: TestMerchant,
  webhookUrl: string,
): Promise<string> {
  const put = await service.request('PUT', '/webhook_endpoint', {
    headers: authOf(merchant),
    json: { webhook_endpoint: { url: webhookUrl } },
  });
  expect(put.status, put.text).toBe(200);
  const userId = await createUser(service, merchant);
  await decideKyc(service, merchant, userId, { status: 'approved' });
  await waitForKyc(service, merchant, userId, (kyc) => kyc.usd.status === 'approved');
  return userId;
}

/** Creates a user and returns its id. */
export async function createUser(
  service: TestService,
  merchant: TestMerchant,
  user: Record<string, unknown> = individual,
): Promise<string> {
  const res = await service.request('POST', '/users', { headers: authOf(merchant), json: { user } });
  expect(res.status, res.text).toBe(200);
  return res.body.user.id as string;
}

/** The Area B headers of a merchant: the API key only. */
export function authOf(merchant: TestMerchant): Record<string, string> {
  return { authorization: merchant.headers.authorization ?? '' };
}

/** Forces a KYC decision in the sandbox. */
export async function decideKyc(
  service: TestService,
  merchant: TestMerchant,
  userId: string,
  kyc: Record<string, unknown>,
): Promise<void> {
  const res = await service.request('PATCH', `/sandbox/users/${userId}/kycs`, {
    headers: authOf(merchant),
    json: { kyc },
  });
  expect(res.status, res.text).toBe(200);
}

/** Polls the user (bounded) until `done` holds for its kyc block, and returns the user. */
export async function waitForKyc(
  service: TestService,
  merchant: TestMerchant,
  userId: string,
  // biome-ignore lint/suspicious/noExplicitAny: the kyc block is inspected field by field
  done: (kyc: any) => boolean,
  timeoutMs = 20_000,
  // biome-ignore lint/suspicious/noExplicitAny: the user body is inspected field by field
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await service.request('GET', `/users/${userId}`, { headers: authOf(merchant) });
    expect(res.status, res.text).toBe(200);
    if (done(res.body.user.kyc)) return res.body.user;
    if (Date.now() > deadline) throw new Error(`KYC state not reached: ${JSON.stringify(res.body.user.kyc)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** True when the `X-Sig` header is `t=<t>, s=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function signatureMatches(
  secret: string,
  header: string | string[] | undefined,
  body: string,
): boolean {
  const match = /^t=(\d+), s=([0-9a-f]{64})$/.exec(String(header));
  if (!match) return false;
  return createHmac('sha256', secret).update(`${match[1]}.${body}`).digest('hex') === match[2];
}

/** The merchant's webhook secret (an Area A endpoint: it needs X-ADDRESS). */
export async function webhookSecretOf(service: TestService, merchant: TestMerchant): Promise<string> {
  const res = await service.request('GET', '/api/v1/webhook_secret', { headers: merchant.headers });
  expect(res.status, res.text).toBe(200);
  return res.body.webhook_secret.secret as string;
}
