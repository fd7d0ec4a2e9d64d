/** Area B users (spec 2.4, 4.5): every validation rule, the exact response shape, listing and tenancy. */
import { User } from '@checkout/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, business, createUser, expectError, individual } from '../support/areaB.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const userFields = [
  'id',
  'beneficiary_type',
  'first_name',
  'last_name',
  'company_name',
  'email',
  'date_of_birth',
  'address_line1',
  'address_line2',
  'city',
  'state',
  'postcode',
  'country',
  'ssn',
  'website',
  'source_of_funds',
  'business_description',
  'kyc',
].sort();
const notStarted = { status: 'not_started', swift_status: 'not_started' };

describe.skipIf(databaseUnavailable())('users', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    service = await startTestService();
    merchant = await service.createMerchant();
    other = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
  });

  const create = (user: unknown, who: TestMerchant = merchant) =>
    service.request('POST', '/users', { headers: authOf(who), json: { user } });

  async function fieldErrorsOf(user: unknown): Promise<Record<string, string>> {
    const res = await create(user);
    expectError(res, 422, 'record_invalid');
    return Object.fromEntries(
      (res.body.errors as Array<{ path: string; message: string }>).map((e) => [e.path, e.message]),
    );
  }

  it('creates an individual with the exact 2.4 shape: no phone, nationality or business_activity', async () => {
    const res = await create({ ...individual, business_activity: 'Mathematics' });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['user']);
    const u = res.body.user;
    expect(Object.keys(u).sort()).toEqual(userFields);
    expect(User.safeParse(u).success).toBe(true);
    expect(u).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      beneficiary_type: 'individual',
      first_name: 'Ada',
      last_name: 'Lovelace',
      company_name: null,
      email: 'ada@example.com',
      date_of_birth: '10/12/1985',
      address_line1: '1 Market Street',
      address_line2: null,
      city: 'San Francisco',
      state: 'CA',
      postcode: '94105',
      country: 'US',
      ssn: '123-45-6789',
      website: null,
      source_of_funds: null,
      business_description: null,
      kyc: {
        general: { status: 'not_started', moderation_comment: null },
        eur: notStarted,
        usd: notStarted,
        ars: notStarted,
        status_message: null,
      },
    });
    const shown = await service.request('GET', `/users/${u.id}`, { headers: authOf(merchant) });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ user: u });
  });

  it('creates a business; website and business_description are returned when given', async () => {
    const res = await create({
      ...business,
      website: 'https://acme.example',
      business_description: 'Payroll software',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({
      beneficiary_type: 'business',
      company_name: 'Acme GmbH',
      first_name: null,
      last_name: null,
      source_of_funds: 'Venture Capital',
      website: 'https://acme.example',
      business_description: 'Payroll software',
      date_of_birth: '01/02/2001',
    });
    expect(res.body.user).not.toHaveProperty('business_activity');
    expect(res.body.user).not.toHaveProperty('phone');
    expect(res.body.user).not.toHaveProperty('nationality');
  });

  it.each([
    'beneficiary_type',
    'email',
    'date_of_birth',
    'address_line1',
    'city',
    'state',
    'postcode',
    'country',
    'nationality',
    'phone',
    'ssn',
  ])('requires %s', async (field) => {
    const { [field]: _omitted, ...rest } = individual as Record<string, unknown>;
    const errors = await fieldErrorsOf(rest);
    // A missing enum reads as its allowed values, which says more than "is required".
    expect(errors[`user.${field}`]).toBe(
      field === 'beneficiary_type' ? 'must be one of: individual, business' : 'is required',
    );
  });

  it('requires first and last name for an individual, and lists both', async () => {
    const { first_name: _f, last_name: _l, ...rest } = individual;
    const errors = await fieldErrorsOf(rest);
    expect(errors).toEqual({
      'user.first_name': 'is required for an individual',
      'user.last_name': 'is required for an individual',
    });
  });

  it('requires company_name and source_of_funds for a business, not the person names', async () => {
    const { company_name: _c, source_of_funds: _s, ...rest } = business;
    const errors = await fieldErrorsOf(rest);
    expect(errors).toEqual({
      'user.company_name': 'is required for a business',
      'user.source_of_funds': 'is required for a business',
    });
  });

  it('rejects an unknown beneficiary_type', async () => {
    const errors = await fieldErrorsOf({ ...individual, beneficiary_type: 'trust' });
    expect(errors['user.beneficiary_type']).toBe('must be one of: individual, business');
  });

  it.each([
    ['country', 'USA'],
    ['country', 'us'],
    ['country', 'XX'],
    ['nationality', 'UK'],
    ['nationality', 'ZZ'],
  ])('requires ISO 3166-1 alpha-2 in %s (%s)', async (field, value) => {
    const errors = await fieldErrorsOf({ ...individual, [field]: value });
    expect(errors[`user.${field}`]).toBe('must be an ISO 3166-1 alpha-2 country code such as US');
  });

  it.each(['California', 'ZZ', 'ca'])('requires a two-letter US state (%s)', async (state) => {
    const errors = await fieldErrorsOf({ ...individual, state });
    expect(errors['user.state']).toBe('must be a two-letter US state code such as CA');
  });

  it('accepts any state text outside the US', async () => {
    const res = await create({ ...individual, country: 'GB', state: 'Greater London' });
    expect(res.status, res.text).toBe(200);
  });

  it.each(['4155552671', '+1415555267', 'phone', '+44 12'])('rejects the phone %s', async (phone) => {
    const errors = await fieldErrorsOf({ ...individual, phone });
    expect(errors['user.phone']).toMatch(/^must be a valid phone number/);
  });

  it.each([
    ['1985-12-10', 'must be a real date in the form DD/MM/YYYY'],
    ['12/10/85', 'must be a real date in the form DD/MM/YYYY'],
    ['31/02/1990', 'must be a real date in the form DD/MM/YYYY'],
    ['00/01/1990', 'must be a real date in the form DD/MM/YYYY'],
    ['10/13/1985', 'must be a real date in the form DD/MM/YYYY'],
    ['01/01/2999', 'must be in the past'],
    ['01/01/1700', 'must not be before 01/01/1800'],
  ])('rejects the date of birth %s', async (date_of_birth, message) => {
    const errors = await fieldErrorsOf({ ...individual, date_of_birth });
    expect(errors['user.date_of_birth']).toBe(message);
  });

  it('rejects today as a date of birth, accepts 29 February of a leap year', async () => {
    const now = new Date();
    const today = `${String(now.getUTCDate()).padStart(2, '0')}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${now.getUTCFullYear()}`;
    expect((await fieldErrorsOf({ ...individual, date_of_birth: today }))['user.date_of_birth']).toBe(
      'must be in the past',
    );
    const res = await create({ ...individual, date_of_birth: '29/02/2000' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.date_of_birth).toBe('29/02/2000');
  });

  it.each(['CU', 'IR', 'KP', 'SY', 'RU', 'BY'])(
    'refuses users residing in the blocked country %s',
    async (country) => {
      const errors = await fieldErrorsOf({ ...individual, country, state: 'X' });
      expect(errors['user.country']).toBe(`is not supported: users in ${country} cannot be onboarded`);
    },
  );

  it('rejects a bad e-mail, unknown fields and wrong types, listing every problem', async () => {
    const errors = await fieldErrorsOf({ ...individual, email: 'nope', favourite_colour: 'red', ssn: 42 });
    expect(errors).toMatchObject({
      'user.email': 'must be a valid e-mail address',
      'user.favourite_colour': 'is not a known field',
      'user.ssn': 'must be a string',
    });
  });

  it('answers a missing root or body with parameter_missing, bad JSON with invalid_json', async () => {
    expectError(
      await service.request('POST', '/users', { headers: authOf(merchant), json: {} }),
      400,
      'parameter_missing',
    );
    expectError(
      await service.request('POST', '/users', { headers: authOf(merchant), json: { user: null } }),
      400,
      'parameter_missing',
    );
    expectError(
      await service.request('POST', '/users', { headers: authOf(merchant) }),
      400,
      'parameter_missing',
    );
    expectError(
      await service.request('POST', '/users', {
        headers: { ...authOf(merchant), 'content-type': 'application/json' },
        body: '{"user":',
      }),
      400,
      'invalid_json',
    );
    expectError(
      await service.request('POST', '/users', { headers: authOf(merchant), json: { user: 'ada' } }),
      422,
      'record_invalid',
    );
  });

  it('requires an API key; X-ADDRESS is not needed', async () => {
    expectError(await service.request('GET', '/users'), 401, 'unauthorized');
    expectError(
      await service.request('GET', '/users', { headers: { authorization: 'Bearer nope' } }),
      401,
      'unauthorized',
    );
    const res = await service.request('GET', '/users', { headers: authOf(merchant) });
    expect(res.status).toBe(200);
  });

  it("lists the account's users only, and another account gets 404 for them", async () => {
    const mine = await createUser(service, merchant);
    const theirs = await createUser(service, other, business);
    const listed = await service.request('GET', '/users', { headers: authOf(merchant) });
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.body)).toEqual(['users']);
    const ids = listed.body.users.map((u: { id: string }) => u.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    for (const u of listed.body.users) expect(User.safeParse(u).success).toBe(true);

    expectError(
      await service.request('GET', `/users/${theirs}`, { headers: authOf(merchant) }),
      404,
      'record_not_found',
    );
    expectError(
      await service.request('GET', `/users/${mine}`, { headers: authOf(other) }),
      404,
      'record_not_found',
    );
    expectError(
      await service.request('GET', '/users/not-a-uuid', { headers: authOf(merchant) }),
      404,
      'record_not_found',
    );
    expectError(
      await service.request('POST', `/users/${mine}/kycs`, { headers: authOf(other) }),
      404,
      'record_not_found',
    );
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const headers = { ...authOf(merchant), 'idempotency-key': `user-${Date.now()}` };
    const first = await service.request('POST', '/users', { headers, json: { user: individual } });
    const second = await service.request('POST', '/users', { headers, json: { user: individual } });
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });
});
