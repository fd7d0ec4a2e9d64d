/** Area B payment details, Latam bank names and the account webhook endpoint against the real service. */
import { PaymentDetail } from '@checkout/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authOf,
  business,
  createUser,
  decideKyc,
  expectError,
  signatureMatches,
  waitForKyc,
  webhookSecretOf,
} from '../support/areaB.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

const holder = {
  account_name: 'Acme Supplies LLC',
  beneficiary_type: 'business',
  bank_name: 'JPMorgan Chase',
  address_line1: '383 Madison Avenue',
  city: 'New York',
  state: 'NY',
  postal_code: '10179',
  country: 'US',
  company_number: '12-3456789',
};
const usdLocal = { ...holder, currency: 'usd', account_number: '000123456789', routing_number: '021000021' };
const eurLocal = {
  ...holder,
  state: null,
  country: 'DE',
  city: 'Berlin',
  postal_code: '10117',
  currency: 'eur',
  iban: 'DE89 3704 0044 0532 0130 00',
};
const gbpSwift = {
  ...eurLocal,
  country: 'GB',
  currency: 'gbp',
  iban: 'GB82WEST12345698765432',
  swift_bic: 'NWBKGB2L',
};
const arsLocal = {
  ...holder,
  state: 'CABA',
  country: 'AR',
  city: 'Buenos Aires',
  postal_code: 'C1043',
  currency: 'ars',
  bank_name: 'Banco Macro S.A.',
  account_number: '2850590940090418135201',
  account_type: 'checking',
  document_number: '30703088534',
};
const mxnLocal = {
  ...holder,
  beneficiary_type: 'individual',
  phone: '+52 55 5140 4000',
  neighbourhood: 'Polanco',
  date_of_birth: '12/12/1985',
  activity: 'Software engineer',
  nationality: 'MX',
  gender: 'f',
  account_name: 'María López',
  state: 'CDMX',
  country: 'MX',
  city: 'Ciudad de México',
  postal_code: '11560',
  currency: 'mxn',
  bank_name: 'BANAMEX',
  account_number: '002010077777777771',
  document_type: 'curp',
  document_number: 'BOXW310820HNERXN09',
};
const detailFields = Object.keys(PaymentDetail.shape).sort();

describe.skipIf(databaseUnavailable())('payment details', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let receiver: WebhookReceiver;
  let userId: string;

  beforeAll(async () => {
    service = await startTestService();
    merchant = await service.createMerchant();
    other = await service.createMerchant();
    receiver = await startWebhookReceiver();
    userId = await createUser(service, merchant, business);
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
  });

  const post = (path: string, json: unknown, who: TestMerchant = merchant) =>
    service.request('POST', path, { headers: authOf(who), json });
  const validate = (payment_detail: unknown) =>
    post(`/users/${userId}/payment_details/validate`, { payment_detail });

  it.each([
    ['usd local (ACH)', usdLocal],
    ['usd wire', { ...usdLocal, rails: 'wire' }],
    ['eur SEPA', eurLocal],
    ['eur swift', { ...eurLocal, rails: 'swift', swift_bic: 'COBADEFFXXX' }],
    ['gbp', gbpSwift],
    ['ars CBU', arsLocal],
    ['mxn CLABE', mxnLocal],
    ['eur SEPA, Serbia', { ...eurLocal, iban: 'RS35 2600 0560 1001 6113 79' }],
    [
      'mxn CLABE, the partner’s second BBVA entry',
      { ...mxnLocal, bank_name: 'BBVA BANCOMER2', account_number: '012180000012345674' },
    ],
  ])('validates a real-world %s detail', async (_name, detail) => {
    const res = await validate(detail);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ payment_detail: { valid: true, errors: [] } });
  });

  it.each([
    ['usd: bad routing checksum', { ...usdLocal, routing_number: '021000022' }, 'routing_number'],
    ['usd: no account number', { ...usdLocal, account_number: null }, 'account_number'],
    ['eur: IBAN check digits', { ...eurLocal, iban: 'DE00370400440532013000' }, 'iban'],
    ['eur swift: no BIC', { ...eurLocal, rails: 'swift' }, 'swift_bic'],
    ['gbp: bad BIC', { ...gbpSwift, swift_bic: 'NWBK' }, 'swift_bic'],
    ['ars: CBU check digit', { ...arsLocal, account_number: '2850590940090418135202' }, 'account_number'],
    ['ars: CUIT', { ...arsLocal, document_number: '30703088535' }, 'document_number'],
    ['mxn: bank not in the list', { ...mxnLocal, bank_name: 'Banamex SA' }, 'bank_name'],
    ['mxn: CURP', { ...mxnLocal, document_number: 'HELLO' }, 'document_number'],
    ['mxn: CLABE of another bank', { ...mxnLocal, bank_name: 'Hey Banco' }, 'account_number'],
    ['eur SEPA: IBAN outside SEPA', { ...eurLocal, iban: 'AE070331234567890123456' }, 'iban'],
    [
      'eur: Italian CIN',
      { ...eurLocal, rails: 'swift', swift_bic: 'COBADEFFXXX', iban: 'IT64Y0542811101000000123456' },
      'iban',
    ],
    [
      'eur: QR-IBAN',
      { ...eurLocal, rails: 'swift', swift_bic: 'COBADEFFXXX', iban: 'CH4431999123000889012' },
      'iban',
    ],
    [
      'eur: IBAN outside the registry',
      { ...eurLocal, rails: 'swift', swift_bic: 'COBADEFFXXX', iban: 'IR790120000000003011234567' },
      'iban',
    ],
    [
      'mxn: CLABE of no SPEI bank',
      { ...mxnLocal, bank_name: 'BBVA BANCOMER2', account_number: '999000000000000014' },
      'account_number',
    ],
    ['mxn: bank that left SPEI', { ...mxnLocal, bank_name: 'ACCENDO BANCO' }, 'bank_name'],
    ['usd: unknown rail', { ...usdLocal, rails: 'ach' }, 'rails'],
    ['unknown currency', { ...usdLocal, currency: 'xyz' }, 'currency'],
  ])('reports %s', async (_name, detail, field) => {
    const res = await validate(detail);
    expect(res.status, res.text).toBe(200);
    expect(res.body.payment_detail.valid).toBe(false);
    expect(res.body.payment_detail.errors).toContainEqual({ field, message: expect.any(String) });
    for (const e of res.body.payment_detail.errors)
      expect(Object.keys(e).sort()).toEqual(['field', 'message']);
  });

  it('refuses malformed validate bodies in the one error shape', async () => {
    expectError(await validate(null), 400, 'parameter_missing');
    expectError(await post(`/users/${userId}/payment_details/validate`, {}), 400, 'parameter_missing');
    expectError(await validate({ ...usdLocal, iban: 42 }), 422, 'record_invalid');
    expectError(await validate({ ...usdLocal, colour: 'red' }), 422, 'record_invalid');
  });

  it('gates creation on KYC: general first, then the currency and rail', async () => {
    const create = (detail: unknown) => post(`/users/${userId}/payment_details`, { payment_detail: detail });
    expectError(await create(usdLocal), 422, 'not_yet_passed_kyc_kyb');
    await decideKyc(service, merchant, userId, { status: 'approved' });
    await waitForKyc(service, merchant, userId, (k) => k.general.status === 'approved');
    expectError(
      await create({ ...eurLocal, rails: 'swift', swift_bic: 'COBADEFFXXX' }),
      422,
      'not_approved_for_payout_rail',
    );
    expectError(await create({ ...usdLocal, routing_number: '1' }), 422, 'record_invalid');

    const res = await create(usdLocal);
    expect(res.status, res.text).toBe(200);
    const d = res.body.payment_detail;
    expect(Object.keys(d).sort()).toEqual(detailFields);
    expect(d).toMatchObject({
      user_id: userId,
      currency: 'usd',
      status: 'pending',
      rails: null,
      account_number: '000123456789',
      routing_number: '021000021',
      company_number: '12-3456789',
      iban: null,
      address_line1: '383 Madison Avenue',
    });
    expect(PaymentDetail.safeParse(d).success).toBe(true);

    await decideKyc(service, merchant, userId, { status: 'full_clearance' });
    await waitForKyc(service, merchant, userId, (k) => k.eur.swift_status === 'approved');
    const swift = await create({ ...eurLocal, rails: 'swift', swift_bic: 'COBADEFFXXX' });
    expect(swift.status, swift.text).toBe(200);
    expect(swift.body.payment_detail.rails).toBe('swift');

    const list = await service.request('GET', `/users/${userId}/payment_details`, {
      headers: authOf(merchant),
    });
    expect(list.status).toBe(200);
    expect(list.body.payment_details.map((p: { id: string }) => p.id)).toEqual([
      d.id,
      swift.body.payment_detail.id,
    ]);
    const show = await service.request('GET', `/users/${userId}/payment_details/${d.id}`, {
      headers: authOf(merchant),
    });
    expect(show.body).toEqual({ payment_detail: d });
  });

  it('stores and returns identifiers in their electronic form, whatever way they were typed', async () => {
    // The user is cleared for every currency and rail by the test above.
    const typed: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        { ...eurLocal, iban: '  de89-3704-0044-0532-0130-00 ' },
        { iban: 'DE89370400440532013000', swift_bic: null },
      ],
      [
        {
          ...eurLocal,
          rails: 'swift',
          iban: 'DE89\u00a03704\t0044 0532 0130 00',
          swift_bic: ' cobadeffxxx ',
        },
        { iban: 'DE89370400440532013000', swift_bic: 'COBADEFFXXX' },
      ],
      [{ ...usdLocal, routing_number: ' 021-000-021 ' }, { routing_number: '021000021' }],
      [
        {
          ...arsLocal,
          bank_name: ' banco macro s.a. ',
          account_number: '2850 5909 4009 0418 1352 01',
          document_number: '30-70308853-4',
        },
        {
          bank_name: 'Banco Macro S.A.',
          account_number: '2850590940090418135201',
          document_number: '30703088534',
        },
      ],
      [
        {
          ...mxnLocal,
          beneficiary_type: 'business',
          nationality: null,
          gender: null,
          bank_name: 'invex',
          account_number: '059 180 000000000007',
          document_type: 'rfc',
          document_number: 'mab-930714-8t4',
        },
        { bank_name: 'INVEX ', account_number: '059180000000000007', document_number: 'MAB9307148T4' },
      ],
    ];
    for (const [detail, canonical] of typed) {
      const created = await post(`/users/${userId}/payment_details`, { payment_detail: detail });
      expect(created.status, created.text).toBe(200);
      expect(created.body.payment_detail).toMatchObject(canonical);
      const shown = await service.request(
        'GET',
        `/users/${userId}/payment_details/${created.body.payment_detail.id}`,
        {
          headers: authOf(merchant),
        },
      );
      expect(shown.body.payment_detail).toMatchObject(canonical);
    }
  });

  it('refuses a malformed identifier at creation with 422 naming the field', async () => {
    const create = (detail: unknown) => post(`/users/${userId}/payment_details`, { payment_detail: detail });
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ ...mxnLocal, document_number: 'HELLO' }, 'payment_detail.document_number'],
      [{ ...mxnLocal, bank_name: 'Hey Banco' }, 'payment_detail.account_number'],
      [{ ...eurLocal, iban: 'AE070331234567890123456' }, 'payment_detail.iban'],
      [{ ...arsLocal, document_number: '50000000016' }, 'payment_detail.document_number'],
    ];
    for (const [detail, path] of refused) {
      const res = await create(detail);
      expectError(res, 422, 'record_invalid');
      expect(res.body.errors).toEqual([{ path, message: expect.any(String) }]);
    }
  });

  it('sends signed payment_detail_update webhooks on sandbox status changes and deactivation', async () => {
    const put = await service.request('PUT', '/webhook_endpoint', {
      headers: authOf(merchant),
      json: { webhook_endpoint: { url: receiver.url } },
    });
    expect(put.status).toBe(200);
    const secret = await webhookSecretOf(service, merchant);
    const created = await post(`/users/${userId}/payment_details`, { payment_detail: gbpSwift });
    expect(created.status, created.text).toBe(200);
    const id = created.body.payment_detail.id;

    const approve = await service.request('PATCH', `/sandbox/users/${userId}/payment_details/${id}`, {
      headers: authOf(merchant),
      json: { payment_detail: { status: 'approved' } },
    });
    expect(approve.status, approve.text).toBe(200);
    expect(approve.body.payment_detail.status).toBe('approved');
    const off = await service.request('PATCH', `/users/${userId}/payment_details/${id}/deactivate`, {
      headers: authOf(merchant),
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.payment_detail.status).toBe('deactivated');
    expectError(
      await service.request('PATCH', `/sandbox/users/${userId}/payment_details/${id}`, {
        headers: authOf(merchant),
        json: { payment_detail: { status: 'approved' } },
      }),
      422,
      'payment_detail_not_active',
    );

    const received = await receiver.waitFor(2);
    const bodies = received.map((r) => JSON.parse(r.body));
    expect(
      bodies.map((b) => [b.event, b.payload.payment_detail.id, b.payload.payment_detail.status]).sort(),
    ).toEqual([
      ['payment_detail_update', id, 'approved'],
      ['payment_detail_update', id, 'deactivated'],
    ]);
    for (const r of received) expect(signatureMatches(secret, r.headers['x-sig'], r.body)).toBe(true);
    // Two events about one payment detail: numbered 1 and 2 in the order they happened, the envelope
    // repeating the headers' id and sequence.
    const bySequence = bodies
      .map((b, i) => ({ b, h: received[i]!.headers }))
      .sort((x, y) => x.b.sequence - y.b.sequence);
    expect(bySequence.map(({ b }) => [b.sequence, b.payload.payment_detail.status])).toEqual([
      [1, 'approved'],
      [2, 'deactivated'],
    ]);
    for (const { b, h } of bySequence) {
      expect(h['x-event-id']).toBe(b.id);
      expect(h['x-event-sequence']).toBe(String(b.sequence));
    }
    expect(bodies[0].payload.payment_detail.iban).toBe('GB82WEST12345698765432');
  });

  it('keeps every payment detail route to its account (404 for others) and checks ids', async () => {
    const list = await service.request('GET', `/users/${userId}/payment_details`, {
      headers: authOf(merchant),
    });
    const id = list.body.payment_details[0].id;
    const as = authOf(other);
    const cases: Array<[string, string, unknown]> = [
      ['GET', `/users/${userId}/payment_details`, undefined],
      ['GET', `/users/${userId}/payment_details/${id}`, undefined],
      ['POST', `/users/${userId}/payment_details`, { payment_detail: usdLocal }],
      ['POST', `/users/${userId}/payment_details/validate`, { payment_detail: usdLocal }],
      ['PATCH', `/users/${userId}/payment_details/${id}/deactivate`, undefined],
      ['PATCH', `/sandbox/users/${userId}/payment_details/${id}`, { payment_detail: { status: 'approved' } }],
      ['PATCH', `/sandbox/users/${userId}/kycs`, { kyc: { status: 'approved' } }],
    ];
    for (const [method, path, json] of cases) {
      expectError(
        await service.request(method, path, { headers: as, ...(json ? { json } : {}) }),
        404,
        'record_not_found',
      );
    }
    expectError(
      await service.request('GET', `/users/${userId}/payment_details/not-a-uuid`, {
        headers: authOf(merchant),
      }),
      404,
      'record_not_found',
    );
    expectError(
      await service.request('GET', `/users/${userId}/payment_details/00000000-0000-4000-8000-000000000000`, {
        headers: authOf(merchant),
      }),
      404,
      'record_not_found',
    );
    expectError(
      await service.request('PATCH', `/sandbox/users/${userId}/payment_details/${id}`, {
        headers: authOf(merchant),
        json: { payment_detail: { status: 'deactivated' } },
      }),
      422,
      'record_invalid',
    );
  });
});

describe.skipIf(databaseUnavailable())('latam bank names and the webhook endpoint', () => {
  let service: TestService;
  let merchant: TestMerchant;

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
  });

  const get = (query: string) =>
    service.request('GET', `/latam_bank_names${query}`, { headers: authOf(merchant) });

  it('lists the bank names of a country', async () => {
    const mx = await get('?country_code=MX');
    expect(mx.status).toBe(200);
    expect(Object.keys(mx.body)).toEqual(['bank_names']);
    expect(mx.body.bank_names).toContain('BANAMEX');
    expect(mx.body.bank_names).toContain('INVEX ');
    const co = await get('?country_code=CO&rails=koywe');
    expect(co.status).toBe(200);
    expect(co.body.bank_names.length).toBeGreaterThan(0);
  });

  it('refuses bad queries in the one error shape', async () => {
    const missing = await get('');
    expectError(missing, 400, 'parameter_missing');
    expect(missing.body.errors).toEqual([{ path: 'country_code', message: 'is required' }]);
    const bad = await get('?country_code=BR');
    expectError(bad, 422, 'record_invalid');
    expect(bad.body.errors[0].path).toBe('country_code');
    const co = await get('?country_code=CO');
    expectError(co, 422, 'record_invalid');
    expect(co.body.errors).toEqual([{ path: 'rails', message: 'must be koywe for CO' }]);
    expectError(await get('?country_code=MX&country_code=AR'), 422, 'record_invalid');
    expectError(await service.request('GET', '/latam_bank_names?country_code=MX'), 401, 'unauthorized');
  });

  it('sets, shows, replaces and deletes the account webhook endpoint', async () => {
    const other = await service.createMerchant();
    const put = (url: unknown, who = merchant) =>
      service.request('PUT', '/webhook_endpoint', {
        headers: authOf(who),
        json: { webhook_endpoint: { url } },
      });
    expectError(
      await service.request('GET', '/webhook_endpoint', { headers: authOf(merchant) }),
      404,
      'record_not_found',
    );
    const first = await put('https://hooks.example/one');
    expect(first.status).toBe(200);
    expect(first.body.webhook_endpoint.url).toBe('https://hooks.example/one');
    expect((await put('https://hooks.example/two')).body.webhook_endpoint.url).toBe(
      'https://hooks.example/two',
    );
    const shown = await service.request('GET', '/webhook_endpoint', { headers: authOf(merchant) });
    expect(shown.body.webhook_endpoint).toMatchObject({ url: 'https://hooks.example/two' });
    expectError(
      await service.request('GET', '/webhook_endpoint', { headers: authOf(other) }),
      404,
      'record_not_found',
    );
    expectError(await put('ftp://nope'), 422, 'record_invalid');
    expectError(
      await service.request('PUT', '/webhook_endpoint', { headers: authOf(merchant), json: {} }),
      400,
      'parameter_missing',
    );
    const deleted = await service.request('DELETE', '/webhook_endpoint', { headers: authOf(merchant) });
    expect(deleted.status).toBe(200);
    expectError(
      await service.request('DELETE', '/webhook_endpoint', { headers: authOf(merchant) }),
      404,
      'record_not_found',
    );
  });
});
